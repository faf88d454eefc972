"use client";

import { useActionState } from "react";
import { Field, Notice, secondaryButton } from "../../../_components/ui";
import { addOrganizerAction, type AddOrganizerState } from "./actions";

/** Adds an organizer to the task by the e-mail address of their account. */
export function AddOrganizerForm({ taskId }: { taskId: string }) {
  const [state, action, pending] = useActionState<AddOrganizerState, FormData>(addOrganizerAction, { status: "idle" });
  return (
    <div className="space-y-3">
      <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <input type="hidden" name="taskId" value={taskId} />
        <div className="sm:w-80">
          <Field
            label="Organizer's e-mail address"
            name="email"
            type="email"
            required
            autoComplete="off"
            error={state.status === "error" ? state.message : undefined}
            hint="They need an account first."
          />
        </div>
        <button type="submit" disabled={pending} className={`${secondaryButton} shrink-0 whitespace-nowrap sm:mt-6`}>
          {pending ? "Adding…" : "Add organizer"}
        </button>
      </form>
      {state.status === "added" && (
        <Notice kind="success">{state.added ? `${state.name} is now an organizer of this task.` : `${state.name} already organizes this task.`}</Notice>
      )}
    </div>
  );
}
