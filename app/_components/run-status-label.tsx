/**
 * A submission status as a coloured pill (QUEUED, SCORING, SCORED, FAILED). Server-safe; the
 * live version on the submission page is `RunStatusBadge`.
 */

import type { SubmissionStatus } from "@/lib/db";

/** The statuses a submission goes through: the database's enum. */
export type RunStatus = SubmissionStatus;

const STYLES: Record<RunStatus, string> = {
  QUEUED: "border-zinc-300 bg-zinc-100 text-zinc-800",
  SCORING: "border-sky-300 bg-sky-50 text-sky-900",
  SCORED: "border-emerald-300 bg-emerald-50 text-emerald-900",
  FAILED: "border-red-300 bg-red-50 text-red-800",
};

/** What each status means, for the `title`. */
const STATUS_HELP: Record<RunStatus, string> = {
  QUEUED: "Waiting for a scoring worker.",
  SCORING: "Being scored now.",
  SCORED: "Scored: the numbers below are final for this gold version.",
  FAILED: "Scoring failed; see the message below.",
};

/** True while the worker has not finished with the submission. */
export function isPending(status: string): boolean {
  return status === "QUEUED" || status === "SCORING";
}

/** The status pill. */
export function RunStatusLabel({ status, testId }: { status: RunStatus; testId?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide ${STYLES[status]}`}
      title={STATUS_HELP[status]}
      data-testid={testId}
      data-status={status}
    >
      {status}
    </span>
  );
}
