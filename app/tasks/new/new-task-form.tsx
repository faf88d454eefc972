"use client";

import { useActionState, useRef, useState } from "react";
import type { EvaluationChoices } from "@/lib/tasks";
import { LEADERBOARD_METRICS } from "@/lib/validations/metrics";
import { metricF1Name } from "../../_components/metric-name";
import type { FieldErrorMap } from "../../_components/task-action-result";
import { TaskPhaseFields } from "../../_components/task-phase-fields";
import { newPhaseValues, type PhaseFormValues } from "../../_components/task-phase-form-data";
import { Field, Notice, primaryButton, secondaryButton, SelectField, TextAreaField } from "../../_components/ui";
import { EvaluationFields } from "../[slug]/manage/evaluation-settings-form";
import { createTaskAction, type NewTaskState, type NewTaskValues } from "./actions";

const METRIC_OPTIONS = LEADERBOARD_METRICS.map((m) => [m, metricF1Name(m)] as const);

/**
 * The new-task form: task fields, the evaluation profile and its phases (one at first; the
 * organizer adds and removes phases). The task is created as a draft. After a failed attempt
 * the form is re-mounted with the submitted values, so nothing typed is lost.
 *
 * @param choices the evaluation profiles on offer (`evaluationChoices()`)
 * @param maxPhases the most phases a task may have (`MAX_PHASES`; passed in, as its module needs zod)
 */
export function NewTaskForm({ initial, choices, maxPhases }: { initial: NewTaskValues; choices: EvaluationChoices; maxPhases: number }) {
  const [state, action, pending] = useActionState<NewTaskState, FormData>(createTaskAction, { status: "idle" });
  const values = state.status === "error" ? state.values : initial;
  const errors = state.status === "error" ? state.fieldErrors : {};
  return (
    <form key={state.status === "error" ? state.attempt : 0} action={action} className="space-y-8" noValidate>
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}

      <fieldset className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <legend className="px-1 text-base font-semibold text-zinc-900">Task</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Slug"
            name="slug"
            defaultValue={values.slug}
            required
            maxLength={64}
            placeholder="e.g. crac-2025"
            error={errors.slug}
            hint="The task's address: /tasks/<slug>. Lower-case letters, digits and hyphens."
          />
          <Field label="Title" name="title" defaultValue={values.title} required maxLength={200} error={errors.title} />
        </div>
        <TextAreaField
          label="Description"
          name="description"
          rows={6}
          defaultValue={values.description}
          error={errors.description}
          hint="Markdown: headings, lists, links, **bold**, `code`."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextAreaField
            label="Data licence"
            name="dataLicense"
            rows={2}
            defaultValue={values.dataLicense}
            error={errors.dataLicense}
            placeholder="e.g. CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)"
          />
          <TextAreaField
            label="Data source"
            name="dataSource"
            rows={2}
            defaultValue={values.dataSource}
            error={errors.dataSource}
            placeholder="Where the data comes from, and what to cite"
          />
        </div>
        <div className="sm:w-1/2">
          <SelectField label="Primary metric" name="primaryMetric" defaultValue={values.primaryMetric} options={METRIC_OPTIONS} error={errors.primaryMetric} hint="Leaderboards rank by it." />
        </div>
        {errors.phases && <p className="text-sm text-red-700">{errors.phases}</p>}
      </fieldset>

      <fieldset className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <legend className="px-1 text-base font-semibold text-zinc-900">Evaluation</legend>
        <p className="text-sm text-zinc-600">
          How every run is scored. It can be changed later on the task&apos;s manage page, which re-scores every run.
        </p>
        <EvaluationFields idPrefix="new-task" values={values.evaluation} choices={choices} errors={errors} />
      </fieldset>

      <NewTaskPhases initial={values.phases} errors={errors} maxPhases={maxPhases} />

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Creating…" : "Create task"}
        </button>
        <p className="text-xs text-zinc-500">
          The task is created as a draft that only its organizers see; you become one. Upload the gold keys and publish it from its manage page.
        </p>
      </div>
    </form>
  );
}

/**
 * The phases of the new task, each in its own group with a "Remove phase" button (while more
 * than one is left), and "Add a phase" after them (up to the most a task may have). Inputs
 * are uncontrolled: each phase keeps what was typed when others are added or removed, and the
 * input names follow the phases' order (`phases.0.`, `phases.1.`, …).
 */
function NewTaskPhases({ initial, errors, maxPhases }: { initial: PhaseFormValues[]; errors: FieldErrorMap; maxPhases: number }) {
  const nextKey = useRef(initial.length);
  const [phases, setPhases] = useState(() => initial.map((values, key) => ({ key, values })));
  const container = useRef<HTMLDivElement>(null);
  const add = () => {
    // The suggestion follows the phases as typed so far (names and closing times read from the form).
    const typed = phases.map((p, i) => {
      const field = (name: string) => container.current?.querySelector<HTMLInputElement>(`[name="phases.${i}.${name}"]`)?.value ?? p.values[name as "name"];
      return { name: field("name"), closesAt: field("closesAt") };
    });
    const key = nextKey.current++;
    setPhases((list) => [...list, { key, values: newPhaseValues(typed, new Date()) }]);
  };
  return (
    <div ref={container} className="space-y-8">
      {phases.map((phase, i) => (
        <fieldset key={phase.key} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
          <legend className="px-1 text-base font-semibold text-zinc-900">Phase {i + 1}</legend>
          <TaskPhaseFields namePrefix={`phases.${i}.`} idPrefix={`phase-${phase.key}`} values={phase.values} errors={errors} />
          {phases.length > 1 && (
            <button type="button" className={secondaryButton} onClick={() => setPhases((list) => list.filter((p) => p.key !== phase.key))}>
              Remove phase {i + 1}
            </button>
          )}
        </fieldset>
      ))}
      {phases.length < maxPhases && (
        <button type="button" className={secondaryButton} onClick={add}>
          Add a phase
        </button>
      )}
    </div>
  );
}
