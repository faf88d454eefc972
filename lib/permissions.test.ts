/**
 * Authorization rules against a real database: permissions, leaderboard visibility (also
 * through getLeaderboard), submission visibility (also through getSubmissionForViewer), and
 * the leaderboard built from stored rows.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "./db/test-db";
import { ForbiddenError, NotFoundError } from "./errors";
import {
  assertCanManageTask,
  canCreateTask,
  canManageTask,
  canViewDocumentScores,
  canViewErrorAnalysis,
  canViewGold,
  canViewLeaderboard,
  canViewSubmission,
  isSiteAdmin,
  isTaskOrganizer,
  isTaskParticipant,
  taskStanding,
  type PhaseAnalysisFacts,
  type SubmissionAccess,
  type Viewer,
} from "./permissions";
import { defaultDatasetData } from "./tasks/datasets";
import { getLeaderboard } from "./boards/leaderboard";
import { leaderboardCsv } from "./boards/leaderboard-csv";
import { getSubmissionForViewer } from "./runs/submissions";
import { setSiteRole } from "./accounts/site-roles";
import { CREATE_TASK_REFUSED, createTask, getTaskForViewer } from "./tasks/tasks";
import { getSessionUser } from "./accounts/users";
import { bytes, insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY, type SubmissionFields } from "./tasks/test-fixtures";
import { packFile } from "./storage";

const testDb = useTestDatabase();

type Who = "anonymous" | "bystander" | "participant" | "organizer" | "admin";
let viewers: Record<Who, Viewer>;
let ids: { taskId: string; otherTaskId: string; publicPhase: string; participantsPhase: string; organizersPhase: string; participantTeam: string; otherTeam: string };
let users: Record<"admin" | "organizer" | "participant" | "teammate" | "bystander" | "rival", { id: string; viewer: NonNullable<Viewer> }>;

beforeAll(async () => {
  const db = testDb.prisma;
  const admin = await makeUser(db, "Ada Admin", "ADMIN");
  const organizer = await makeUser(db, "Olga Organizer");
  const participant = await makeUser(db, "Pat Participant");
  const teammate = await makeUser(db, "Tim Teammate");
  const bystander = await makeUser(db, "Bea Bystander");
  const rival = await makeUser(db, "Rita Rival");
  users = { admin, organizer, participant, teammate, bystander, rival };
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: { name: "public", leaderboardVisibility: "PUBLIC" } });
  const day = 24 * 3600 * 1000;
  const mk = (name: string, leaderboardVisibility: "PARTICIPANTS" | "ORGANIZERS") =>
    db.phase.create({
      data: { taskId: task.id, name, opensAt: new Date(Date.now() - day), closesAt: new Date(Date.now() + day), leaderboardVisibility, datasets: { create: defaultDatasetData("conll2012") } },
    });
  const participantsPhase = await mk("participants", "PARTICIPANTS");
  const organizersPhase = await mk("organizers", "ORGANIZERS");
  const other = await makeTaskWithPhase(db, { organizerIds: [] });
  const participantTeam = await makeTeam(db, "Pat's team", [participant.id, teammate.id]);
  const rivalTeam = await makeTeam(db, "Rivals", [rival.id]);
  // The participant's team submitted once, in the ORGANIZERS phase: that still makes them a participant of the task.
  await insertSubmission(db, { phaseId: organizersPhase.id, teamId: participantTeam.id, submitterId: participant.id, status: "QUEUED" });
  // The bystander's only submission is in another task.
  const bystanderTeam = await makeTeam(db, "Solo", [bystander.id]);
  await insertSubmission(db, { phaseId: other.phase.id, teamId: bystanderTeam.id, submitterId: bystander.id });
  viewers = { anonymous: null, bystander: bystander.viewer, participant: participant.viewer, organizer: organizer.viewer, admin: admin.viewer };
  ids = {
    taskId: task.id,
    otherTaskId: other.task.id,
    publicPhase: phase.id,
    participantsPhase: participantsPhase.id,
    organizersPhase: organizersPhase.id,
    participantTeam: participantTeam.id,
    otherTeam: rivalTeam.id,
  };
});

describe("roles", () => {
  it("isSiteAdmin reads the viewer's role", () => {
    expect(isSiteAdmin(viewers.admin)).toBe(true);
    expect(isSiteAdmin(viewers.organizer)).toBe(false);
    expect(isSiteAdmin(null)).toBe(false);
  });

  it("isTaskOrganizer: organizers of the task and every admin, nobody else", async () => {
    expect(await isTaskOrganizer(users.organizer.id, ids.taskId)).toBe(true);
    expect(await isTaskOrganizer(users.organizer.id, ids.otherTaskId)).toBe(false);
    expect(await isTaskOrganizer(users.admin.id, ids.otherTaskId)).toBe(true);
    expect(await isTaskOrganizer(users.participant.id, ids.taskId)).toBe(false);
    expect(await isTaskOrganizer("00000000-0000-0000-0000-000000000000", ids.taskId)).toBe(false);
  });

  it("canManageTask and canViewGold: organizers and admins only", async () => {
    for (const check of [canManageTask, canViewGold]) {
      expect(await check(viewers.organizer, ids.taskId)).toBe(true);
      expect(await check(viewers.admin, ids.taskId)).toBe(true);
      expect(await check(viewers.participant, ids.taskId)).toBe(false);
      expect(await check(viewers.anonymous, ids.taskId)).toBe(false);
    }
  });

  it("isTaskParticipant: a member of a team with a non-baseline submission in any phase of the task", async () => {
    expect(await isTaskParticipant(users.participant.id, ids.taskId)).toBe(true);
    expect(await isTaskParticipant(users.teammate.id, ids.taskId)).toBe(true);
    expect(await isTaskParticipant(users.bystander.id, ids.taskId)).toBe(false);
    expect(await isTaskParticipant(users.bystander.id, ids.otherTaskId)).toBe(true);
    // A team whose only run in the task is a baseline is not one of the task's teams.
    const db = testDb.prisma;
    const helper = await makeUser(db, "Baseline Helper");
    const helpers = await makeTeam(db, "Baseline helpers", [helper.id]);
    await insertSubmission(db, { phaseId: ids.organizersPhase, teamId: helpers.id, submitterId: helper.id, isBaseline: true });
    expect(await isTaskParticipant(helper.id, ids.taskId)).toBe(false);
  });
});

describe("the site role ORGANIZER (may create tasks)", () => {
  const taskInput = (slug: string) => ({
    slug,
    title: "An organizer's task",
    description: "Made by an account with the organizer role.",
    phases: [{ name: "test", opensAt: "2020-01-01T00:00:00Z", closesAt: "2099-01-01T00:00:00Z" }],
  });

  /** A user given the ORGANIZER role, with the viewer a session would build for them (role read back from the database). */
  async function siteOrganizer(name: string) {
    const made = await makeUser(testDb.prisma, name);
    await setSiteRole(users.admin.viewer, made.id, "organizer");
    const session = await getSessionUser(made.id, 0);
    return { ...made, viewer: { userId: made.id, role: session!.role } as NonNullable<Viewer> };
  }

  it("canCreateTask: site admins and organizers; not plain users, not anonymous viewers", async () => {
    const organizer = await siteOrganizer("Sam Site-Organizer");
    expect(organizer.viewer.role).toBe("ORGANIZER");
    expect(canCreateTask(viewers.admin)).toBe(true);
    expect(canCreateTask(organizer.viewer)).toBe(true);
    expect(canCreateTask(viewers.organizer)).toBe(false); // organizes a task, but has the USER role
    expect(canCreateTask(viewers.bystander)).toBe(false);
    expect(canCreateTask(null)).toBe(false);
  });

  it("an organizer creates a task and organizes it; a plain user is refused and nothing is made", async () => {
    const organizer = await siteOrganizer("Olive Site-Organizer");
    const { id } = await createTask(organizer.viewer, taskInput("organizer-made"));
    expect(await isTaskOrganizer(organizer.id, id)).toBe(true);
    expect(await canManageTask(organizer.viewer, id)).toBe(true);
    expect((await testDb.prisma.taskOrganizer.findMany({ where: { taskId: id } })).map((o) => o.userId)).toEqual([organizer.id]);

    const refused = await rejection(createTask(viewers.bystander, taskInput("user-made")));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.message).toBe(CREATE_TASK_REFUSED);
    expect((await rejection(createTask(null, taskInput("anonymous-made")))).httpStatus).toBe(401);
    expect(await testDb.prisma.task.count({ where: { slug: { in: ["user-made", "anonymous-made"] } } })).toBe(0);
  });

  it("an organizer is not an organizer of anyone else's task, published or draft", async () => {
    const organizer = await siteOrganizer("Oscar Site-Organizer");
    expect(await isTaskOrganizer(organizer.id, ids.taskId)).toBe(false);
    expect(await canManageTask(organizer.viewer, ids.taskId)).toBe(false);
    expect(await canViewGold(organizer.viewer, ids.taskId)).toBe(false);
    expect((await taskStanding(organizer.viewer, ids.taskId)).isOrganizer).toBe(false);
    expect(await rejection(assertCanManageTask(organizer.viewer, ids.taskId))).toBeInstanceOf(ForbiddenError);
    const { id: draftId } = await createTask(users.admin.viewer, taskInput("admins-draft"));
    expect(await canManageTask(organizer.viewer, draftId)).toBe(false);
    expect(await rejection(assertCanManageTask(organizer.viewer, draftId))).toBeInstanceOf(NotFoundError);
  });

  it("a revoked organizer creates no more tasks, and keeps organizing the ones it made", async () => {
    const organizer = await siteOrganizer("Rory Revoked");
    const { id } = await createTask(organizer.viewer, taskInput("made-before-revoke"));
    await setSiteRole(users.admin.viewer, organizer.id, "user");
    const now = { userId: organizer.id, role: (await getSessionUser(organizer.id, 0))!.role };
    expect(now.role).toBe("USER");
    expect(await rejection(createTask(now, taskInput("made-after-revoke")))).toBeInstanceOf(ForbiddenError);
    expect(await canManageTask(now, id)).toBe(true);
  });
});

describe("error analysis and per-document scores (rules on given facts)", () => {
  const access = (o: Partial<Omit<SubmissionAccess, "isParticipant">> & { participant?: boolean }): SubmissionAccess => ({
    visible: o.visible ?? true,
    isTeamMember: o.isTeamMember ?? false,
    isOrganizer: o.isOrganizer ?? false,
    isParticipant: async () => o.participant ?? false,
  });
  const phase = (o: Partial<PhaseAnalysisFacts> = {}): PhaseAnalysisFacts => ({
    leaderboardVisibility: o.leaderboardVisibility ?? "PUBLIC",
    participantAnalysis: o.participantAnalysis ?? "NONE",
    teamDocumentScores: o.teamDocumentScores ?? false,
  });
  const reader = access({});
  const participant = access({ participant: true });
  const team = access({ isTeamMember: true, participant: true });
  const organizer = access({ isOrganizer: true });
  const hiddenRun = access({ visible: false, participant: true });

  it("canViewErrorAnalysis: NONE organizers only; TEAMS participants too; PUBLIC anyone who sees the run", async () => {
    const table: [PhaseAnalysisFacts["participantAnalysis"], SubmissionAccess, boolean][] = [
      ["NONE", organizer, true],
      ["NONE", team, false],
      ["NONE", participant, false],
      ["TEAMS", team, true],
      ["TEAMS", participant, true],
      ["TEAMS", reader, false],
      ["PUBLIC", reader, true],
      ["PUBLIC", hiddenRun, false],
      ["TEAMS", hiddenRun, false],
    ];
    for (const [level, who, expected] of table) expect(await canViewErrorAnalysis(who, phase({ participantAnalysis: level }))).toBe(expected);
  });

  it("canViewDocumentScores: the run's team except on a hidden board without teamDocumentScores; others as the error analysis", async () => {
    expect(await canViewDocumentScores(team, phase())).toBe(true);
    expect(await canViewDocumentScores(team, phase({ leaderboardVisibility: "PARTICIPANTS" }))).toBe(true);
    expect(await canViewDocumentScores(team, phase({ leaderboardVisibility: "ORGANIZERS" }))).toBe(false);
    expect(await canViewDocumentScores(team, phase({ leaderboardVisibility: "ORGANIZERS", teamDocumentScores: true }))).toBe(true);
    expect(await canViewDocumentScores(team, phase({ leaderboardVisibility: "ORGANIZERS", participantAnalysis: "TEAMS" }))).toBe(true);
    expect(await canViewDocumentScores(organizer, phase({ leaderboardVisibility: "ORGANIZERS" }))).toBe(true);
    expect(await canViewDocumentScores(participant, phase())).toBe(false);
    expect(await canViewDocumentScores(participant, phase({ teamDocumentScores: true }))).toBe(false);
    expect(await canViewDocumentScores(participant, phase({ participantAnalysis: "TEAMS" }))).toBe(true);
    expect(await canViewDocumentScores(reader, phase({ participantAnalysis: "TEAMS" }))).toBe(false);
    expect(await canViewDocumentScores(reader, phase({ participantAnalysis: "PUBLIC" }))).toBe(true);
    expect(await canViewDocumentScores(hiddenRun, phase({ participantAnalysis: "PUBLIC", teamDocumentScores: true }))).toBe(false);
  });
});

describe("leaderboard visibility", () => {
  const expected: Record<"PUBLIC" | "PARTICIPANTS" | "ORGANIZERS", Record<Who, boolean>> = {
    PUBLIC: { anonymous: true, bystander: true, participant: true, organizer: true, admin: true },
    PARTICIPANTS: { anonymous: false, bystander: false, participant: true, organizer: true, admin: true },
    ORGANIZERS: { anonymous: false, bystander: false, participant: false, organizer: true, admin: true },
  };

  for (const visibility of ["PUBLIC", "PARTICIPANTS", "ORGANIZERS"] as const) {
    for (const who of Object.keys(expected[visibility]) as Who[]) {
      const allowed = expected[visibility][who];
      it(`${visibility}: ${who} ${allowed ? "may" : "may not"} see it (permission and getLeaderboard agree)`, async () => {
        const phaseId = { PUBLIC: ids.publicPhase, PARTICIPANTS: ids.participantsPhase, ORGANIZERS: ids.organizersPhase }[visibility];
        expect(await canViewLeaderboard(viewers[who], { taskId: ids.taskId, leaderboardVisibility: visibility })).toBe(allowed);
        if (allowed) {
          expect((await getLeaderboard(phaseId, viewers[who])).phase.id).toBe(phaseId);
        } else {
          const error = await rejection(getLeaderboard(phaseId, viewers[who]));
          expect(error.httpStatus).toBe(who === "anonymous" ? 401 : 403);
        }
      });
    }
  }

  it("getTaskForViewer's per-phase canViewLeaderboard follows the same table", async () => {
    const slug = (await testDb.prisma.task.findUniqueOrThrow({ where: { id: ids.taskId } })).slug;
    for (const who of Object.keys(viewers) as Who[]) {
      const view = await getTaskForViewer(slug, viewers[who]);
      const byName = Object.fromEntries(view.phases.map((p) => [p.name, p.canViewLeaderboard]));
      expect(byName, who).toEqual({ public: expected.PUBLIC[who], participants: expected.PARTICIPANTS[who], organizers: expected.ORGANIZERS[who] });
    }
  });

  it("an anonymous viewer's standing from the task's known status equals the one read from the database", async () => {
    const { status: before } = await testDb.prisma.task.findUniqueOrThrow({ where: { id: ids.otherTaskId } });
    try {
      for (const status of ["PUBLISHED", "DRAFT"] as const) {
        await testDb.prisma.task.update({ where: { id: ids.otherTaskId }, data: { status } });
        const read = await taskStanding(null, ids.otherTaskId);
        const known = await taskStanding(null, ids.otherTaskId, undefined, { status });
        expect([known.isOrganizer, known.hiddenDraft, await known.isParticipant()]).toEqual([read.isOrganizer, read.hiddenDraft, await read.isParticipant()]);
        expect(known.hiddenDraft).toBe(status === "DRAFT");
      }
    } finally {
      await testDb.prisma.task.update({ where: { id: ids.otherTaskId }, data: { status: before } });
    }
  });

  it("getLeaderboard: 404 for an unknown or malformed phase id", async () => {
    expect((await rejection(getLeaderboard("00000000-0000-0000-0000-000000000000", null))).httpStatus).toBe(404);
    expect((await rejection(getLeaderboard("not-a-uuid", null))).httpStatus).toBe(404);
  });
});

describe("submission visibility", () => {
  let privateOwn: string;
  let publicInPublicPhase: string;
  let publicInOrganizersPhase: string;

  beforeAll(async () => {
    const db = testDb.prisma;
    privateOwn = (await insertSubmission(db, { phaseId: ids.publicPhase, teamId: ids.participantTeam, submitterId: users.participant.id, visibility: "PRIVATE" })).id;
    publicInPublicPhase = (await insertSubmission(db, { phaseId: ids.publicPhase, teamId: ids.otherTeam, submitterId: users.rival.id })).id;
    publicInOrganizersPhase = (await insertSubmission(db, { phaseId: ids.organizersPhase, teamId: ids.otherTeam, submitterId: users.rival.id })).id;
  });

  const facts = async (id: string) => {
    const s = await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, include: { phase: true } });
    return { teamId: s.teamId, visibility: s.visibility, withdrawnAt: s.withdrawnAt, hiddenAt: s.hiddenAt, createdAt: s.createdAt, isBaseline: s.isBaseline, phase: s.phase };
  };

  it("a team's private run: its members and organizers only", async () => {
    const f = await facts(privateOwn);
    expect(await canViewSubmission(viewers.participant, f)).toBe(true);
    expect(await canViewSubmission(users.teammate.viewer, f)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, f)).toBe(true);
    expect(await canViewSubmission(viewers.admin, f)).toBe(true);
    expect(await canViewSubmission(users.rival.viewer, f)).toBe(false);
    expect(await canViewSubmission(viewers.anonymous, f)).toBe(false);
  });

  it("a public run: whoever may see the phase's leaderboard", async () => {
    const open = await facts(publicInPublicPhase);
    expect(await canViewSubmission(viewers.anonymous, open)).toBe(true);
    expect(await canViewSubmission(viewers.participant, open)).toBe(true);
    const hidden = await facts(publicInOrganizersPhase);
    expect(await canViewSubmission(viewers.participant, hidden)).toBe(false);
    expect(await canViewSubmission(viewers.anonymous, hidden)).toBe(false);
    expect(await canViewSubmission(users.rival.viewer, hidden)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, hidden)).toBe(true);
  });

  it("a withdrawn public run: its team and the organizers only", async () => {
    const withdrawn = { ...(await facts(publicInPublicPhase)), withdrawnAt: new Date() };
    expect(await canViewSubmission(users.rival.viewer, withdrawn)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, withdrawn)).toBe(true);
    expect(await canViewSubmission(viewers.participant, withdrawn)).toBe(false);
    expect(await canViewSubmission(viewers.anonymous, withdrawn)).toBe(false);
  });

  it("a hidden run: its team and the organizers only", async () => {
    const hidden = { ...(await facts(publicInPublicPhase)), hiddenAt: new Date() };
    expect(await canViewSubmission(users.rival.viewer, hidden)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, hidden)).toBe(true);
    expect(await canViewSubmission(viewers.participant, hidden)).toBe(false);
    expect(await canViewSubmission(viewers.anonymous, hidden)).toBe(false);
  });

  it("a run made at or after the phase's freeze: its team and the organizers only; one made before: everyone", async () => {
    const f = await facts(publicInPublicPhase);
    const frozen = (frozenAt: Date) => ({ ...f, phase: { ...f.phase, leaderboardTiming: "frozen", frozenAt } });
    const after = frozen(f.createdAt);
    expect(await canViewSubmission(viewers.anonymous, after)).toBe(false);
    expect(await canViewSubmission(viewers.participant, after)).toBe(false);
    expect(await canViewSubmission(users.rival.viewer, after)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, after)).toBe(true);
    const before = frozen(new Date(f.createdAt.getTime() + 1));
    expect(await canViewSubmission(viewers.anonymous, before)).toBe(true);
  });

  it("a phase hidden until it closes: before the close its runs are its team's and the organizers', baselines everyone's; after it, everyone's", async () => {
    const f = await facts(publicInPublicPhase);
    const now = new Date();
    const phase = (closesAt: Date) => ({ ...f.phase, leaderboardTiming: "after_close", closesAt });
    const open = { ...f, phase: phase(new Date(now.getTime() + 60_000)) };
    expect(await canViewSubmission(viewers.anonymous, open)).toBe(false);
    expect(await canViewSubmission(viewers.participant, open)).toBe(false);
    expect(await canViewSubmission(users.rival.viewer, open)).toBe(true);
    expect(await canViewSubmission(viewers.organizer, open)).toBe(true);
    expect(await canViewSubmission(viewers.anonymous, { ...open, isBaseline: true })).toBe(true);
    const closed = { ...f, phase: phase(new Date(now.getTime() - 60_000)) };
    expect(await canViewSubmission(viewers.anonymous, closed)).toBe(true);
  });

  it("a draft task: its runs and boards are its organizers' only, even for the run's own team", async () => {
    const db = testDb.prisma;
    const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [users.organizer.id], status: "DRAFT" });
    const run = await insertSubmission(db, { phaseId: phase.id, teamId: ids.participantTeam, submitterId: users.participant.id });
    const s = await db.submission.findUniqueOrThrow({ where: { id: run.id }, include: { phase: true } });
    const f = { teamId: s.teamId, visibility: s.visibility, withdrawnAt: s.withdrawnAt, hiddenAt: s.hiddenAt, createdAt: s.createdAt, isBaseline: s.isBaseline, phase: s.phase };
    for (const who of ["anonymous", "bystander", "participant"] as const) {
      expect(await canViewSubmission(viewers[who], f), who).toBe(false);
      expect(await canViewLeaderboard(viewers[who], phase), who).toBe(false);
    }
    for (const who of ["organizer", "admin"] as const) {
      expect(await canViewSubmission(viewers[who], f), who).toBe(true);
      expect(await canViewLeaderboard(viewers[who], phase), who).toBe(true);
    }
    await db.task.update({ where: { id: task.id }, data: { status: "PUBLISHED" } });
    expect(await canViewSubmission(viewers.anonymous, f)).toBe(true);
  });

  it("getSubmissionForViewer answers 404 for other teams' private runs and hidden phases, the same as for unknown ids", async () => {
    for (const [id, viewer] of [
      [privateOwn, users.rival.viewer],
      [privateOwn, null],
      [publicInOrganizersPhase, viewers.participant],
      ["00000000-0000-0000-0000-000000000000", viewers.admin],
      ["nonsense", viewers.admin],
    ] as const) {
      const error = await rejection(getSubmissionForViewer(id, viewer));
      expect(error.httpStatus).toBe(404);
      expect(error.message).toBe("No such submission.");
    }
    expect((await getSubmissionForViewer(privateOwn, users.teammate.viewer)).id).toBe(privateOwn);
  });
});

describe("getSubmissionForViewer contents", () => {
  const GOLD_MARKER = "Zanzibarquux";
  let submissionId: string;
  let goldSha: string;

  beforeAll(async () => {
    const db = testDb.prisma;
    const gold = packFile(bytes(SMALL_KEY.replace("John", GOLD_MARKER)));
    goldSha = gold.sha256;
    const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: ids.publicPhase } });
    await db.goldKey.create({
      data: { phaseId: ids.publicPhase, datasetId: dataset.id, version: 1, fileName: "secret-gold.conll", ...gold, documentCount: 2, stats: { documents: 2 }, uploadedById: users.organizer.id, active: true },
    });
    const s = await insertSubmission(db, { phaseId: ids.publicPhase, teamId: ids.otherTeam, submitterId: users.rival.id, systemName: "rival-sys" });
    submissionId = s.id;
    await insertScores(db, s.id, ids.publicPhase, { conll: 0.5, muc: [1, 3, 1, 2] });
    await db.documentScore.create({ data: { submissionId: s.id, datasetId: dataset.id, document: "doc1/part 0", metric: "muc", recallNum: 1, recallDen: 3, precisionNum: 1, precisionDen: 2 } });
  });

  it("shows scores in the CLI shape and never gold content or gold metadata, to anyone", async () => {
    for (const viewer of [null, viewers.participant, users.rival.viewer, viewers.organizer, viewers.admin]) {
      const view = await getSubmissionForViewer(submissionId, viewer);
      const json = JSON.stringify(view);
      expect(json).not.toContain(GOLD_MARKER);
      expect(json).not.toContain(goldSha);
      expect(json).not.toContain("secret-gold");
      expect(view.scores?.muc).toMatchObject({ recall_num: 1, recall_den: 3, precision_num: 1, precision_den: 2 });
      expect(view.scores?.conll).toEqual({ f1: 0.5 });
      expect(view.goldVersion).toBe(1);
    }
  });

  it("shows file, submitter and error only to the team and organizers", async () => {
    const outsider = await getSubmissionForViewer(submissionId, null);
    expect(outsider.file).toBeUndefined();
    expect(outsider.submitter).toBeUndefined();
    expect(outsider.error).toBeUndefined();
    expect(outsider.viewerIsTeamMember).toBe(false);
    const own = await getSubmissionForViewer(submissionId, users.rival.viewer);
    expect(own.file?.name).toBe("response.conll");
    expect(own.submitter?.name).toBe("Rita Rival");
    expect(own.viewerIsTeamMember).toBe(true);
    expect(own.viewerIsOrganizer).toBe(false);
  });

  it("per-document scores: the team and organizers; others per the phase's participant analysis (NONE, TEAMS, PUBLIC)", async () => {
    const perDocument = async (viewer: Viewer) => (await getSubmissionForViewer(submissionId, viewer)).perDocument?.length ?? 0;
    const setLevel = (participantAnalysis: "NONE" | "TEAMS" | "PUBLIC") =>
      testDb.prisma.phase.update({ where: { id: ids.publicPhase }, data: { participantAnalysis } });
    expect((await getSubmissionForViewer(submissionId, viewers.organizer)).perDocument?.[0]).toMatchObject({ document: "doc1/part 0", metrics: { muc: { recall_num: 1 } } });
    const table: Record<"NONE" | "TEAMS" | "PUBLIC", [Viewer, number][]> = {
      NONE: [[users.rival.viewer, 1], [viewers.organizer, 1], [viewers.participant, 0], [viewers.bystander, 0], [null, 0]],
      TEAMS: [[users.rival.viewer, 1], [viewers.organizer, 1], [viewers.participant, 1], [viewers.bystander, 0], [null, 0]],
      PUBLIC: [[users.rival.viewer, 1], [viewers.organizer, 1], [viewers.participant, 1], [viewers.bystander, 1], [null, 1]],
    };
    try {
      for (const level of ["NONE", "TEAMS", "PUBLIC"] as const) {
        await setLevel(level);
        for (const [viewer, count] of table[level]) expect([level, viewer?.userId ?? "anonymous", await perDocument(viewer)]).toEqual([level, viewer?.userId ?? "anonymous", count]);
      }
      expect((await getSubmissionForViewer(submissionId, users.rival.viewer)).perDocumentWithheld).toBe(false);
    } finally {
      await setLevel("NONE");
    }
  });

  it("hidden phase: the team sees corpus-level scores only unless teamDocumentScores is on; organizers always see per-document scores", async () => {
    const db = testDb.prisma;
    const s = await insertSubmission(db, { phaseId: ids.organizersPhase, teamId: ids.otherTeam, submitterId: users.rival.id, systemName: "hidden-sys" });
    await insertScores(db, s.id, ids.organizersPhase, { conll: 0.5, muc: [1, 3, 1, 2] });
    const hiddenDataset = await db.dataset.findFirstOrThrow({ where: { phaseId: ids.organizersPhase } });
    await db.documentScore.create({ data: { submissionId: s.id, datasetId: hiddenDataset.id, document: "doc1/part 0", metric: "muc", recallNum: 1, recallDen: 3, precisionNum: 1, precisionDen: 2 } });
    const setPhase = (data: { teamDocumentScores?: boolean; participantAnalysis?: "NONE" | "TEAMS" }) => db.phase.update({ where: { id: ids.organizersPhase }, data });
    try {
      const own = await getSubmissionForViewer(s.id, users.rival.viewer);
      expect(own.scores?.muc).toMatchObject({ recall_num: 1, recall_den: 3 });
      expect(own.perDocument).toBeNull();
      expect(own.perDocumentWithheld).toBe(true);
      expect(JSON.stringify(own)).not.toContain("doc1");
      for (const viewer of [viewers.organizer, viewers.admin]) {
        const view = await getSubmissionForViewer(s.id, viewer);
        expect(view.perDocument).toHaveLength(1);
        expect(view.perDocumentWithheld).toBe(false);
      }
      expect((await rejection(getSubmissionForViewer(s.id, viewers.participant))).httpStatus).toBe(404);

      await setPhase({ teamDocumentScores: true });
      const on = await getSubmissionForViewer(s.id, users.rival.viewer);
      expect(on.perDocument?.[0]).toMatchObject({ document: "doc1/part 0" });
      expect(on.perDocumentWithheld).toBe(false);

      // Participant analysis, where allowed, shows the team more than per-document scores: they come with it.
      await setPhase({ teamDocumentScores: false, participantAnalysis: "TEAMS" });
      expect((await getSubmissionForViewer(s.id, users.rival.viewer)).perDocument).toHaveLength(1);
    } finally {
      await setPhase({ teamDocumentScores: false, participantAnalysis: "NONE" });
    }
  });
});

describe("getLeaderboard from stored rows", () => {
  it("ranks SCORED public runs per the selection rule, flags baselines, leaves out private and unscored runs", async () => {
    const db = testDb.prisma;
    const org = await makeUser(db, "Org");
    const { phase } = await makeTaskWithPhase(db, { organizerIds: [org.id], phase: { selectionRule: "BEST" } });
    const u1 = await makeUser(db, "U1");
    const u2 = await makeUser(db, "U2");
    const t1 = await makeTeam(db, "Alpha", [u1.id]);
    const t2 = await makeTeam(db, "Beta", [u2.id]);
    const tOrg = await makeTeam(db, "Organizers", [org.id]);
    const at = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m));
    const add = async (teamId: string, submitterId: string, minute: number, conll: number, extra: Partial<SubmissionFields> = {}) => {
      const s = await insertSubmission(db, { phaseId: phase.id, teamId, submitterId, createdAt: at(minute), systemName: `run-${minute}`, ...extra });
      await insertScores(db, s.id, phase.id, { conll, muc: [minute, 100, minute, 100] });
      return s.id;
    };
    const a1 = await add(t1.id, u1.id, 1, 0.7);
    const a2 = await add(t1.id, u1.id, 2, 0.6);
    const b1 = await add(t2.id, u2.id, 3, 0.7);
    await add(t2.id, u2.id, 4, 0.99, { visibility: "PRIVATE" });
    await add(t2.id, u2.id, 5, 0.98, { status: "QUEUED" });
    const base = await add(tOrg.id, org.id, 0, 0.65, { isBaseline: true });

    const board = await getLeaderboard(phase.id, null);
    expect(board.metric).toBe("conll");
    expect(board.rows.map((r) => [r.rank, r.submissionId, r.isBaseline])).toEqual([
      [1, a1, false],
      [1, b1, false],
      [null, base, true],
    ]);
    expect(board.rows[0].team.name).toMatch(/^Alpha/);
    expect(board.rows[0].scores.muc).toMatchObject({ recall_num: 1, recall_den: 100 });
    expect(board.tiePolicy).toMatch(/share a rank/);

    const byMuc = await getLeaderboard(phase.id, null, { metric: "muc", allRuns: "1" });
    expect(byMuc.rows.map((r) => r.submissionId)).toEqual([b1, a2, a1, base]);
    expect(byMuc.rows.map((r) => r.rank)).toEqual([1, 2, 3, null]);

    await db.phase.update({ where: { id: phase.id }, data: { selectionRule: "LATEST" } });
    expect((await getLeaderboard(phase.id, null)).rows.map((r) => r.submissionId)).toEqual([b1, base, a2]);

    const csvLines = leaderboardCsv(board).trim().split("\r\n");
    expect(csvLines).toHaveLength(4);
    expect(csvLines[1]).toContain(a1);

    expect((await rejection(getLeaderboard(phase.id, null, { metric: "accuracy" }))).httpStatus).toBe(422);
  });
});
