"use client";

import { useActionState } from "react";
import { TaskPhaseFields } from "../../../_components/task-phase-fields";
import type { PhaseFormValues } from "../../../_components/task-phase-form-data";
import { Notice, primaryButton } from "../../../_components/ui";
import { updatePhaseAction, type PhaseSettingsState } from "./actions";

/** Edits one phase's settings; after each save the form shows the stored (or submitted) values. */
export function PhaseSettingsForm({ phaseId, initial }: { phaseId: string; initial: PhaseFormValues }) {
  const [state, action, pending] = useActionState<PhaseSettingsState, FormData>(updatePhaseAction, { attempt: 0, values: initial, status: "idle" });
  return (
    <form key={state.attempt} action={action} className="space-y-4" noValidate aria-label="Phase settings">
      <input type="hidden" name="phaseId" value={phaseId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "saved" && <Notice kind="success">Settings saved.</Notice>}
      <TaskPhaseFields namePrefix="" idPrefix={`phase-${phaseId}`} values={state.values} errors={state.status === "error" ? state.fieldErrors : {}} />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Saving…" : "Save settings"}
      </button>
    </form>
  );
}
