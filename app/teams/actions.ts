"use server";

import { revalidatePath } from "next/cache";
import { createTeam, joinTeam } from "../../lib/services/teams";
import { getCurrentUser } from "../../lib/session";
import { describeActionError, signedOutFailure, type ActionFailure } from "../_components/task-action-result";

/** State of the create-team and join-team forms. */
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

/** Creates a team (form field `name`); the signed-in user becomes its owner. */
export async function createTeamAction(previous: TeamFormState, formData: FormData): Promise<TeamFormState> {
  const name = field(formData, "name");
  const attempt = nextAttempt(previous);
  const user = await getCurrentUser();
  if (!user) return { status: "error", value: name, attempt, ...signedOutFailure() };
  try {
    const team = await createTeam(user.id, name);
    revalidatePath("/teams");
    return { status: "done", teamName: team.name, attempt };
  } catch (error) {
    const failure = describeActionError(error, "creating a team");
    // The schema reports the bare value (path ""); the service reports "name".
    const schemaProblem = failure.fieldErrors[""];
    const message = failure.fieldErrors.name ?? (schemaProblem ? `Team name: ${schemaProblem}.` : failure.message);
    return { status: "error", value: name, attempt, ...failure, message };
  }
}

/** Joins the team with this join code (form field `code`). */
export async function joinTeamAction(previous: TeamFormState, formData: FormData): Promise<TeamFormState> {
  const code = field(formData, "code");
  const attempt = nextAttempt(previous);
  const user = await getCurrentUser();
  if (!user) return { status: "error", value: code, attempt, ...signedOutFailure() };
  try {
    const team = await joinTeam(user.id, code);
    revalidatePath("/teams");
    return { status: "done", teamName: team.name, attempt };
  } catch (error) {
    const failure = describeActionError(error, "joining a team");
    const problem = failure.fieldErrors[""] ?? failure.fieldErrors.code;
    const message = problem ? `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.` : failure.message;
    return { status: "error", value: code, attempt, ...failure, message };
  }
}
