/** The submission page's header: breadcrumbs, the system's name with its live status and badges, and the team (and track). */
import type { SubmissionView } from "@/lib/runs";
import type { SubmissionPageView } from "@/lib/view-models/submission-view";
import { RunStatusBadge } from "@/app/_components/run-status-badge";
import { Breadcrumbs } from "@/app/_components/ui";

/**
 * The header: breadcrumbs to the task and the run's board, the system's name, a live status
 * badge and the baseline / private / withdrawn / disqualified badges, then "Team <name> · <track> track".
 */
export function SubmissionHeader({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <header className="space-y-2">
      <Breadcrumbs links={view.breadcrumbs} />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-words text-2xl font-semibold tracking-tight" data-testid="system-name">
          {s.systemName}
        </h1>
        <RunStatusBadge id={s.id} initialStatus={s.status} />
        <RunBadges s={s} />
      </div>
      <p className="break-words text-sm text-zinc-700">
        Team <span className="font-medium" data-testid="team-name">{s.team.name}</span>
        {s.track && (
          <>
            {" "}
            · {s.track.name} track
          </>
        )}
      </p>
    </header>
  );
}

/** The badges after the status: baseline, private, withdrawn, disqualified. */
function RunBadges({ s }: { s: SubmissionView }) {
  return (
    <>
      {s.isBaseline && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">baseline</span>}
      {s.visibility === "PRIVATE" && <span className="rounded bg-zinc-200 px-2 py-0.5 text-xs font-medium text-zinc-800">private</span>}
      {s.withdrawnAt && (
        <span className="rounded bg-zinc-700 px-2 py-0.5 text-xs font-medium text-white" data-testid="withdrawn-badge">
          withdrawn
        </span>
      )}
      {s.disqualified && (
        <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900" data-testid="disqualified-badge">
          disqualified
        </span>
      )}
    </>
  );
}
