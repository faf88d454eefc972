/**
 * The authorization inventory of the server actions (issue 22), as app/api/v1/authz-inventory.test.ts
 * is for the API routes: every exported function of every "use server" file under app/, called
 * as Next calls it (its form state and `FormData`, or its arguments) inside a request whose
 * `Cookie` header carries a real next-auth session (`sessionCookie`) or none, as each kind of
 * viewer, against the real services and the file's test database. Only `next/headers` (the
 * request's cookies, and no forwarded address), `next/cache` (no page cache outside Next) and the
 * queue (lib/__mocks__/queue.ts) are doubles; `redirect()` throws Next's own error, read here.
 *
 * Viewers: `anonymous` (no session); `bystander` (signed in, no part in anything probed);
 * `rival` (a member of another team with runs in the task); `member` (the party the target
 * belongs to: a member of the run's or the team's team, the account's owner, the invited user);
 * `organizer` (a TaskOrganizer of the task); `admin` (a site admin who does not organize it).
 *
 * Outcomes: `ok` the action did its work (a success state or redirect, and the probe's
 * database state of the target changed); `own` it succeeded on the viewer's own account and
 * left the target (someone else's) unchanged; `refused` a failure state, a redirect back to the
 * invitation page, `false`, or nothing done (for actions that return nothing), the target
 * unchanged; `signin` a refusal that asks to sign in, the target unchanged. A failure with the
 * generic "Something went wrong" message, or any other thrown error, is neither: the probe is
 * broken. The viewers that must be refused go first, so an allowed viewer's change cannot make
 * a later refusal look right; a probe with `target` makes a fresh target for each viewer.
 *
 * The first test scans app/ for files whose first statement is "use server", imports them and
 * fails for any exported function without a probe here (and any probe of a function that does
 * not exist).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { createApiToken } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { uploadGoldKey } from "@/lib/tasks/gold";
import { inviteOrganizer } from "@/lib/tasks/organizer-invitations";
import { createPasswordResetLink } from "@/lib/accounts/password-reset";
import { createTeamInvitation, newLinkToken } from "@/lib/teams/invitations";
import { joinCodeFor } from "@/lib/teams/teams";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeTrack, makeUser } from "@/lib/tasks/test-fixtures";
import { createUser } from "@/lib/accounts/users";
import { addDataset } from "@/lib/tasks/datasets";
import { phaseValuesFromPhase, type PhaseFormValues } from "./_components/task-phase-form-data";
import { openPhase, sessionCookie, setupScenario, SMALL_KEY, withCookies } from "./api/v1/test-helpers";

const testDb = useTestDatabase();
const db = () => testDb.prisma;

type Who = "anonymous" | "bystander" | "rival" | "member" | "organizer" | "admin";
const WHO: readonly Who[] = ["anonymous", "bystander", "rival", "member", "organizer", "admin"];
type Outcome = "ok" | "own" | "refused" | "signin";
type Action = (...args: unknown[]) => Promise<unknown>;
/** Ids a probe's target consists of. */
type Target = Record<string, string>;

/** One server action, probed as every kind of viewer. */
interface Probe {
  /** the "use server" file, relative to the repository root */
  file: string;
  /** the exported function */
  action: string;
  /** what the probe targets, for the test's name */
  about: string;
  /** a fresh target for each viewer (else `shared()`) */
  target?: (who: Who) => Promise<Target>;
  /** who the viewer is signed in as, when not the scenario's user of that kind (e.g. the owner of a fresh account) */
  as?: (t: Target, who: Who) => string | null;
  /** the action's arguments */
  args: (t: Target, who: Who) => unknown[];
  /** the target's state in the database (refusals leave it equal; `ok` changes it) */
  state?: (t: Target, who: Who) => Promise<unknown>;
  expect: Record<Who, Outcome>;
}

const ids: Target = {};
const users: Record<Exclude<Who, "anonymous">, string> & { creator: string } = { bystander: "", rival: "", member: "", organizer: "", admin: "", creator: "" };
const viewerOf = (userId: string, role: "ADMIN" | "USER" = "USER") => ({ userId, role });
const PASSWORD = "correct horse battery staple";

const everyone = (outcome: Outcome): Record<Who, Outcome> => ({ anonymous: outcome, bystander: outcome, rival: outcome, member: outcome, organizer: outcome, admin: outcome });
/** The task's organizers and site admins; anonymous viewers are asked to sign in. */
const organizersOnly: Record<Who, Outcome> = { anonymous: "signin", bystander: "refused", rival: "refused", member: "refused", organizer: "ok", admin: "ok" };
/**
 * The members of the run's or team's team only; for account actions, the account's owner only
 * (the probes' `member` is the owner; the others have no password, or act on their own account).
 */
const membersOnly: Record<Who, Outcome> = { anonymous: "signin", bystander: "refused", rival: "refused", member: "ok", organizer: "refused", admin: "refused" };
/** Every signed-in viewer, for themselves. */
const signedIn: Record<Who, Outcome> = { anonymous: "signin", bystander: "ok", rival: "ok", member: "ok", organizer: "ok", admin: "ok" };

function form(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

/** A phase form's fields (with a prefix such as "phases.0."). */
function phaseFields(values: PhaseFormValues, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === "boolean") {
      if (v) out[`${prefix}${k}`] = "on";
    } else out[`${prefix}${k}`] = v;
  }
  return out;
}

let unique = 0;
const tag = (who: Who) => `${who}-${Date.now().toString(36)}-${(unique++).toString(36)}`;

/** A fresh account with a password (the `member` of the account probes). */
async function account(who: Who): Promise<Target> {
  const user = await createUser({ email: `owner-${tag(who)}@example.org`, name: "Account Owner", password: PASSWORD });
  return { userId: user.id };
}
/** A fresh account with the site role ORGANIZER (may create tasks); its id. */
async function siteOrganizer(who: Who): Promise<string> {
  const user = await makeUser(db(), `Site Organizer ${tag(who)}`);
  await db().user.update({ where: { id: user.id }, data: { role: "ORGANIZER" } });
  return user.id;
}
const owner = (t: Target, who: Who) => (who === "member" ? t.userId! : who === "anonymous" ? null : users[who]);

/** A fresh run of a team in the task's main phase. */
async function run(team: "memberTeam" | "rivalTeam", fields: { disqualified?: boolean } = {}): Promise<Target> {
  const row = await insertSubmission(db(), { phaseId: ids.mainPhase!, teamId: ids[team]!, submitterId: team === "memberTeam" ? users.member : users.rival, systemName: `run ${unique++}` });
  if (fields.disqualified) await db().submission.update({ where: { id: row.id }, data: { disqualifiedAt: new Date(), disqualifiedReason: "Broke the rules." } });
  return { runId: row.id };
}
const runState = (t: Target) => db().submission.findUniqueOrThrow({ where: { id: t.runId! }, select: { withdrawnAt: true, disqualifiedAt: true, hiddenAt: true, finalSelectedAt: true, status: true } });

/**
 * A fresh team with the scenario's `member` in it, as its owner ("owner": [member, other]) or
 * as a plain MEMBER ("member": [founder, member, other]).
 */
async function ownedBy(who: Who, memberRole: "owner" | "member"): Promise<Target> {
  const founder = await makeUser(db(), `Founder ${tag(who)}`);
  const other = await makeUser(db(), `Other ${tag(who)}`);
  const members = memberRole === "owner" ? [users.member, other.id] : [founder.id, users.member, other.id];
  const team = await makeTeam(db(), "Probe team", members);
  return { teamId: team.id, founder: founder.id, other: other.id };
}

/** A fresh published task of one phase (no gold key) organized by the organizer. */
async function freshTask(): Promise<Target> {
  const { task, phase } = await makeTaskWithPhase(db(), { organizerIds: [users.organizer] });
  return { taskId: task.id, phaseId: phase.id };
}

const PROBES: Probe[] = [
  // Signing up and passwords: public by design.
  {
    file: "app/(auth)/actions.ts",
    action: "signUpAction",
    about: "a new account (anonymous by design)",
    args: (t, who) => [form({ email: `new-${who}-${ids.tag}@example.org`, name: "New Person", password: PASSWORD })],
    state: (t, who) => db().user.count({ where: { email: `new-${who}-${ids.tag}@example.org` } }),
    expect: everyone("ok"),
  },
  {
    file: "app/(auth)/actions.ts",
    action: "requestPasswordResetAction",
    about: "another person's address (the same answer for every address)",
    args: () => [form({ email: ids.memberEmail! })],
    expect: everyone("ok"),
  },
  {
    file: "app/(auth)/actions.ts",
    action: "resetPasswordAction",
    about: "with the account's reset link (the link is the credential)",
    target: async (who) => {
      const { userId } = await account(who);
      const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
      const link = await createPasswordResetLink(user.email);
      return { userId, token: new URL(link.url).searchParams.get("token") ?? link.url.split("/").pop()! };
    },
    args: (t) => [form({ token: t.token!, newPassword: "a brand new password", confirmPassword: "a brand new password" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { passwordHash: true } }),
    expect: everyone("ok"),
  },
  {
    file: "app/(auth)/actions.ts",
    action: "resetPasswordAction",
    about: "with a wrong token",
    target: async (who) => account(who),
    args: () => [form({ token: newLinkToken().token, newPassword: "a brand new password", confirmPassword: "a brand new password" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { passwordHash: true } }),
    expect: everyone("refused"),
  },

  // The account page: the session's own account only.
  {
    file: "app/account/actions.ts",
    action: "createTokenAction",
    about: "a token, with the account owner's password (always the viewer's own account)",
    target: account,
    as: owner,
    args: () => [{ status: "idle", attempt: 0 }, form({ name: "probe token", password: PASSWORD })],
    state: (t) => db().apiToken.count({ where: { userId: t.userId! } }),
    expect: membersOnly,
  },
  {
    file: "app/account/actions.ts",
    action: "createTokenAction",
    about: "a token, without the password (a session cookie alone)",
    target: account,
    as: owner,
    args: () => [{ status: "idle", attempt: 0 }, form({ name: "probe token" })],
    state: (t) => db().apiToken.count({ where: { userId: t.userId! } }),
    expect: { ...everyone("refused"), anonymous: "signin" },
  },
  {
    file: "app/account/actions.ts",
    action: "createTokenAction",
    about: "a token, with a wrong password",
    target: account,
    as: owner,
    args: () => [{ status: "idle", attempt: 0 }, form({ name: "probe token", password: "not the password" })],
    state: (t) => db().apiToken.count({ where: { userId: t.userId! } }),
    expect: { ...everyone("refused"), anonymous: "signin" },
  },
  {
    file: "app/account/actions.ts",
    action: "revokeTokenAction",
    about: "the member's token",
    target: async () => ({ tokenId: (await createApiToken(users.member, `probe ${unique++}`)).info.id }),
    args: (t) => [form({ tokenId: t.tokenId! })],
    state: (t) => db().apiToken.findUniqueOrThrow({ where: { id: t.tokenId! }, select: { revokedAt: true } }),
    expect: { ...membersOnly, anonymous: "refused" },
  },
  {
    file: "app/account/actions.ts",
    action: "changePasswordAction",
    about: "with the account owner's current password",
    target: account,
    as: owner,
    args: () => [form({ currentPassword: PASSWORD, newPassword: "another fine password", confirmPassword: "another fine password" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { passwordHash: true } }),
    expect: membersOnly,
  },
  {
    file: "app/account/actions.ts",
    action: "signOutEverywhereAction",
    about: "(always the viewer's own sessions and API tokens)",
    target: async (who) => {
      const t = await account(who);
      await createApiToken(t.userId!, "probe token");
      return t;
    },
    as: owner,
    args: () => [],
    state: async (t) => ({
      ...(await db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { sessionVersion: true } })),
      activeTokens: await db().apiToken.count({ where: { userId: t.userId!, revokedAt: null } }),
    }),
    expect: { anonymous: "refused", bystander: "own", rival: "own", member: "ok", organizer: "own", admin: "own" },
  },
  {
    file: "app/account/actions.ts",
    action: "requestEmailChangeAction",
    about: "with the account owner's password",
    target: account,
    as: owner,
    args: (t, who) => [{ status: "idle", attempt: 0 }, form({ newEmail: `changed-${tag(who)}@example.org`, password: PASSWORD })],
    state: (t) => db().emailChangeToken.count({ where: { userId: t.userId! } }),
    expect: membersOnly,
  },
  {
    file: "app/account/actions.ts",
    action: "confirmEmailChangeAction",
    about: "with the mailed token (the token is the credential)",
    target: async (who) => {
      const { userId } = await account(who);
      const { token, tokenHash } = newLinkToken();
      await db().emailChangeToken.create({ data: { userId: userId!, newEmail: `confirmed-${tag(who)}@example.org`, tokenHash, expiresAt: new Date(Date.now() + 3600_000) } });
      return { userId: userId!, token };
    },
    args: (t) => [{ status: "idle" }, form({ token: t.token! })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { email: true } }),
    expect: everyone("ok"),
  },
  {
    file: "app/account/actions.ts",
    action: "confirmEmailChangeAction",
    about: "with a wrong token",
    target: account,
    args: () => [{ status: "idle" }, form({ token: newLinkToken().token })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { email: true } }),
    expect: everyone("refused"),
  },
  {
    file: "app/(auth)/actions.ts",
    action: "confirmAccountAction",
    about: "with the mailed token of an unconfirmed account (the token is the credential)",
    target: async (who) => {
      const { userId } = await account(who);
      await db().user.update({ where: { id: userId! }, data: { emailConfirmedAt: null } });
      const { token, tokenHash } = newLinkToken();
      await db().emailConfirmationToken.create({ data: { userId: userId!, tokenHash, expiresAt: new Date(Date.now() + 3600_000) } });
      return { userId: userId!, token };
    },
    args: (t) => [{ status: "idle" }, form({ token: t.token! })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { emailConfirmedAt: true } }),
    expect: everyone("ok"),
  },
  {
    file: "app/(auth)/actions.ts",
    action: "confirmAccountAction",
    about: "with a wrong token",
    target: async (who) => {
      const { userId } = await account(who);
      await db().user.update({ where: { id: userId! }, data: { emailConfirmedAt: null } });
      return { userId: userId! };
    },
    args: () => [{ status: "idle" }, form({ token: newLinkToken().token })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { emailConfirmedAt: true } }),
    expect: everyone("refused"),
  },
  {
    file: "app/account/confirmation-actions.ts",
    action: "resendConfirmationAction",
    about: "a new confirmation link for an unconfirmed account (the other viewers' own accounts are confirmed)",
    target: async (who) => {
      const { userId } = await account(who);
      await db().user.update({ where: { id: userId! }, data: { emailConfirmedAt: null } });
      return { userId: userId! };
    },
    as: owner,
    args: () => [{ status: "idle" }, form({})],
    state: (t) => db().emailConfirmationToken.count({ where: { userId: t.userId! } }),
    expect: membersOnly,
  },
  {
    file: "app/account/actions.ts",
    action: "deleteAccountAction",
    about: "with the account owner's password",
    target: account,
    as: owner,
    args: () => [{ status: "idle", attempt: 0 }, form({ password: PASSWORD, confirm: "on" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { deletedAt: true, email: true } }),
    expect: membersOnly,
  },

  // Invitations: the token is the credential; organizer invitations also need the invited address.
  {
    file: "app/invite/organizer/[token]/actions.ts",
    action: "acceptOrganizerInvitationAction",
    about: "an invitation to the invited user's address (`member`: the invited user)",
    target: async (who) => {
      const invitee = await makeUser(db(), `Invitee ${tag(who)}`);
      const made = await inviteOrganizer(viewerOf(users.creator, "ADMIN"), ids.taskId!, invitee.email);
      return { userId: invitee.id, token: made.url.split("/").pop()!, invitationId: made.invitation.id };
    },
    as: owner,
    args: (t) => [form({ token: t.token! })],
    state: async (t) => ({
      invitation: await db().organizerInvitation.findUniqueOrThrow({ where: { id: t.invitationId! }, select: { acceptedAt: true } }),
      organizers: await db().taskOrganizer.count({ where: { taskId: ids.taskId! } }),
    }),
    expect: { anonymous: "refused", bystander: "refused", rival: "refused", member: "ok", organizer: "refused", admin: "refused" },
  },
  {
    file: "app/invite/team/[token]/actions.ts",
    action: "acceptTeamInvitationAction",
    about: "a team's link (anyone signed in who has it)",
    target: async (who) => {
      const founder = await makeUser(db(), `Founder ${tag(who)}`);
      const team = await makeTeam(db(), "Open team", [founder.id]);
      const made = await createTeamInvitation(founder.viewer, team.id);
      return { teamId: team.id, token: made.url.split("/").pop()! };
    },
    args: (t) => [form({ token: t.token! })],
    state: (t) => db().teamMember.count({ where: { teamId: t.teamId! } }),
    expect: { ...signedIn, anonymous: "refused" },
  },
  {
    file: "app/invite/team/[token]/actions.ts",
    action: "acceptTeamInvitationAction",
    about: "with a wrong token",
    args: () => [form({ token: newLinkToken().token })],
    state: () => db().teamMember.count(),
    expect: everyone("refused"),
  },

  // The run page.
  {
    file: "app/submissions/[id]/actions.ts",
    action: "withdrawRunAction",
    about: "the member team's run",
    target: () => run("memberTeam"),
    args: (t) => [{ status: "idle" }, form({ submissionId: t.runId!, confirm: "on" })],
    state: runState,
    expect: membersOnly,
  },
  {
    file: "app/submissions/[id]/actions.ts",
    action: "disqualifyRunAction",
    about: "the rival team's run",
    target: () => run("rivalTeam"),
    args: (t) => [{ status: "idle" }, form({ submissionId: t.runId!, reason: "Trained on the test set." })],
    state: runState,
    expect: organizersOnly,
  },
  {
    file: "app/submissions/[id]/actions.ts",
    action: "requalifyRunAction",
    about: "the rival team's disqualified run",
    target: () => run("rivalTeam", { disqualified: true }),
    args: (t) => [{ status: "idle" }, form({ submissionId: t.runId! })],
    state: runState,
    expect: organizersOnly,
  },
  {
    file: "app/submissions/[id]/actions.ts",
    action: "finalRunAction",
    about: "the member team's run on a team-selected phase",
    target: () => run("memberTeam"),
    args: (t) => [{ status: "idle" }, form({ submissionId: t.runId!, selected: "true" })],
    state: runState,
    expect: membersOnly,
  },

  // The manage console (manage/actions.ts).
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "updatePhaseAction",
    about: "the task's spare phase",
    args: (t, who) => [{ attempt: 0, values: ids.spareValues }, form({ ...phaseFields({ ...(JSON.parse(ids.spareValues!) as PhaseFormValues), dailyLimit: String(WHO.indexOf(who) + 3) }), phaseId: ids.sparePhase! })],
    state: () => db().phase.findUniqueOrThrow({ where: { id: ids.sparePhase! }, select: { dailyLimit: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "updateTaskDetailsAction",
    about: "the task",
    args: (t, who) => [{ attempt: 0, values: {} }, form({ taskId: ids.taskId!, title: `Task retitled by ${who}`, description: "A task.", rules: "", dataLicense: "", dataSource: "" })],
    state: () => db().task.findUniqueOrThrow({ where: { id: ids.taskId! }, select: { title: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "taskLifecycleAction",
    about: "archiving a task",
    target: freshTask,
    args: (t) => [{ status: "idle" }, form({ intent: "archive", taskId: t.taskId! })],
    state: (t) => db().task.findUniqueOrThrow({ where: { id: t.taskId! }, select: { status: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "phaseLifecycleAction",
    about: "closing a phase now",
    target: freshTask,
    args: (t) => [{ status: "idle" }, form({ intent: "close", phaseId: t.phaseId!, phaseName: "test" })],
    state: (t) => db().phase.findUniqueOrThrow({ where: { id: t.phaseId! }, select: { closesAt: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "addPhaseAction",
    about: "a phase of the task",
    args: (t, who) => [{ attempt: 0, values: {} }, form({ ...phaseFields({ ...(JSON.parse(ids.spareValues!) as PhaseFormValues), name: `added by ${who}` }), taskId: ids.taskId! })],
    state: () => db().phase.count({ where: { taskId: ids.taskId! } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "setParticipantTeamAction",
    about: "the member's team in the task",
    // The organizer records the member team; the admin then clears the record (each a change).
    args: (t, who) => [{ status: "idle" }, form({ taskId: ids.taskId!, userId: users.member, teamId: who === "admin" ? "" : ids.memberTeam! })],
    state: () => db().taskParticipant.findMany({ where: { taskId: ids.taskId!, userId: users.member }, select: { teamId: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "updateTaskAnalysisAction",
    about: "a task's analysis settings",
    target: freshTask,
    args: (t) => [
      { attempt: 0, values: { englishLexicon: true, lexiconText: "", categories: [], excludedCategories: [], mappedClusterF: false, englishText: null } },
      form({ taskId: t.taskId!, englishLexicon: "on", mappedClusterF: "on" }),
    ],
    state: (t) => db().task.findUniqueOrThrow({ where: { id: t.taskId! } }).then((task) => JSON.stringify(task)),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "updateTaskEvaluationAction",
    about: "a task's evaluation profile",
    target: freshTask,
    args: (t) => [{ attempt: 0, values: {} }, form({ taskId: t.taskId!, evaluationProfile: "custom", mentionMatching: "exact", keepSingletons: "exclude", zeroMatching: "dependent" })],
    state: (t) => db().task.findUniqueOrThrow({ where: { id: t.taskId! }, select: { evaluationProfile: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "addTrackAction",
    about: "a track of the spare phase",
    args: (t, who) => [{ attempt: 0, status: "idle" }, form({ phaseId: ids.sparePhase!, name: `track ${who}`, description: "", dailyLimit: "", totalLimit: "" })],
    state: () => db().track.count({ where: { phaseId: ids.sparePhase! } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "trackAction",
    about: "saving a track",
    target: async (who) => ({ trackId: (await makeTrack(db(), ids.sparePhase!, `made for ${tag(who)}`)).id }),
    args: (t, who) => [{ attempt: 0, values: {} }, form({ intent: "save", trackId: t.trackId!, name: `renamed ${tag(who)}`, description: "", dailyLimit: "", totalLimit: "" })],
    state: (t) => db().track.findUniqueOrThrow({ where: { id: t.trackId! }, select: { name: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/gold/blind-input-actions.ts",
    action: "deriveBlindInputAction",
    about: "the blind input of the main phase's dataset (derived again: a new row time)",
    args: () => [{ status: "idle" }, form({ phaseId: ids.mainPhase!, datasetId: "main" })],
    state: async () => (await db().blindInput.findFirst({ where: { phaseId: ids.mainPhase! }, select: { createdAt: true } }))?.createdAt.getTime() ?? null,
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "addDatasetAction",
    about: "a dataset of the spare phase",
    args: (t, who) => [{ attempt: 0, status: "idle" }, form({ phaseId: ids.sparePhase!, name: `ds-${who}`, language: "en", fileName: `ds-${who}.conll`, format: "conll2012", position: "" })],
    // The names, not the count: the phase's first named dataset replaces its untouched "main".
    state: async () => (await db().dataset.findMany({ where: { phaseId: ids.sparePhase! }, select: { name: true }, orderBy: { name: "asc" } })).map((d) => d.name).join(","),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/actions.ts",
    action: "datasetAction",
    about: "saving a dataset",
    target: async (who) => {
      const name = tag(who);
      return { datasetId: (await addDataset(viewerOf(users.creator, "ADMIN"), ids.sparePhase!, { name, language: "en", fileName: `${name}.conll`, format: "conll2012" })).id };
    },
    args: (t, who) => {
      const name = `renamed-${tag(who)}`;
      return [{ attempt: 0, values: {} }, form({ intent: "save", datasetId: t.datasetId!, name, language: "en", fileName: `${name}.conll`, format: "conll2012", position: "1" })];
    },
    state: (t) => db().dataset.findUniqueOrThrow({ where: { id: t.datasetId! }, select: { name: true } }),
    expect: organizersOnly,
  },

  // The console's submissions tab, organizers' invitations and final results.
  {
    file: "app/tasks/[slug]/manage/console-actions.ts",
    action: "consoleRunAction",
    about: "hiding the rival team's run",
    target: () => run("rivalTeam"),
    args: (t) => [{ attempt: 0, status: "idle" }, form({ submissionId: t.runId!, intent: "hide" })],
    state: runState,
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/console-actions.ts",
    action: "rescorePhaseAction",
    about: "a phase with a gold key",
    target: async () => {
      const t = await freshTask();
      await uploadGoldKey(viewerOf(users.organizer), t.phaseId!, "key.conll", new TextEncoder().encode(SMALL_KEY));
      const row = await insertSubmission(db(), { phaseId: t.phaseId!, teamId: ids.rivalTeam!, submitterId: users.rival });
      return { ...t, runId: row.id };
    },
    args: (t) => [{ attempt: 0, status: "idle" }, form({ phaseId: t.phaseId! })],
    state: runState,
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/organizer-actions.ts",
    action: "inviteOrganizerAction",
    about: "an address to the task",
    args: (t, who) => [{ status: "idle", attempt: 0 }, form({ taskId: ids.taskId!, email: `co-${who}-${ids.tag}@example.org` })],
    state: () => db().organizerInvitation.count({ where: { taskId: ids.taskId! } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/organizer-actions.ts",
    action: "revokeOrganizerInvitationAction",
    about: "a pending invitation to the task",
    target: async (who) => ({ invitationId: (await inviteOrganizer(viewerOf(users.creator, "ADMIN"), ids.taskId!, `pending-${tag(who)}@example.org`)).invitation.id }),
    args: (t) => [{ status: "idle" }, form({ taskId: ids.taskId!, invitationId: t.invitationId! })],
    state: (t) => db().organizerInvitation.findUniqueOrThrow({ where: { id: t.invitationId! }, select: { revokedAt: true } }),
    expect: organizersOnly,
  },
  {
    file: "app/tasks/[slug]/manage/snapshot-actions.ts",
    action: "publishSnapshotAction",
    about: "the final results of the closed phase",
    args: (t, who) => [{ attempt: 0, note: "", status: "idle" }, form({ phaseId: ids.closedPhase!, note: `Published by ${who}.`, confirm: "on" })],
    state: () => db().resultSnapshot.count({ where: { phaseId: ids.closedPhase! } }),
    expect: organizersOnly,
  },

  // New tasks: site admins and accounts with the organizer role (not a task's organizers as such).
  {
    file: "app/tasks/new/actions.ts",
    action: "createTaskAction",
    about: "a draft task",
    args: (t, who) => [
      { status: "idle" },
      form({ slug: `new-${who}-${ids.tag}`, title: "A new task", description: "Made by a probe.", dataLicense: "", dataSource: "", primaryMetric: "conll", ...phaseFields({ ...(JSON.parse(ids.spareValues!) as PhaseFormValues), name: "test" }, "phases.0.") }),
    ],
    state: (t, who) => db().task.count({ where: { slug: `new-${who}-${ids.tag}` } }),
    expect: { anonymous: "signin", bystander: "refused", rival: "refused", member: "refused", organizer: "refused", admin: "ok" },
  },
  {
    file: "app/tasks/new/actions.ts",
    action: "createTaskAction",
    about: "a draft task, by an account with the organizer role (`member`: that account)",
    target: async (who) => ({ userId: await siteOrganizer(who) }),
    as: owner,
    args: (t, who) => [
      { status: "idle" },
      form({ slug: `org-${who}-${ids.tag}`, title: "An organizer's task", description: "Made by a probe.", dataLicense: "", dataSource: "", primaryMetric: "conll", ...phaseFields({ ...(JSON.parse(ids.spareValues!) as PhaseFormValues), name: "test" }, "phases.0.") }),
    ],
    state: (t, who) => db().task.count({ where: { slug: `org-${who}-${ids.tag}` } }),
    expect: { anonymous: "signin", bystander: "refused", rival: "refused", member: "ok", organizer: "refused", admin: "ok" },
  },

  // Site roles (/admin/users): site admins only; an account with the organizer role cannot raise itself.
  {
    file: "app/admin/users/actions.ts",
    action: "setSiteRoleAction",
    about: "giving a plain account the organizer role",
    target: account,
    args: (t) => [{ status: "idle" }, form({ userId: t.userId!, role: "organizer" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { role: true } }),
    expect: { anonymous: "signin", bystander: "refused", rival: "refused", member: "refused", organizer: "refused", admin: "ok" },
  },
  {
    file: "app/admin/users/actions.ts",
    action: "setSiteRoleAction",
    about: "making an account with the organizer role an admin (`member`: that account, on itself)",
    target: async (who) => ({ userId: await siteOrganizer(who) }),
    as: owner,
    args: (t) => [{ status: "idle" }, form({ userId: t.userId!, role: "admin" })],
    state: (t) => db().user.findUniqueOrThrow({ where: { id: t.userId! }, select: { role: true } }),
    expect: { anonymous: "signin", bystander: "refused", rival: "refused", member: "refused", organizer: "refused", admin: "ok" },
  },

  // Teams.
  {
    file: "app/teams/actions.ts",
    action: "createTeamAction",
    about: "a team (the viewer becomes its owner)",
    args: (t, who) => [{ status: "idle" }, form({ name: `Team of ${who} ${ids.tag}` })],
    state: (t, who) => db().team.count({ where: { name: `Team of ${who} ${ids.tag}` } }),
    expect: signedIn,
  },
  {
    file: "app/teams/actions.ts",
    action: "joinTeamAction",
    about: "a team by its join code (anyone signed in who has it)",
    target: async (who) => {
      const founder = await makeUser(db(), `Founder ${tag(who)}`);
      return { teamId: (await makeTeam(db(), "Joinable", [founder.id])).id };
    },
    args: (t) => [{ status: "idle" }, form({ code: joinCodeFor(t.teamId!) })],
    state: (t) => db().teamMember.count({ where: { teamId: t.teamId! } }),
    expect: signedIn,
  },
  {
    file: "app/teams/actions.ts",
    action: "createTeamInvitationAction",
    about: "a link to the member team",
    args: () => [{ status: "idle" }, form({ teamId: ids.memberTeam! })],
    state: () => db().teamInvitation.count({ where: { teamId: ids.memberTeam! } }),
    expect: membersOnly,
  },
  {
    file: "app/teams/actions.ts",
    action: "revokeTeamInvitationAction",
    about: "a link of the member team",
    target: async () => ({ invitationId: (await createTeamInvitation(viewerOf(users.member), ids.memberTeam!)).invitation.id }),
    args: (t) => [{ status: "idle" }, form({ teamId: ids.memberTeam!, invitationId: t.invitationId! })],
    state: (t) => db().teamInvitation.findUniqueOrThrow({ where: { id: t.invitationId! }, select: { revokedAt: true } }),
    expect: membersOnly,
  },
  // Owners only (issue 23 F4): the `member` is a plain MEMBER of these teams, so everyone is refused.
  {
    file: "app/teams/actions.ts",
    action: "createTeamInvitationAction",
    about: "a link to a team where the member is not an owner",
    target: async (who) => ({ teamId: (await ownedBy(who, "member")).teamId! }),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, maxUses: "5" })],
    state: (t) => db().teamInvitation.count({ where: { teamId: t.teamId! } }),
    expect: { ...membersOnly, member: "refused" },
  },
  {
    file: "app/teams/actions.ts",
    action: "revokeTeamInvitationAction",
    about: "a link of a team where the member is not an owner",
    target: async (who) => {
      const t = await ownedBy(who, "member");
      return { ...t, invitationId: (await createTeamInvitation(viewerOf(t.founder!), t.teamId!)).invitation.id };
    },
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, invitationId: t.invitationId! })],
    state: (t) => db().teamInvitation.findUniqueOrThrow({ where: { id: t.invitationId! }, select: { revokedAt: true } }),
    expect: { ...membersOnly, member: "refused" },
  },
  {
    file: "app/teams/actions.ts",
    action: "removeTeamMemberAction",
    about: "another member of a team the member owns",
    target: async (who) => ownedBy(who, "owner"),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, userId: t.other! })],
    state: (t) => db().teamMember.count({ where: { teamId: t.teamId!, userId: t.other! } }),
    expect: membersOnly,
  },
  {
    file: "app/teams/actions.ts",
    action: "removeTeamMemberAction",
    about: "another member of a team where the member is not an owner",
    target: async (who) => ownedBy(who, "member"),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, userId: t.other! })],
    state: (t) => db().teamMember.count({ where: { teamId: t.teamId!, userId: t.other! } }),
    expect: { ...membersOnly, member: "refused" },
  },
  {
    file: "app/teams/actions.ts",
    action: "leaveTeamAction",
    about: "a team the member is in (each viewer can only leave their own teams)",
    target: async (who) => ownedBy(who, "member"),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId! })],
    state: (t) => db().teamMember.count({ where: { teamId: t.teamId! } }),
    expect: membersOnly,
  },
  {
    file: "app/teams/actions.ts",
    action: "makeTeamOwnerAction",
    about: "another member of a team the member owns",
    target: async (who) => ownedBy(who, "owner"),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, userId: t.other! })],
    state: (t) => db().teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId: t.teamId!, userId: t.other! } }, select: { role: true } }),
    expect: membersOnly,
  },
  {
    file: "app/teams/actions.ts",
    action: "makeTeamOwnerAction",
    about: "another member of a team where the member is not an owner",
    target: async (who) => ownedBy(who, "member"),
    args: (t) => [{ status: "idle" }, form({ teamId: t.teamId!, userId: t.other! })],
    state: (t) => db().teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId: t.teamId!, userId: t.other! } }, select: { role: true } }),
    expect: { ...membersOnly, member: "refused" },
  },
];

// ---------------------------------------------------------------------------------------------
// Finding the actions

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const APP = path.join(ROOT, "app");

/** Whether a file's first statement is the "use server" directive (comments may come first). */
function isUseServerFile(text: string): boolean {
  const code = text.replace(/^\uFEFF/, "").replace(/^(\s+|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  return /^["']use server["']/.test(code);
}

/** Every "use server" file under app/ (relative to the repository root). */
function serverActionFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name === "node_modules") continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && isUseServerFile(readFileSync(full, "utf8"))) found.push(path.relative(ROOT, full).split(path.sep).join("/"));
    }
  };
  walk(APP);
  return found.sort();
}

const modules = new Map<string, Record<string, unknown>>();
async function load(file: string): Promise<Record<string, unknown>> {
  if (!modules.has(file)) modules.set(file, (await import(path.join(ROOT, file))) as Record<string, unknown>);
  return modules.get(file)!;
}

/** Every (file, exported function) pair of the "use server" files. */
async function serverActions(): Promise<string[]> {
  const pairs: string[] = [];
  for (const file of serverActionFiles()) {
    for (const [name, value] of Object.entries(await load(file))) if (typeof value === "function") pairs.push(`${file}#${name}`);
  }
  return pairs.sort();
}

// ---------------------------------------------------------------------------------------------
// Calling them and reading the outcome

type Observed = "success" | "refusal" | "signin" | "nothing";
const GENERIC = /Something went wrong/;
const SIGN_IN = /sign in/i;

/** What a call came to; throws for a broken probe (an unexpected error, a generic failure). */
function observe(result: { value?: unknown; thrown?: unknown }): { kind: Observed; detail: string } {
  if ("thrown" in result) {
    const digest = (result.thrown as { digest?: unknown } | null)?.digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;")) {
      const destination = digest.split(";").slice(2, -2).join(";");
      if (/^\/(api\/auth\/)?signin\b/.test(destination)) return { kind: "signin", detail: `redirect ${destination}` };
      // Back to the invitation page, which says why: a refusal.
      if (destination.startsWith("/invite/")) return { kind: "refusal", detail: `redirect ${destination}` };
      return { kind: "success", detail: `redirect ${destination}` };
    }
    if (typeof digest === "string" && digest.startsWith("NEXT_HTTP_ERROR_FALLBACK;")) return { kind: "refusal", detail: digest };
    throw result.thrown;
  }
  const value = result.value;
  if (value === undefined) return { kind: "nothing", detail: "undefined" };
  if (value === false) return { kind: "refusal", detail: "false" };
  if (value === true) return { kind: "success", detail: "true" };
  const state = value as { status?: string; ok?: boolean; message?: string; errors?: Record<string, string> };
  const failed = state.status === "error" || state.ok === false;
  const text = JSON.stringify(value).slice(0, 400);
  if (!failed) return { kind: "success", detail: text };
  const message = [state.message ?? "", ...Object.values(state.errors ?? {})].join(" ");
  if (GENERIC.test(message)) throw new Error(`a generic failure (the probe is broken): ${text}`);
  return { kind: SIGN_IN.test(message) ? "signin" : "refusal", detail: text };
}

const observedTable: string[] = [];

beforeAll(async () => {
  const { users: made, teams, task } = await setupScenario(db(), {
    users: { bystander: {}, rival: {}, member: {}, organizer: {}, admin: { admin: true } },
    teams: { Members: ["member"], Rivals: ["rival"] },
    task: { phases: [openPhase("main"), openPhase("final"), openPhase("spare")], organizers: ["organizer"], gold: [{ phase: "main", text: SMALL_KEY }, { phase: "final", text: SMALL_KEY }] },
  });
  for (const who of ["bystander", "rival", "member", "organizer", "admin"] as const) users[who] = made[who].id;
  // A site admin who organizes nothing probed here: makes invitations and datasets for the probes.
  users.creator = (await makeUser(db(), "Probe Creator", "ADMIN")).id;
  ids.tag = Date.now().toString(36);
  ids.taskId = task!.id;
  ids.mainPhase = task!.phases.main!.id;
  ids.closedPhase = task!.phases.final!.id;
  ids.sparePhase = task!.phases.spare!.id;
  ids.memberTeam = teams.Members!.id;
  ids.rivalTeam = teams.Rivals!.id;
  ids.memberEmail = made.member.email;
  // The main phase lets teams choose their final runs; the final phase has closed.
  await db().phase.update({ where: { id: ids.mainPhase }, data: { selectionRule: "TEAM_SELECTED" } });
  await db().phase.update({ where: { id: ids.closedPhase }, data: { closesAt: new Date(Date.now() - 1000) } });
  ids.spareValues = JSON.stringify(phaseValuesFromPhase(await db().phase.findUniqueOrThrow({ where: { id: ids.sparePhase } })));
}, 60_000);

afterAll(() => {
  if (observedTable.length > 0) console.log(`server action probes:\n${observedTable.join("\n")}`);
});

describe("server action authorization inventory", () => {
  it("every server action has a probe, and every probe names a server action", async () => {
    const actions = await serverActions();
    expect(actions.length).toBeGreaterThanOrEqual(40);
    const probed = new Set(PROBES.map((p) => `${p.file}#${p.action}`));
    expect(actions.filter((a) => !probed.has(a)), "server actions without a probe").toEqual([]);
    expect([...probed].filter((p) => !actions.includes(p)), "probes of server actions that do not exist").toEqual([]);
    // At least one viewer may act, so that a refusal is told from a broken probe.
    const acting = new Set(PROBES.filter((p) => Object.values(p.expect).includes("ok")).map((p) => `${p.file}#${p.action}`));
    expect([...probed].filter((p) => !acting.has(p)), "server actions whose probes let nobody act").toEqual([]);
  });

  for (const probe of PROBES) {
    it(`${probe.file} ${probe.action}: ${probe.about}`, async () => {
      const action = (await load(probe.file))[probe.action] as Action;
      expect(typeof action, `${probe.file} exports no ${probe.action}`).toBe("function");
      const refusal = (o: Outcome) => o === "refused" || o === "signin";
      const order = [...WHO].sort((a, b) => Number(!refusal(probe.expect[a])) - Number(!refusal(probe.expect[b])));
      let shared: Target | null = null;
      const seen: string[] = [];
      for (const who of order) {
        const expected = probe.expect[who];
        const t = probe.target ? await probe.target(who) : (shared ??= {});
        const userId = probe.as ? probe.as(t, who) : who === "anonymous" ? null : users[who];
        const cookie = userId ? await sessionCookie(db(), userId) : null;
        const before = probe.state ? JSON.stringify(await probe.state(t, who)) : null;
        const result = await withCookies(cookie, () => action(...probe.args(t, who)).then((value) => ({ value }), (thrown: unknown) => ({ thrown })));
        const after = probe.state ? JSON.stringify(await probe.state(t, who)) : null;
        const changed = before !== after;
        const { kind, detail } = observe(result);
        const label = `${probe.action} (${probe.about}) as ${who}: expected ${expected}, got ${kind}${probe.state ? (changed ? ", target changed" : ", target unchanged") : ""}: ${detail}`;
        switch (expected) {
          case "ok":
            expect(kind === "success" || (kind === "nothing" && probe.state !== undefined), label).toBe(true);
            if (probe.state) expect(changed, label).toBe(true);
            break;
          case "own":
            expect(kind, label).toBe("success");
            expect(changed, label).toBe(false);
            break;
          case "refused":
            expect(["refusal", "signin", "nothing"].includes(kind), label).toBe(true);
            expect(changed, label).toBe(false);
            break;
          case "signin":
            expect(kind, label).toBe("signin");
            expect(changed, label).toBe(false);
            break;
        }
        seen.push(`${who}=${kind === "nothing" ? (changed ? "done" : "nothing") : kind}`);
      }
      observedTable.push(`${probe.file}#${probe.action} (${probe.about}): ${seen.join(" ")}`);
    });
  }
});
