/** The submission page's scores: the metric table with its provenance, the scores under each evaluation setting, and the scorer's warnings. */
import type { SubmissionView } from "@/lib/runs";
import type { SubmissionPageView } from "@/lib/view-models/submission-view";
import { RunMetricTable } from "@/app/_components/run-metric-table";
import { RunVariantScoreTable } from "@/app/_components/run-variant-scores";
import { RunWarnings } from "@/app/_components/run-warnings";
import { Card, Notice, UtcTime } from "@/app/_components/ui";

/**
 * The "Scores" card: a notice while the run is scored again, the full metric table (or why
 * there is none), and what the scores were produced with (profile, gold and scorer versions, time).
 */
export function ScoresCard({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <Card title="Scores" description={view.scoresDescription ?? undefined}>
      {view.rescoring && (
        <div className="mb-4">
          <Notice kind="info">
            These scores were produced with {view.goldVersionText}; the run is being scored again (for example against a new gold version).
          </Notice>
        </div>
      )}
      {s.scores ? (
        <RunMetricTable scores={s.scores} caption={`Scores of ${s.systemName}`} fractionsOpen={view.fractionsOpen} />
      ) : (
        <p className="text-sm text-zinc-600" data-testid="no-scores">
          {view.noScoresText}
        </p>
      )}
      {s.scores && <ScoreProvenance s={s} view={view} />}
    </Card>
  );
}

/** "Scored with: CRAC. Scored against gold version 2 with scorer version 1.2 on <time>." */
function ScoreProvenance({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <p className="mt-3 text-xs text-zinc-600" data-testid="score-provenance">
      {s.evaluation && <span data-testid="scored-with">Scored with: {s.evaluation.label}. </span>}
      Scored against {view.goldVersionText} with scorer version {s.scorerVersion ?? "?"}
      {s.scoredAt && (
        <>
          {" "}
          on <UtcTime date={s.scoredAt} />
        </>
      )}
      .
    </p>
  );
}

/** The run's F1 under the primary setting and each evaluation variant; nothing without variant scores. */
export function VariantScoresCard({ view }: { view: SubmissionPageView }) {
  if (!view.variantScores) return null;
  return (
    <Card title="Scores under each evaluation setting" description={view.variantScoresDescription}>
      <RunVariantScoreTable table={view.variantScores} />
    </Card>
  );
}

/** The scorer's warnings at the run's last scoring; nothing without warnings. */
export function WarningsCard({ s }: { s: SubmissionView }) {
  if (s.warnings.length === 0) return null;
  return (
    <Card
      title={`Scorer warnings (${s.warnings.length})`}
      description="What the scorer noticed in this run at its last scoring: documents that are not in the gold key are ignored, and key documents missing from the run are scored as empty."
    >
      <RunWarnings warnings={s.warnings} />
    </Card>
  );
}
