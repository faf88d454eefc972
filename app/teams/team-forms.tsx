"use client";

import { useActionState } from "react";
import { Field, Notice, primaryButton, secondaryButton } from "../_components/ui";
import { createTeamAction, joinTeamAction, type TeamFormState } from "./actions";

function attemptOf(state: TeamFormState): number {
  return state.status === "idle" ? 0 : state.attempt;
}

/** Creates a team; the creator becomes its owner and gets its join code on the page. */
export function CreateTeamForm() {
  const [state, action, pending] = useActionState<TeamFormState, FormData>(createTeamAction, { status: "idle" });
  return (
    <div className="space-y-3">
      <form key={attemptOf(state)} action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <div className="min-w-0 sm:flex-1">
          <Field
            label="Team name"
            name="name"
            required
            maxLength={64}
            defaultValue={state.status === "error" ? state.value : ""}
            error={state.status === "error" ? state.message : undefined}
            hint="2–64 characters, unique on this site."
          />
        </div>
        <button type="submit" disabled={pending} className={`${primaryButton} shrink-0 whitespace-nowrap sm:mt-6`}>
          {pending ? "Creating…" : "Create team"}
        </button>
      </form>
      {state.status === "done" && <Notice kind="success">Team “{state.teamName}” created. Share its join code (below) with your teammates.</Notice>}
    </div>
  );
}

/** Joins a team by the join code a member passed on. */
export function JoinTeamForm() {
  const [state, action, pending] = useActionState<TeamFormState, FormData>(joinTeamAction, { status: "idle" });
  return (
    <div className="space-y-3">
      <form key={attemptOf(state)} action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <div className="min-w-0 sm:flex-1">
          <Field
            label="Join code"
            name="code"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="ABCD-EFGH-IJKL-MNOP"
            defaultValue={state.status === "error" ? state.value : ""}
            error={state.status === "error" ? state.message : undefined}
          />
        </div>
        <button type="submit" disabled={pending} className={`${secondaryButton} shrink-0 whitespace-nowrap sm:mt-6`}>
          {pending ? "Joining…" : "Join team"}
        </button>
      </form>
      {state.status === "done" && <Notice kind="success">You joined “{state.teamName}”.</Notice>}
    </div>
  );
}
