"use client";

import { useActionState } from "react";
import { Field, InlineForm, Notice } from "../_components/ui";
import { createTeamAction, joinTeamAction, type TeamFormState } from "./actions";

/** The key that re-mounts a form after each attempt, so its fields show the state's value. */
function attemptOf(state: TeamFormState): number {
  return state.status === "idle" ? 0 : state.attempt;
}

/** Creates a team; the creator becomes its owner and gets its join code on the page. */
export function CreateTeamForm() {
  const [state, action, pending] = useActionState<TeamFormState, FormData>(createTeamAction, { status: "idle" });
  return (
    <InlineForm
      key={attemptOf(state)}
      action={action}
      submit="Create team"
      pendingText="Creating…"
      pending={pending}
      primary
      notice={state.status === "done" && <Notice kind="success">Team “{state.teamName}” created. Share its join code (below) with your teammates.</Notice>}
    >
      <Field
        label="Team name"
        name="name"
        required
        maxLength={64}
        defaultValue={state.status === "error" ? state.value : ""}
        error={state.status === "error" ? state.message : undefined}
        hint="2–64 characters, unique on this site."
      />
    </InlineForm>
  );
}

/** Joins a team by the join code a member passed on. */
export function JoinTeamForm() {
  const [state, action, pending] = useActionState<TeamFormState, FormData>(joinTeamAction, { status: "idle" });
  return (
    <InlineForm
      key={attemptOf(state)}
      action={action}
      submit="Join team"
      pendingText="Joining…"
      pending={pending}
      notice={state.status === "done" && <Notice kind="success">You joined “{state.teamName}”.</Notice>}
    >
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
    </InlineForm>
  );
}
