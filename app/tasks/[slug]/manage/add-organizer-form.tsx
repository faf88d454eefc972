"use client";

import { useActionState } from "react";
import { Field, InlineForm, Notice } from "../../../_components/ui";
import { addOrganizerAction, type AddOrganizerState } from "./actions";

/** Adds an organizer to the task by the e-mail address of their account. */
export function AddOrganizerForm({ taskId }: { taskId: string }) {
  const [state, action, pending] = useActionState<AddOrganizerState, FormData>(addOrganizerAction, { status: "idle" });
  return (
    <InlineForm
      action={action}
      submit="Add organizer"
      pendingText="Adding…"
      pending={pending}
      fieldClassName="sm:w-80"
      notice={
        state.status === "added" && (
          <Notice kind="success">{state.added ? `${state.name} is now an organizer of this task.` : `${state.name} already organizes this task.`}</Notice>
        )
      }
    >
      <input type="hidden" name="taskId" value={taskId} />
      <Field
        label="Organizer's e-mail address"
        name="email"
        type="email"
        required
        autoComplete="off"
        error={state.status === "error" ? state.message : undefined}
        hint="They need an account first."
      />
    </InlineForm>
  );
}
