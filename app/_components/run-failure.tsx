/**
 * Why a submission failed: the person-readable message, and where in the file when the
 * problem has a location (line, column, and the offending line's excerpt, which scrolls
 * sideways inside its own keyboard-reachable box on a narrow screen). Server-safe.
 */
import type { SubmissionView } from "@/lib/runs";
import { Notice } from "./ui";

/** The error fields of a FAILED submission (`SubmissionView.error`). */
export type RunError = NonNullable<SubmissionView["error"]>;

/** Reads `{file?, line?, column?, excerpt?}` out of the stored JSON location. */
function locationOf(location: unknown): { file?: string; line?: number; column?: number; excerpt?: string } | null {
  if (typeof location !== "object" || location === null) return null;
  const l = location as Record<string, unknown>;
  const out = {
    file: typeof l.file === "string" ? l.file : undefined,
    line: typeof l.line === "number" ? l.line : undefined,
    column: typeof l.column === "number" ? l.column : undefined,
    excerpt: typeof l.excerpt === "string" ? l.excerpt : undefined,
  };
  return out.line !== undefined || out.excerpt !== undefined ? out : null;
}

/** The failure box. */
export function RunFailure({ error }: { error: RunError }) {
  const where = locationOf(error.location);
  return (
    <div data-testid="run-failure">
      <Notice kind="error">
        <p className="break-words font-medium">{error.message ?? "Scoring failed."}</p>
        {where && (
          <p className="mt-1 break-all font-mono text-xs">
            {where.file ?? "file"}
            {where.line !== undefined && `:${where.line}`}
            {where.column !== undefined && `:${where.column}`}
          </p>
        )}
        {where?.excerpt && (
          // A long line scrolls inside its own keyboard-reachable box, not the page.
          <pre
            tabIndex={0}
            role="region"
            aria-label="The line of the file where the problem is"
            className="relative mt-2 max-w-full overflow-x-auto rounded bg-white/70 p-2 font-mono text-xs focus:outline-none focus-visible:ring-2 focus-visible:ring-red-400"
          >
            {where.excerpt}
          </pre>
        )}
        {error.stage === "platform" && <p className="mt-1 text-xs">This was a platform problem: it does not count against your limits.</p>}
        {error.stage === "validation" && <p className="mt-1 text-xs">Fix the file and submit it again.</p>}
      </Notice>
    </div>
  );
}
