/**
 * The submission page's run controls (issue 11 §3, §4): what a withdrawal or disqualification
 * means, the team's withdrawal and the organizers' disqualification, and the team's final-run choice.
 */
import type { RunFinalState, SubmissionView } from "@/lib/runs";
import { finalRunView, runControlsView } from "@/lib/view-models/submission-view";
import { Card, Notice, UtcTime } from "@/app/_components/ui";
import { FinalRunForm } from "../final-run-form";
import { DisqualifyRunForm, RequalifyRunForm, WithdrawRunForm } from "../run-controls-form";

/** What a withdrawal or a disqualification means for this run, said to whoever sees the page. */
export function RunControlNotices({ s }: { s: SubmissionView }) {
  return (
    <>
      {s.withdrawnAt && (
        <Notice kind="info">
          <span data-testid="withdrawn-notice">
            {s.viewerIsTeamMember ? "Your team" : "The team"} withdrew this run on <UtcTime date={s.withdrawnAt} />. It is on no leaderboard; it still counts
            against the team&apos;s quota. Only the team and the organizers see this page.
          </span>
        </Notice>
      )}
      {s.disqualified && (
        <Notice kind="error">
          <span data-testid="disqualified-notice">
            Disqualified by the organizers on <UtcTime date={s.disqualified.at} />: {s.disqualified.reason}. The leaderboard shows the run struck through,
            without a rank.
          </span>
        </Notice>
      )}
    </>
  );
}

/** The team's "Withdraw this run" (while it may) and the organizers' "Disqualify" / "Reinstate" (`runControlsView`); nothing for others. */
export function RunControls({ s }: { s: SubmissionView }) {
  const controls = runControlsView(s);
  if (!controls) return null;
  const { withdrawClosesAtText, organizer } = controls;
  return (
    <Card title="Run controls">
      <div className="space-y-6">
        {withdrawClosesAtText !== null && <WithdrawRunForm submissionId={s.id} closesAtText={withdrawClosesAtText} />}
        {organizer && (
          <div className="space-y-3">
            <h3 className="text-sm font-semibold text-zinc-900">{organizer.heading}</h3>
            <DisqualifyRunForm submissionId={s.id} currentReason={organizer.currentReason} />
            {organizer.canReinstate && <RequalifyRunForm submissionId={s.id} />}
          </div>
        )}
      </div>
    </Card>
  );
}

/** The team's "Count as final" / "Remove from final runs" on a team-selected phase (`finalRunView`). */
export function FinalRunCard({ submissionId, state }: { submissionId: string; state: RunFinalState }) {
  const final = finalRunView(state);
  return (
    <Card title="Final run" description="Which of your team's runs count on this phase's leaderboard.">
      <FinalRunForm
        submissionId={submissionId}
        selected={final.selected}
        count={final.count}
        limit={final.limit}
        canChange={final.canChange}
        reason={final.reason}
        others={final.others}
        closesAtText={final.closesAtText}
      />
    </Card>
  );
}
