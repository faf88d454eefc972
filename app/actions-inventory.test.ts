/**
 * The authorization inventory of server actions (issue 11): every server action the app
 * exports, who may use it, the lib/ functions it calls (which enforce that rule on the server),
 * and where that rule is tested for each kind of viewer.
 *
 * A server action is a thin form adapter: the rule lives in the service it calls. So the
 * inventory checks, for every action:
 * - it is listed here (a new action without an entry fails), and every entry still exists;
 * - its body calls each service the entry names;
 * - each of those services is either behind an API route (and so probed as every kind of viewer
 *   by e2e/authz-inventory.spec.ts, whose first test fails for a route without a probe), or
 *   named, with a refusal assertion, in the DB test file the entry gives.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

/** Who may use an action (the service's rule, in words). */
type Rule =
  | "anyone"
  | "signed-in users"
  | "the signed-in account itself"
  | "the link's holder (token)"
  | "members of the run's team"
  | "members of the team"
  | "owners of the team"
  | "the task's organizers and site admins"
  | "site admins and organizers (site role)"
  | "site admins";

interface ActionEntry {
  /** app-relative file */
  file: string;
  rule: Rule;
  /** lib/ functions the action calls, each enforcing `rule` */
  calls: string[];
  /** where the rule is tested for services without an API route: a test file under lib/ */
  tests?: string;
}

/** Every server action, by exported name. */
const ACTIONS: Record<string, ActionEntry> = {
  signUpAction: { file: "app/(auth)/actions.ts", rule: "anyone", calls: ["signUp"], tests: "lib/accounts/users.test.ts" },
  requestPasswordResetAction: { file: "app/(auth)/actions.ts", rule: "anyone", calls: ["requestPasswordReset"], tests: "lib/accounts/password-reset.test.ts" },
  resetPasswordAction: { file: "app/(auth)/actions.ts", rule: "the link's holder (token)", calls: ["resetPassword"], tests: "lib/accounts/password-reset.test.ts" },
  confirmAccountAction: { file: "app/(auth)/actions.ts", rule: "the link's holder (token)", calls: ["confirmEmailAddress"], tests: "lib/accounts/email-confirmation.test.ts" },
  resendConfirmationAction: { file: "app/account/confirmation-actions.ts", rule: "the signed-in account itself", calls: ["resendEmailConfirmation"], tests: "lib/accounts/email-confirmation.test.ts" },
  createTokenAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["createOwnApiToken"], tests: "lib/accounts/account.test.ts" },
  revokeTokenAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["revokeOwnApiToken"], tests: "lib/accounts/account.test.ts" },
  changePasswordAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["changePassword"], tests: "lib/accounts/users.test.ts" },
  signOutEverywhereAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["signOutEverywhere"], tests: "lib/accounts/account.test.ts" },
  requestEmailChangeAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["requestEmailChange"], tests: "lib/accounts/account.test.ts" },
  confirmEmailChangeAction: { file: "app/account/actions.ts", rule: "the link's holder (token)", calls: ["confirmEmailChange"], tests: "lib/accounts/account.test.ts" },
  deleteAccountAction: { file: "app/account/actions.ts", rule: "the signed-in account itself", calls: ["deleteAccount"], tests: "lib/accounts/account.test.ts" },
  acceptOrganizerInvitationAction: {
    file: "app/invite/organizer/[token]/actions.ts",
    rule: "the link's holder (token)",
    calls: ["acceptOrganizerInvitation"],
    tests: "lib/tasks/organizer-invitations.test.ts",
  },
  acceptTeamInvitationAction: { file: "app/invite/team/[token]/actions.ts", rule: "the link's holder (token)", calls: ["acceptTeamInvitation"], tests: "lib/teams/invitations.test.ts" },
  withdrawRunAction: { file: "app/submissions/[id]/actions.ts", rule: "members of the run's team", calls: ["withdrawSubmission"] },
  disqualifyRunAction: { file: "app/submissions/[id]/actions.ts", rule: "the task's organizers and site admins", calls: ["disqualifySubmission"] },
  requalifyRunAction: { file: "app/submissions/[id]/actions.ts", rule: "the task's organizers and site admins", calls: ["requalifySubmission"] },
  finalRunAction: { file: "app/submissions/[id]/actions.ts", rule: "members of the run's team", calls: ["setFinalSelection"] },
  updatePhaseAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["updatePhase"] },
  updateTaskDetailsAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["updateTask"] },
  taskLifecycleAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["publishTask", "archiveTask", "unarchiveTask"] },
  phaseLifecycleAction: {
    file: "app/tasks/[slug]/manage/actions.ts",
    rule: "the task's organizers and site admins",
    calls: ["closePhaseNow", "deletePhase"],
    tests: "lib/tasks/task-editing.test.ts",
  },
  deriveBlindInputAction: {
    file: "app/tasks/[slug]/manage/gold/blind-input-actions.ts",
    rule: "the task's organizers and site admins",
    calls: ["deriveBlindInput"],
    tests: "lib/runs/participant-files.test.ts",
  },
  addPhaseAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["addPhase"] },
  setParticipantTeamAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["setParticipantTeam"], tests: "lib/teams/teams-tasks.test.ts" },
  updateTaskAnalysisAction: {
    file: "app/tasks/[slug]/manage/actions.ts",
    rule: "the task's organizers and site admins",
    calls: ["updateTaskAnalysisSettings"],
    tests: "lib/tasks/analysis-settings.test.ts",
  },
  updateTaskEvaluationAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["updateTaskEvaluation"], tests: "lib/tasks/evaluation-profile.test.ts" },
  addTrackAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["addTrack"], tests: "lib/tasks/tracks.test.ts" },
  trackAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["updateTrack", "moveTrack", "deleteTrack"], tests: "lib/tasks/tracks.test.ts" },
  addDatasetAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["addDataset"] },
  datasetAction: { file: "app/tasks/[slug]/manage/actions.ts", rule: "the task's organizers and site admins", calls: ["updateDataset", "deleteDataset"] },
  consoleRunAction: {
    file: "app/tasks/[slug]/manage/console-actions.ts",
    rule: "the task's organizers and site admins",
    calls: ["rescoreSubmission", "hideSubmission", "unhideSubmission", "disqualifySubmission", "requalifySubmission"],
  },
  rescorePhaseAction: { file: "app/tasks/[slug]/manage/console-actions.ts", rule: "the task's organizers and site admins", calls: ["rescorePhase"] },
  inviteOrganizerAction: { file: "app/tasks/[slug]/manage/organizer-actions.ts", rule: "the task's organizers and site admins", calls: ["inviteOrganizer"] },
  revokeOrganizerInvitationAction: { file: "app/tasks/[slug]/manage/organizer-actions.ts", rule: "the task's organizers and site admins", calls: ["revokeOrganizerInvitation"] },
  publishSnapshotAction: { file: "app/tasks/[slug]/manage/snapshot-actions.ts", rule: "the task's organizers and site admins", calls: ["publishSnapshot"] },
  createTaskAction: { file: "app/tasks/new/actions.ts", rule: "site admins and organizers (site role)", calls: ["createTask"], tests: "lib/teams/teams-tasks.test.ts" },
  setSiteRoleAction: { file: "app/admin/users/actions.ts", rule: "site admins", calls: ["setSiteRole"], tests: "lib/accounts/site-roles.test.ts" },
  createTeamAction: { file: "app/teams/actions.ts", rule: "signed-in users", calls: ["createTeam"], tests: "lib/teams/teams-tasks.test.ts" },
  joinTeamAction: { file: "app/teams/actions.ts", rule: "signed-in users", calls: ["joinTeam"], tests: "lib/teams/teams-tasks.test.ts" },
  createTeamInvitationAction: { file: "app/teams/actions.ts", rule: "owners of the team", calls: ["createTeamInvitation"] },
  revokeTeamInvitationAction: { file: "app/teams/actions.ts", rule: "owners of the team", calls: ["revokeTeamInvitation"] },
  removeTeamMemberAction: { file: "app/teams/actions.ts", rule: "owners of the team", calls: ["removeTeamMember"], tests: "lib/teams/membership.test.ts" },
  leaveTeamAction: { file: "app/teams/actions.ts", rule: "members of the team", calls: ["leaveTeam"], tests: "lib/teams/membership.test.ts" },
  makeTeamOwnerAction: { file: "app/teams/actions.ts", rule: "owners of the team", calls: ["makeTeamOwner"], tests: "lib/teams/membership.test.ts" },
};

/** Files under `dir` (recursive) whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, keep));
    else if (keep(name)) out.push(full);
  }
  return out;
}

/** Exported server actions: `export async function name` in files whose first statement is "use server". */
function serverActions(): Map<string, { file: string; body: string }> {
  const actions = new Map<string, { file: string; body: string }>();
  for (const full of filesUnder(path.join(ROOT, "app"), (n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts"))) {
    const text = readFileSync(full, "utf8");
    if (!/^\s*(\/\*[\s\S]*?\*\/\s*)?["']use server["']/.test(text)) continue;
    const parts = text.split(/(?=export async function )/);
    for (const part of parts.slice(1)) {
      const name = /^export async function (\w+)/.exec(part)![1]!;
      actions.set(name, { file: path.relative(ROOT, full), body: part });
    }
  }
  return actions;
}

/** The source of every API route file. */
const routeSources = filesUnder(path.join(ROOT, "app", "api"), (n) => n === "route.ts").map((f) => readFileSync(f, "utf8"));

const calls = (source: string, fn: string) => new RegExp(`\\b${fn}\\(`).test(source);

describe("server actions' authorization inventory", () => {
  const found = serverActions();

  it("lists every server action the app exports, and nothing else", () => {
    expect([...found.keys()].sort()).toEqual(Object.keys(ACTIONS).sort());
    for (const [name, entry] of Object.entries(ACTIONS)) expect(found.get(name)?.file, name).toBe(entry.file);
  });

  for (const [name, entry] of Object.entries(ACTIONS)) {
    it(`${name} (${entry.rule}) calls ${entry.calls.join(", ")}, whose rule is tested for each kind of viewer`, () => {
      const action = found.get(name);
      expect(action, `${name} exists`).toBeDefined();
      for (const fn of entry.calls) {
        expect(calls(action!.body, fn), `${name} calls ${fn}`).toBe(true);
        const behindRoute = routeSources.some((source) => calls(source, fn));
        if (behindRoute) continue;
        expect(entry.tests, `${fn} has no API route: name the DB test file that checks its rule`).toBeDefined();
        const test = readFileSync(path.join(ROOT, entry.tests!), "utf8");
        expect(calls(test, fn), `${entry.tests} calls ${fn}`).toBe(true);
        expect(test, `${entry.tests} asserts a refusal`).toMatch(/(Unauthorized|Forbidden|NotFound|Validation|UserInput)Error|toBe\(40[134]\)|rejects\./);
      }
    });
  }
});
