"use client";

import { useActionState, useState } from "react";
import type { EvaluationChoices, ProfileSuggestion } from "@/lib/tasks";
import type { EvaluationFormValues } from "@/lib/validations/task";
import type { FieldErrorMap } from "@/app/_components/task-action-result";
import { Notice, primaryButton, secondaryButton, SelectField } from "@/app/_components/ui";
import { updateTaskEvaluationAction, type EvaluationSettingsState } from "./actions";

/**
 * The inputs of a task's evaluation profile, shared by the new-task form and the manage
 * page: the profile (each option's text is the profile's label; the chosen one's description
 * is shown under it) and, for the custom profile, mention matching, singletons and zero
 * matching. The texts come from `evaluationChoices()` (server-side), never from this file.
 *
 * @param idPrefix prefix of the element ids, unique on the page
 * @param values the initial values
 * @param choices the profiles and custom settings on offer
 * @param errors field errors keyed by field name
 */
export function EvaluationFields({
  idPrefix,
  values,
  choices,
  errors,
}: {
  idPrefix: string;
  values: EvaluationFormValues;
  choices: EvaluationChoices;
  errors: FieldErrorMap;
}) {
  const [profile, setProfile] = useState(values.evaluationProfile || choices.profiles[0].name);
  const [match, setMatch] = useState(values.mentionMatching || choices.mentionMatching[0][0]);
  const [keep, setKeep] = useState(values.keepSingletons || choices.keepSingletons[0][0]);
  const [zero, setZero] = useState(values.zeroMatching || choices.zeroMatching[0][0]);
  const customLabel = choices.customLabels[`${match}|${keep}|${zero}`];
  const options = choices.profiles.map((p) => [p.name, p.name === "custom" && customLabel ? customLabel : p.label] as const);
  const chosen = choices.profiles.find((p) => p.name === profile);
  return (
    <div className="space-y-4">
      <SelectField
        label="Evaluation profile"
        name="evaluationProfile"
        id={`${idPrefix}-evaluationProfile`}
        value={profile}
        onChange={(e) => setProfile(e.currentTarget.value)}
        options={options}
        error={errors.evaluationProfile}
        hint={chosen?.description}
      />
      {profile === "custom" && (
        <div className="grid gap-4 sm:grid-cols-3" data-testid="custom-evaluation-fields">
          <SelectField
            label="Mention matching"
            name="mentionMatching"
            id={`${idPrefix}-mentionMatching`}
            value={match}
            onChange={(e) => setMatch(e.currentTarget.value)}
            options={choices.mentionMatching}
            error={errors.mentionMatching}
          />
          <SelectField
            label="Singletons"
            name="keepSingletons"
            id={`${idPrefix}-keepSingletons`}
            value={keep}
            onChange={(e) => setKeep(e.currentTarget.value)}
            options={choices.keepSingletons}
            error={errors.keepSingletons}
          />
          <SelectField
            label="Zero matching"
            name="zeroMatching"
            id={`${idPrefix}-zeroMatching`}
            value={zero}
            onChange={(e) => setZero(e.currentTarget.value)}
            options={choices.zeroMatching}
            error={errors.zeroMatching}
            hint="Zeros are mentions headed by an empty node; only CorefUD CoNLL-U files have them."
          />
        </div>
      )}
    </div>
  );
}

/** The outcome of the last save: changed (with the re-queue count), unchanged, or the error. */
function Result({ state }: { state: EvaluationSettingsState }) {
  if (state.status === "idle") return null;
  if (state.status === "saved") {
    const n = state.requeued;
    return (
      <div data-testid="evaluation-settings-result">
        {state.changed ? (
          <Notice kind="success">
            Evaluation profile saved: {state.label}.{" "}
            {n === 0 ? "No run needed re-scoring." : `${n} run${n === 1 ? " was" : "s were"} re-queued to be scored with it.`}
          </Notice>
        ) : (
          <Notice kind="info">Nothing changed: the task already uses {state.label}. No run was re-queued.</Notice>
        )}
      </div>
    );
  }
  return (
    <div data-testid="evaluation-settings-result">
      <Notice kind="error">{state.fieldErrors.evaluationProfile ?? state.message}</Notice>
    </div>
  );
}

/**
 * The notice that the task's gold suggests the CRAC profile, with a one-click switch (a form
 * posting the CRAC profile to the same action as the main form, so it re-scores and reports
 * alike). Never shown once the task uses another profile than the default one.
 */
function SuggestionNotice({ taskId, suggestion, action, pending }: { taskId: string; suggestion: ProfileSuggestion; action: (formData: FormData) => void; pending: boolean }) {
  return (
    <div data-testid="evaluation-suggestion">
      <Notice kind="info">
        <p className="font-medium">{suggestion.message}.</p>
        <p className="mt-1">
          CorefUD CoNLL-U in {suggestion.conllu.join(", ")}. The CRAC profile ({suggestion.label}) is how the CRAC shared tasks score it; this task still
          uses the default CoNLL-2012 profile, and nothing changes until you choose.
          {suggestion.blocking.length > 0 && ` Before switching, make these CorefUD CoNLL-U too: ${suggestion.blocking.join(", ")}.`}
        </p>
        <form action={action} className="mt-2" aria-label="Use the suggested evaluation profile">
          <input type="hidden" name="taskId" value={taskId} />
          <input type="hidden" name="evaluationProfile" value={suggestion.profile} />
          <button type="submit" disabled={pending} className={secondaryButton}>
            {pending ? "Saving…" : "Use the CRAC profile"}
          </button>
        </form>
      </Notice>
    </div>
  );
}

/**
 * A task's evaluation profile (organizers). Saving a different profile re-scores every run
 * of the task; a profile that matches mentions by heads is refused while a phase's active
 * gold key is not CorefUD CoNLL-U.
 *
 * @param suggestion what the task's gold suggests (`evaluationProfileSuggestion`), or null;
 *   hidden once a save changed the profile
 */
export function EvaluationSettingsForm({
  taskId,
  initial,
  choices,
  suggestion,
}: {
  taskId: string;
  initial: EvaluationFormValues;
  choices: EvaluationChoices;
  suggestion: ProfileSuggestion | null;
}) {
  const [state, action, pending] = useActionState<EvaluationSettingsState, FormData>(updateTaskEvaluationAction, { attempt: 0, values: initial, status: "idle" });
  const errors = state.status === "error" ? state.fieldErrors : {};
  const suggested = suggestion && !(state.status === "saved" && state.changed) ? suggestion : null;
  return (
    <div className="space-y-4">
      <Result state={state} />
      {suggested && <SuggestionNotice taskId={taskId} suggestion={suggested} action={action} pending={pending} />}
      <form key={state.attempt} action={action} className="space-y-4" noValidate aria-label="Evaluation settings" data-testid="evaluation-settings-form">
        <input type="hidden" name="taskId" value={taskId} />
        <EvaluationFields idPrefix={`evaluation-${taskId}`} values={state.values} choices={choices} errors={errors} />
        <p className="text-xs text-zinc-600">
          Saving a different profile re-scores every run of every phase of this task with it (runs leave the leaderboards until they are
          scored again). Saving the profile in use changes nothing.
        </p>
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Saving…" : "Save evaluation profile"}
        </button>
      </form>
    </div>
  );
}
