"use client";

import { useActionState } from "react";
import type { EvaluationChoices } from "../../../lib/services/task-evaluation";
import { LEADERBOARD_METRICS } from "../../../lib/validations/metrics";
import { metricF1Name } from "../../_components/metric-name";
import { TaskPhaseFields } from "../../_components/task-phase-fields";
import { Field, Notice, primaryButton, SelectField, TextAreaField } from "../../_components/ui";
import { EvaluationFields } from "../[slug]/manage/evaluation-settings-form";
import { createTaskAction, type NewTaskState, type NewTaskValues } from "./actions";

const METRIC_OPTIONS = LEADERBOARD_METRICS.map((m) => [m, metricF1Name(m)] as const);

/**
 * The new-task form: task fields, the evaluation profile and two phases. After a failed
 * attempt the form is re-mounted with the submitted values, so nothing typed is lost.
 *
 * @param choices the evaluation profiles on offer (`evaluationChoices()`)
 */
export function NewTaskForm({ initial, choices }: { initial: NewTaskValues; choices: EvaluationChoices }) {
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

      {values.phases.map((phase, i) => (
        <fieldset key={i} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
          <legend className="px-1 text-base font-semibold text-zinc-900">Phase {i + 1}</legend>
          <TaskPhaseFields namePrefix={`phases.${i}.`} idPrefix={`phase-${i}`} values={phase} errors={errors} />
        </fieldset>
      ))}

      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Creating…" : "Create task"}
        </button>
        <p className="text-xs text-zinc-500">You become an organizer of the new task. Gold keys are uploaded on the next page.</p>
      </div>
    </form>
  );
}
