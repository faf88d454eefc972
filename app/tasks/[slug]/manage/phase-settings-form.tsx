"use client";

import { useActionState } from "react";
import { TaskPhaseFields } from "@/app/_components/task-phase-fields";
import type { PhaseFormValues } from "@/app/_components/task-phase-form-data";
import { Notice, primaryButton } from "@/app/_components/ui";
import { updatePhaseAction, type PhaseSettingsState } from "./actions";
import { PhaseDatePreview, usePhaseFormDates } from "./phase-date-preview";

/**
 * Edits one phase's settings; after each save the form shows the stored (or submitted)
 * values. Below the fields, the date preview says what the typed dates mean for teams,
 * compared with the stored ones, and follows every change of the opening, closing time or zone.
 *
 * @param now the page's time (the preview measures distances from it until the first change)
 * @param readOnly the task is archived: the settings are shown but cannot be saved
 */
export function PhaseSettingsForm({ phaseId, initial, now, readOnly = false }: { phaseId: string; initial: PhaseFormValues; now: Date; readOnly?: boolean }) {
  const [state, action, pending] = useActionState<PhaseSettingsState, FormData>(updatePhaseAction, { attempt: 0, values: initial, status: "idle" });
  return (
    <PhaseSettingsFields key={state.attempt} phaseId={phaseId} state={state} action={action} pending={pending} stored={state.status === "saved" ? state.values : initial} now={now} readOnly={readOnly} />
  );
}

/** The form proper, re-mounted after each save (its typed dates start from the values to show). */
function PhaseSettingsFields({
  phaseId,
  state,
  action,
  pending,
  stored,
  now,
  readOnly,
}: {
  phaseId: string;
  state: PhaseSettingsState;
  action: (formData: FormData) => void;
  pending: boolean;
  stored: PhaseFormValues;
  now: Date;
  readOnly: boolean;
}) {
  const [dates, onChange] = usePhaseFormDates(state.values, now);
  return (
    <form action={action} onChange={onChange} className="space-y-4" noValidate aria-label="Phase settings">
      <input type="hidden" name="phaseId" value={phaseId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "saved" && <Notice kind="success">Settings saved.</Notice>}
      <fieldset disabled={readOnly} className="space-y-4">
        <TaskPhaseFields namePrefix="" idPrefix={`phase-${phaseId}`} values={state.values} errors={state.status === "error" ? state.fieldErrors : {}} />
      </fieldset>
      <PhaseDatePreview typed={dates} stored={stored} now={dates.now} />
      {!readOnly && (
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Saving…" : "Save settings"}
        </button>
      )}
    </form>
  );
}
