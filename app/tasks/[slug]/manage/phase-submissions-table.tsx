/**
 * A page of a phase's runs in the organizer's console (from `listConsoleRuns`), newest first:
 * team, system with its flags, track, status, primary score, submission time (UTC), warnings
 * count, a link to the run, and the organizer's controls. Scrolls sideways inside its container
 * on narrow screens.
 */
import Link from "@/app/_components/link";
import type { ReactNode } from "react";
import type { ConsoleRun } from "@/lib/runs";
import { isLeaderboardMetric, METRIC_LABELS } from "@/lib/validations/metrics";
import { Table, UtcTime } from "@/app/_components/ui";
import { ConsoleRunControls } from "./console-run-controls";

const STATUS_STYLES: Record<ConsoleRun["status"], string> = {
  QUEUED: "text-zinc-600",
  SCORING: "text-sky-700",
  SCORED: "text-emerald-700",
  FAILED: "text-red-700",
};

/** A small label next to the system name. */
function Flag({ children, className = "bg-zinc-100 text-zinc-700", title, testId }: { children: ReactNode; className?: string; title?: string; testId?: string }) {
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${className}`} title={title} data-testid={testId}>
      {children}
    </span>
  );
}

/** The flags of a run: baseline, private, final-selected, withdrawn, hidden, disqualified (with the reason). */
function RunFlags({ run }: { run: ConsoleRun }) {
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {run.isBaseline && <Flag testId="baseline-label">baseline</Flag>}
      {run.visibility !== "PUBLIC" && <Flag>private</Flag>}
      {run.finalSelectedAt && (
        <Flag className="bg-sky-100 text-sky-900" testId="final-label" title="The team selected this run as one of its final runs.">
          final
        </Flag>
      )}
      {run.withdrawnAt && (
        <Flag className="bg-zinc-700 text-white" testId="withdrawn-label" title="The team withdrew this run: it is on no leaderboard.">
          withdrawn
        </Flag>
      )}
      {run.hiddenAt && (
        <Flag className="bg-amber-100 text-amber-900" testId="hidden-label" title="Hidden by the organizers: only its team and the organizers see it.">
          hidden
        </Flag>
      )}
      {run.disqualified && (
        <Flag className="bg-red-100 text-red-900" testId="disqualified-label">
          disqualified: {run.disqualified.reason}
        </Flag>
      )}
    </span>
  );
}

/**
 * The runs table of the submissions tab.
 *
 * @param runs one page of runs
 * @param primaryMetric the metric of the score column ("conll", …)
 * @param withTracks show the track column (the phase has tracks, or a run declares one)
 * @param caption the table's caption (for screen readers), e.g. "Runs of phase test, page 1 of 3"
 */
export function PhaseSubmissionsTable({ runs, primaryMetric, withTracks = false, caption }: { runs: ConsoleRun[]; primaryMetric: string; withTracks?: boolean; caption: string }) {
  if (runs.length === 0) return <p className="text-sm text-zinc-600">No runs match.</p>;
  return (
    <Table
      caption={caption}
      testId="console-runs-table"
      columns={[
        "Team",
        "System",
        ...(withTracks ? ["Track"] : []),
        "Status",
        { label: `${isLeaderboardMetric(primaryMetric) ? METRIC_LABELS[primaryMetric] : primaryMetric} F1`, right: true },
        "Submitted",
        { label: "Warnings", right: true },
        "Actions",
      ]}
    >
      {runs.map((run) => (
        <tr key={run.id} data-testid="phase-submission-row" className="align-top">
          <td className="py-2 pr-4">{run.team.name}</td>
          <td className="py-2 pr-4">
            <Link href={`/submissions/${run.id}`} className="font-medium text-zinc-900 underline">
              {run.systemName}
            </Link>
            <RunFlags run={run} />
          </td>
          {withTracks && <td className="py-2 pr-4">{run.track?.name ?? "—"}</td>}
          <td className={`py-2 pr-4 font-medium ${STATUS_STYLES[run.status]}`} title={run.errorMessage ?? undefined} data-testid="run-status">
            {run.status.toLowerCase()}
          </td>
          <td className="py-2 pr-4 text-right tabular-nums" data-testid="run-score">
            {run.primaryScore === null ? "—" : (run.primaryScore * 100).toFixed(2)}
          </td>
          <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
            <UtcTime date={run.submittedAt} />
          </td>
          <td className="py-2 pr-4 text-right tabular-nums">{run.warnings}</td>
          <td className="py-2">
            <ConsoleRunControls
              id={run.id}
              systemName={run.systemName}
              status={run.status}
              hidden={run.hiddenAt !== null}
              disqualified={run.disqualified !== null}
              withdrawn={run.withdrawnAt !== null}
            />
          </td>
        </tr>
      ))}
    </Table>
  );
}
