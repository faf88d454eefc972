"use server";

import { revalidatePath } from "next/cache";
import { createTeam, joinTeam } from "../../lib/services/teams";
import { runAction, type ActionFailure } from "../_components/task-action-result";

/** State of the create-team and join-team forms; `value` is the text to show again after an error. */
export type TeamFormState =
  | { status: "idle" }
  | { status: "done"; teamName: string; attempt: number }
  | ({ status: "error"; value: string; attempt: number } & ActionFailure);

function field(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

function nextAttempt(previous: TeamFormState): number {
  return previous.status === "idle" ? 1 : previous.attempt + 1;
}

/**
 * Creates a team (form field `name`); the signed-in user becomes its owner.
 *
 * @returns "done" with the team's name, or the error (the name's problem as the message)
 */
export async function createTeamAction(previous: TeamFormState, formData: FormData): Promise<TeamFormState> {
  const name = field(formData, "name");
  const attempt = nextAttempt(previous);
  return runAction<TeamFormState>(
    "creating a team",
    async (viewer) => {
      const team = await createTeam(viewer.userId, name);
      revalidatePath("/teams");
      return { status: "done", teamName: team.name, attempt };
    },
    (failure) => {
      // The schema reports the bare value (path ""); the service reports "name".
      const schemaProblem = failure.fieldErrors[""];
      const message = failure.fieldErrors.name ?? (schemaProblem ? `Team name: ${schemaProblem}.` : failure.message);
      return { status: "error", value: name, attempt, ...failure, message };
    },
  );
}

/**
 * Joins the team with this join code (form field `code`).
 *
 * @returns "done" with the team's name, or the error (the code's problem as the message)
 */
export async function joinTeamAction(previous: TeamFormState, formData: FormData): Promise<TeamFormState> {
  const code = field(formData, "code");
  const attempt = nextAttempt(previous);
  return runAction<TeamFormState>(
    "joining a team",
    async (viewer) => {
      const team = await joinTeam(viewer.userId, code);
      revalidatePath("/teams");
      return { status: "done", teamName: team.name, attempt };
    },
    (failure) => {
      const problem = failure.fieldErrors[""] ?? failure.fieldErrors.code;
      const message = problem ? `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.` : failure.message;
      return { status: "error", value: code, attempt, ...failure, message };
    },
  );
}
