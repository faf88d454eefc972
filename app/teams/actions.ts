"use server";

import { revalidatePath } from "next/cache";
import { createTeamInvitation, revokeTeamInvitation, leaveTeam, makeTeamOwner, removeTeamMember, createTeam, joinTeam } from "@/lib/teams";
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

/** State of a team's "Create invitation link" button: the link, shown once after creation. */
export type TeamInvitationState =
  | { status: "idle" }
  | { status: "created"; url: string; expiresAt: string; maxUses: number; attempt: number }
  | ({ status: "error"; attempt: number } & ActionFailure);

/**
 * Makes an invitation link for a team (form fields `teamId`, `maxUses`: how many people may
 * join through it, default 1); `createTeamInvitation` checks that the viewer is an owner.
 *
 * @returns the link (shown once), its expiry and use limit, or the error
 */
export async function createTeamInvitationAction(previous: TeamInvitationState, formData: FormData): Promise<TeamInvitationState> {
  const attempt = previous.status === "idle" ? 1 : previous.attempt + 1;
  return runAction<TeamInvitationState>(
    "creating a team invitation link",
    async (viewer) => {
      const { url, invitation } = await createTeamInvitation(viewer, field(formData, "teamId"), new Date(), { maxUses: field(formData, "maxUses") });
      revalidatePath("/teams");
      return { status: "created", url, expiresAt: invitation.expiresAt.toISOString(), maxUses: invitation.maxUses, attempt };
    },
    (failure) => ({ status: "error", attempt, ...failure }),
  );
}

/** State of a revoke button: the outcome of the last attempt. */
export type RevokeTeamInvitationState = { status: "idle" } | { status: "revoked" } | ({ status: "error" } & ActionFailure);

/**
 * Revokes one of a team's invitation links (form fields `teamId`, `invitationId`);
 * `revokeTeamInvitation` checks that the viewer is an owner of the team.
 */
export async function revokeTeamInvitationAction(_previous: RevokeTeamInvitationState, formData: FormData): Promise<RevokeTeamInvitationState> {
  return runAction<RevokeTeamInvitationState>(
    "revoking a team invitation link",
    async (viewer) => {
      await revokeTeamInvitation(viewer, field(formData, "teamId"), field(formData, "invitationId"));
      revalidatePath("/teams");
      return { status: "revoked" };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/** State of a member button (Remove, Leave, Make owner): the outcome of the last attempt. */
export type TeamMemberActionState = { status: "idle" } | { status: "done" } | ({ status: "error" } & ActionFailure);

/**
 * Removes a member from a team (form fields `teamId`, `userId`); `removeTeamMember` checks
 * that the viewer is an owner.
 */
export async function removeTeamMemberAction(_previous: TeamMemberActionState, formData: FormData): Promise<TeamMemberActionState> {
  return runAction<TeamMemberActionState>(
    "removing a team member",
    async (viewer) => {
      await removeTeamMember(viewer, { teamId: field(formData, "teamId"), userId: field(formData, "userId") });
      revalidatePath("/teams");
      return { status: "done" };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/** Leaves a team (form field `teamId`); `leaveTeam` applies the last-owner rule. */
export async function leaveTeamAction(_previous: TeamMemberActionState, formData: FormData): Promise<TeamMemberActionState> {
  return runAction<TeamMemberActionState>(
    "leaving a team",
    async (viewer) => {
      await leaveTeam(viewer, { teamId: field(formData, "teamId") });
      revalidatePath("/teams");
      return { status: "done" };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/**
 * Makes a member an owner of the team (form fields `teamId`, `userId`); `makeTeamOwner`
 * checks that the viewer is an owner.
 */
export async function makeTeamOwnerAction(_previous: TeamMemberActionState, formData: FormData): Promise<TeamMemberActionState> {
  return runAction<TeamMemberActionState>(
    "making a member owner",
    async (viewer) => {
      await makeTeamOwner(viewer, { teamId: field(formData, "teamId"), userId: field(formData, "userId") });
      revalidatePath("/teams");
      return { status: "done" };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}
