/**
 * A list of scorer-style warnings (`scoring/types.ts` Warning: `{code, message, file?, line?,
 * document?}`): the scorer's warnings on a run's page, and the document check's warnings in
 * the upload form. Each item shows `file:line` when the warning has a line, then its message;
 * the first `shown` items are listed and the rest behind a "Show N more" disclosure (no
 * client state, so it works on server pages and in the client form alike).
 *
 * Datasets: a warning may carry the `dataset` it is about (the scorer's stored warnings of a
 * run, `SubmissionView.warnings`); it is shown before the message unless the message already
 * starts with "dataset <name>:" (the upload's document check and the worker prefix the
 * messages on a phase with several datasets).
 */
import type { Warning } from "@/scoring/types";

/** A warning, possibly naming the dataset it is about. */
type DatasetWarning = Warning & { dataset?: string };

/** The dataset label to show before a warning's message, or null (none, or already in the message). */
function datasetLabel(warning: DatasetWarning): string | null {
  if (!warning.dataset) return null;
  return warning.message.toLowerCase().startsWith(`dataset ${warning.dataset.toLowerCase()}:`) ? null : warning.dataset;
}

/** How many warnings are listed before the rest is folded away. */
const SHOWN = 20;

/** One warning: its place (when it has a line) and its message. */
function WarningItem({ warning }: { warning: DatasetWarning }) {
  const dataset = datasetLabel(warning);
  return (
    <li className="break-words text-sm" data-testid="run-warning" data-code={warning.code} data-dataset={warning.dataset}>
      {dataset && <span className="mr-1 rounded bg-zinc-100 px-1 text-xs text-zinc-700">dataset {dataset}</span>}
      {warning.line !== undefined && (
        <span className="mr-1 break-all font-mono text-xs text-zinc-600">
          {warning.file ?? "line"}:{warning.line}
        </span>
      )}
      {warning.message}
    </li>
  );
}

/**
 * The warning list.
 *
 * @param warnings the warnings, in the scorer's order
 * @param shown how many to list before folding the rest (default 20)
 * @param testId the list's `data-testid` (default "run-warnings")
 */
export function RunWarnings({ warnings, shown = SHOWN, testId = "run-warnings" }: { warnings: readonly DatasetWarning[]; shown?: number; testId?: string }) {
  const rest = warnings.slice(shown);
  return (
    <div data-testid={testId}>
      <ul className="list-disc space-y-1 pl-5">
        {warnings.slice(0, shown).map((w, i) => (
          <WarningItem key={i} warning={w} />
        ))}
      </ul>
      {rest.length > 0 && (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium">
            Show {rest.length} more warning{rest.length === 1 ? "" : "s"}
          </summary>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {rest.map((w, i) => (
              <WarningItem key={i} warning={w} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
