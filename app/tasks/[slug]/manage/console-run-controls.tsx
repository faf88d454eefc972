"use client";
/**
 * The organizer's controls of one run in the console's submissions table: re-score, hide /
 * unhide, disqualify with a public reason (a small form that opens under the button) /
 * reinstate. The outcome is announced in a live region next to them. The server
 * (`consoleRunAction` → lib/runs/controls.ts) enforces every rule again.
 */
import { useActionState } from "react";
import { secondaryButton } from "@/app/_components/ui";
import type { SubmissionStatus } from "@/lib/db";
import { consoleRunAction, type ConsoleActionState } from "./console-actions";

/** What the controls need to know about a run. */
export interface ConsoleRunControlsProps {
  id: string;
  systemName: string;
  status: SubmissionStatus;
  hidden: boolean;
  disqualified: boolean;
  withdrawn: boolean;
}

const small = `${secondaryButton} !px-2 !py-1 text-xs whitespace-nowrap`;

/**
 * The controls of one run (see the file comment).
 *
 * @param props the run's id, system name (for the buttons' accessible names), status and flags
 */
export function ConsoleRunControls({ id, systemName, status, hidden, disqualified, withdrawn }: ConsoleRunControlsProps) {
  const [state, action, pending] = useActionState<ConsoleActionState, FormData>(consoleRunAction, { attempt: 0, status: "idle" });
  const busy = status === "QUEUED" || status === "SCORING";
  const reasonId = `reason-${id}`;
  const run = <span className="sr-only"> run {systemName}</span>;
  return (
    <div className="flex min-w-56 flex-col gap-1.5" data-testid="console-run-controls">
      <form action={action} className="flex flex-wrap gap-1.5">
        <input type="hidden" name="submissionId" value={id} />
        <button type="submit" name="intent" value="rescore" disabled={pending || busy} className={small} title={busy ? "Queued or being scored already" : undefined}>
          Re-score{run}
        </button>
        <button type="submit" name="intent" value={hidden ? "unhide" : "hide"} disabled={pending} className={small}>
          {hidden ? "Unhide" : "Hide"}
          {run}
        </button>
        {disqualified && (
          <button type="submit" name="intent" value="requalify" disabled={pending} className={small}>
            Reinstate{run}
          </button>
        )}
      </form>
      {!disqualified && !withdrawn && (
        <details className="text-xs">
          <summary className="cursor-pointer text-zinc-700 underline">
            Disqualify…<span className="sr-only"> run {systemName}</span>
          </summary>
          <form action={action} className="mt-1.5 flex flex-col gap-1.5" noValidate>
            <input type="hidden" name="submissionId" value={id} />
            <input type="hidden" name="intent" value="disqualify" />
            <label htmlFor={reasonId} className="font-medium text-zinc-800">
              Public reason (shown on the board)
            </label>
            <textarea
              id={reasonId}
              name="reason"
              rows={2}
              maxLength={500}
              required
              aria-invalid={state.status === "error" && state.fieldErrors.reason ? true : undefined}
              className="w-full rounded-md border border-zinc-300 px-2 py-1 text-xs"
            />
            <button type="submit" disabled={pending} className={`${small} self-start`}>
              Disqualify{run}
            </button>
          </form>
        </details>
      )}
      <p role="status" aria-live="polite" className="text-xs" data-testid="console-run-result">
        {pending && <span className="text-zinc-600">Working…</span>}
        {!pending && state.status === "done" && <span className="text-emerald-800">{state.message}</span>}
        {!pending && state.status === "error" && <span className="text-red-700">{state.message}</span>}
      </p>
    </div>
  );
}
