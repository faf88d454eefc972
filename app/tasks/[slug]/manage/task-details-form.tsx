"use client";
/**
 * The overview tab's "Task details" form: title, description and rules (markdown), data
 * licence and data source. `updateTaskDetailsAction` saves them (refused in an archived task).
 */
import { useActionState } from "react";
import { Field, Notice, primaryButton, TextAreaField } from "@/app/_components/ui";
import { updateTaskDetailsAction, type TaskDetailsState } from "./actions";
import type { TaskDetailsValues } from "./task-details-values";

/**
 * Edits a task's own fields; after each save the form shows the stored (or submitted) values.
 *
 * @param readOnly the task is archived: the fields are shown but cannot be saved
 */
export function TaskDetailsForm({ taskId, initial, readOnly }: { taskId: string; initial: TaskDetailsValues; readOnly: boolean }) {
  const [state, action, pending] = useActionState<TaskDetailsState, FormData>(updateTaskDetailsAction, { attempt: 0, values: initial, status: "idle" });
  const errors = state.status === "error" ? state.fieldErrors : {};
  const values = state.values;
  return (
    <form key={state.attempt} action={action} className="space-y-4" noValidate aria-label="Task details">
      <input type="hidden" name="taskId" value={taskId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "saved" && <Notice kind="success">Details saved.</Notice>}
      <Field label="Title" name="title" id="task-title" defaultValue={values.title} required maxLength={200} error={errors.title} disabled={readOnly} />
      <TextAreaField
        label="Description"
        name="description"
        id="task-description"
        rows={8}
        defaultValue={values.description}
        error={errors.description}
        disabled={readOnly}
        hint="Markdown: headings, lists, links, **bold**, `code`. Shown at the top of the task page; it must not be empty to publish."
      />
      <TextAreaField
        label="Rules"
        name="rules"
        id="task-rules"
        rows={6}
        defaultValue={values.rules}
        error={errors.rules}
        disabled={readOnly}
        hint="Markdown, shown under “Rules” on the task page: who may take part, what resources are allowed, how many runs count. Leave empty for none."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextAreaField label="Data licence" name="dataLicense" id="task-data-license" rows={2} defaultValue={values.dataLicense} error={errors.dataLicense} disabled={readOnly} />
        <TextAreaField label="Data source" name="dataSource" id="task-data-source" rows={2} defaultValue={values.dataSource} error={errors.dataSource} disabled={readOnly} />
      </div>
      {!readOnly && (
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Saving…" : "Save details"}
        </button>
      )}
    </form>
  );
}
