"use client";
/**
 * The run page's final-run control (a client component; no zod here, the server checks
 * everything): on a team-selected phase, the run's team marks the run as one of its final runs
 * ("Count as final") or unmarks it ("Remove from final runs"), with "k of N final runs chosen"
 * and the outcome announced in a live region.
 */
import { useActionState } from "react";
import { Notice, primaryButton, secondaryButton } from "../../_components/ui";
import type { FinalRunView } from "@/lib/view-models/submission-view";
import { finalRunAction, type RunControlFormState } from "./actions";

const IDLE: RunControlFormState = { status: "idle" };

/**
 * The control.
 *
 * @param submissionId the run
 * @param selected the run is marked final now
 * @param count how many of the team's runs are marked final
 * @param limit how many it may mark (the phase's `finalRunLimit`)
 * @param canChange the team may change it now (for marking: also a place left and the run eligible)
 * @param reason why it cannot be marked, or null
 * @param others the team's other final runs (their system names), to name them
 * @param closesAtText when the choice closes, for people
 */
export function FinalRunForm({
  submissionId,
  selected,
  count,
  limit,
  canChange,
  reason,
  others,
  closesAtText,
}: FinalRunView & { submissionId: string }) {
  const [state, action, pending] = useActionState<RunControlFormState, FormData>(finalRunAction, IDLE);
  return (
    <form action={action} className="space-y-3" data-testid="final-run-form">
      <input type="hidden" name="submissionId" value={submissionId} />
      <input type="hidden" name="selected" value={selected ? "false" : "true"} />
      <p className="text-sm text-zinc-700">
        This phase ranks each team by the best of the runs it marks as final (up to {limit}); a team that marks none is represented by its latest
        run. You can change your choice until the phase closes ({closesAtText}).
      </p>
      <p className="text-sm font-medium text-zinc-900" data-testid="final-run-count">
        {count} of {limit} final {limit === 1 ? "run" : "runs"} chosen{selected ? ", this one included" : ""}.
        {others.length > 0 && <span className="font-normal text-zinc-700"> Also chosen: {others.join(", ")}.</span>}
      </p>
      {reason && !selected && <p className="text-sm text-zinc-600">{reason}</p>}
      <button type="submit" disabled={pending || !canChange} className={selected ? secondaryButton : primaryButton}>
        {pending ? "Saving…" : selected ? "Remove from final runs" : "Count as final"}
      </button>
      <div aria-live="polite">
        {state.status === "done" && <Notice kind="success">{state.message}</Notice>}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
    </form>
  );
}
