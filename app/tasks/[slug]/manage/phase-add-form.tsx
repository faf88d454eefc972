"use client";
/**
 * The phases tab's "Add phase" form: a new phase's settings (pre-filled with a suggestion
 * after the task's last phase) and the date preview. `addPhaseAction` creates it (the task's
 * default dataset comes with it); the page then lists it with the others.
 */
import { useActionState } from "react";
import { TaskPhaseFields } from "@/app/_components/task-phase-fields";
import type { PhaseFormValues } from "@/app/_components/task-phase-form-data";
import { Notice, primaryButton } from "@/app/_components/ui";
import { addPhaseAction, type AddPhaseState } from "./actions";
import { PhaseDatePreview, usePhaseFormDates } from "./phase-date-preview";

/**
 * The form.
 *
 * @param initial the suggested new phase (`newPhaseValues`)
 * @param now the page's time, for the date preview
 */
export function PhaseAddForm({ taskId, initial, now }: { taskId: string; initial: PhaseFormValues; now: Date }) {
  const [state, action, pending] = useActionState<AddPhaseState, FormData>(addPhaseAction, { attempt: 0, values: initial, status: "idle" });
  return <PhaseAddFields key={state.attempt} taskId={taskId} state={state} action={action} pending={pending} now={now} />;
}

function PhaseAddFields({ taskId, state, action, pending, now }: { taskId: string; state: AddPhaseState; action: (formData: FormData) => void; pending: boolean; now: Date }) {
  const [dates, onChange] = usePhaseFormDates(state.values, now);
  return (
    <form action={action} onChange={onChange} className="space-y-4" noValidate aria-label="Add phase">
      <input type="hidden" name="taskId" value={taskId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "added" && <Notice kind="success">Phase “{state.name}” added.</Notice>}
      <TaskPhaseFields namePrefix="" idPrefix="new-phase" values={state.values} errors={state.status === "error" ? state.fieldErrors : {}} />
      <PhaseDatePreview typed={dates} stored={null} now={dates.now} />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Adding…" : "Add phase"}
      </button>
    </form>
  );
}
