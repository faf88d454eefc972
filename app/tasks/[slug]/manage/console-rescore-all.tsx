"use client";
/**
 * "Re-score all runs" of a phase, with a confirmation step that says how many runs it re-queues;
 * the outcome is announced in a live region. The server (`rescorePhaseAction` →
 * `rescorePhase`) authorizes, refuses a phase without gold and audits.
 */
import { useActionState, useState } from "react";
import { primaryButton, secondaryButton } from "@/app/_components/ui";
import { rescorePhaseAction, type ConsoleActionState } from "./console-actions";

/**
 * The re-score-all control of a phase.
 *
 * @param phaseId the phase
 * @param phaseName for the confirmation's text
 * @param runs how many runs the phase has (all are re-queued)
 */
export function ConsoleRescoreAll({ phaseId, phaseName, runs }: { phaseId: string; phaseName: string; runs: number }) {
  const [state, action, pending] = useActionState<ConsoleActionState, FormData>(rescorePhaseAction, { attempt: 0, status: "idle" });
  const [asking, setAsking] = useState(false);
  return (
    <div className="space-y-2" data-testid="console-rescore-all">
      {!asking ? (
        <button type="button" className={secondaryButton} disabled={pending || runs === 0} onClick={() => setAsking(true)}>
          Re-score all runs
        </button>
      ) : (
        <form action={action} onSubmit={() => setAsking(false)} className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center">
          <input type="hidden" name="phaseId" value={phaseId} />
          <p className="text-amber-900" id={`rescore-all-${phaseId}`}>
            This re-scores all {runs} run{runs === 1 ? "" : "s"} of phase {phaseName}: each is queued again and its scores are replaced when it has been scored. Continue?
          </p>
          <div className="flex gap-2">
            <button type="submit" className={primaryButton} aria-describedby={`rescore-all-${phaseId}`}>
              Confirm
            </button>
            <button type="button" className={secondaryButton} onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <p role="status" aria-live="polite" className="text-sm" data-testid="console-rescore-all-result">
        {pending && <span className="text-zinc-600">Re-queueing…</span>}
        {!pending && state.status === "done" && <span className="text-emerald-800">{state.message}</span>}
        {!pending && state.status === "error" && <span className="text-red-700">{state.message}</span>}
      </p>
    </div>
  );
}
