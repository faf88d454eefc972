"use client";
/**
 * A phase's "Close now" button (an open phase: no more runs from now on) and "Delete phase"
 * button (shown only while the phase has no runs and is not the task's only phase; the server
 * checks again), each asking for confirmation first. `phaseLifecycleAction` does the work.
 */
import { useActionState, useState, type MouseEvent } from "react";
import { Notice, secondaryButton } from "@/app/_components/ui";
import { phaseLifecycleAction, type PhaseLifecycleState } from "./actions";

const dangerButton =
  "inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 " +
  "hover:bg-red-50 focus:outline-none focus:ring-2 focus:ring-red-200 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * The buttons of one phase.
 *
 * @param canClose the phase is open now
 * @param canDelete the phase has no runs and is not the task's only phase
 */
export function PhaseActions({ phaseId, phaseName, canClose, canDelete }: { phaseId: string; phaseName: string; canClose: boolean; canDelete: boolean }) {
  const [state, action, pending] = useActionState<PhaseLifecycleState, FormData>(phaseLifecycleAction, { status: "idle" });
  const [confirming, setConfirming] = useState<"close" | "delete" | null>(null);
  // The question's buttons and the answer's take each other's place inside the form: without
  // the default prevented (and distinct keys), the browser's activation of the clicked button
  // could run after React turned it into the submit button, submitting without confirmation.
  const ask = (event: MouseEvent<HTMLButtonElement>, what: "close" | "delete") => {
    event.preventDefault();
    setConfirming(what);
  };
  if (!canClose && !canDelete && state.status === "idle") return null;
  return (
    <div className="space-y-3" data-testid="phase-actions">
      <div aria-live="polite">
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
        {state.status === "done" && <Notice kind="success">{state.message}</Notice>}
      </div>
      {state.status !== "done" && (
        <form action={action} className="flex flex-wrap items-center gap-3" aria-label={`Close or delete phase ${phaseName}`}>
          <input type="hidden" name="phaseId" value={phaseId} />
          {confirming === null ? (
            <>
              {canClose && (
                <button key="ask-close" type="button" className={secondaryButton} onClick={(event) => ask(event, "close")}>
                  Close now
                </button>
              )}
              {canDelete && (
                <button key="ask-delete" type="button" className={dangerButton} onClick={(event) => ask(event, "delete")}>
                  Delete phase
                </button>
              )}
            </>
          ) : (
            <>
              <p className="text-sm text-zinc-800">
                {confirming === "close"
                  ? `Close the ${phaseName} phase now? Teams can no longer submit to it.`
                  : `Delete the ${phaseName} phase with its datasets, gold keys and tracks? This cannot be undone.`}
              </p>
              <button key="confirm" type="submit" name="intent" value={confirming} disabled={pending} className={confirming === "delete" ? dangerButton : secondaryButton}>
                {pending ? "Working…" : confirming === "close" ? "Yes, close it now" : "Yes, delete it"}
              </button>
              <button type="button" className={secondaryButton} onClick={() => setConfirming(null)} disabled={pending}>
                Cancel
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
