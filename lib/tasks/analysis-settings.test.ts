/**
 * A task's analysis settings (getTaskAnalysisSettings, updateTaskAnalysisSettings) against a
 * real database: who may change them, how a bad pronoun list is reported, which changes
 * re-queue the task's submissions, and what re-scoring then computes (`scoreSubmission`).
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ForbiddenError, UnauthorizedError, ValidationError } from "../errors";
import type { Viewer } from "../permissions";
import { stopBoss } from "../queue";
import { scoringConfig, type ScoringConfig } from "../scoring-config";
import { scoreSubmission } from "../worker/scoring-job";
import { KEY, RESPONSE, addGold, createSubmission, type PhaseFixture } from "../worker/scoring-job.fixtures";
import { ENGLISH_PRONOUN_CATEGORIES, ENGLISH_PRONOUNS, formatPronounLexicon } from "../../scoring/analysis";
import { getRunAnalysis } from "../runs/analysis";
import { getTaskAnalysisSettings, pronounFormOrder, updateTaskAnalysisSettings } from "./analysis-settings";
import { makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";
import { defaultDatasetData } from "./datasets";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG: ScoringConfig = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };

const ENGLISH_TEXT = formatPronounLexicon(ENGLISH_PRONOUNS);

/** A Dutch-style list whose forms include English "he"/"it" tokens of the fixture (as test data). */
const CUSTOM_LIST = ["# a small list", "@language xx", "he: third-person, masculine", "it: third-person, neuter", "zij: third-person, feminine", ""].join("\n");

/** The default settings: the English lexicon, no exclusions, no mapped cluster F. */
const DEFAULT_INPUT = { pronounLexicon: null, pronounExclusions: [], mappedClusterF: false };

/**
 * A task with an organizer and two phases (gold KEY in both), a team with two scored runs in
 * the first phase and one in the second; and another task with a scored run of its own.
 */
async function taskWithRuns() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const member = await makeUser(db, "Member");
  const team = await makeTeam(db, "Scorers", [member.id]);
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const second = await db.phase.create({
    data: {
      taskId: task.id,
      name: "dev",
      opensAt: new Date(Date.now() - 86_400_000),
      closesAt: new Date(Date.now() + 86_400_000),
      datasets: { create: defaultDatasetData("conll2012") },
    },
  });
  const f1: PhaseFixture = { userId: member.id, teamId: team.id, taskId: task.id, phaseId: phase.id };
  const f2: PhaseFixture = { ...f1, phaseId: second.id };
  await addGold(db, f1, 1, KEY);
  await addGold(db, f2, 1, KEY);
  const ids = [await createSubmission(db, f1, RESPONSE), await createSubmission(db, f1, KEY), await createSubmission(db, f2, RESPONSE)];
  for (const id of ids) expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });

  const other = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const fo: PhaseFixture = { ...f1, taskId: other.task.id, phaseId: other.phase.id };
  await addGold(db, fo, 1, KEY);
  const otherId = await createSubmission(db, fo, RESPONSE);
  expect(await scoreSubmission(otherId, WORKER)).toMatchObject({ status: "SCORED" });

  return { task, ids, otherId, organizer: organizer.viewer as Viewer, member: member.viewer as Viewer };
}

async function statuses(ids: string[]) {
  const rows = await testDb.prisma.submission.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, attempts: true } });
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

/** Scores every QUEUED submission of the list again. */
async function rescore(ids: string[]) {
  for (const id of ids) expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
}

async function auditEvents(taskId: string) {
  return testDb.prisma.auditEvent.findMany({ where: { action: "task.analysis.update", targetId: taskId }, orderBy: { at: "asc" } });
}

describe("getTaskAnalysisSettings", () => {
  it("organizers and site admins read the settings; a new task uses the English lexicon, excludes nothing and has no mapped F", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const admin = await makeUser(db, "Admin", "ADMIN");
    const { task } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    for (const viewer of [organizer.viewer, admin.viewer]) {
      const settings = await getTaskAnalysisSettings(viewer, task.id);
      expect(settings).toMatchObject({ englishLexicon: true, lexiconText: ENGLISH_TEXT, excludedCategories: [], mappedClusterF: false });
      expect(settings.lexicon).toEqual(ENGLISH_PRONOUNS);
      expect(new Set(settings.categories)).toEqual(new Set(ENGLISH_PRONOUN_CATEGORIES));
      expect(settings.categories).toContain("first-person");
      expect(settings.categories).toContain("second-person");
    }
  });

  it("others get 403, anonymous viewers 401", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const participant = await makeUser(db, "Participant");
    const { task } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    expect(await rejection(getTaskAnalysisSettings(participant.viewer, task.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(getTaskAnalysisSettings(null, task.id))).toBeInstanceOf(UnauthorizedError);
  });
});

describe("updateTaskAnalysisSettings", () => {
  it("organizers only: the run's team gets 403 and anonymous viewers 401; nothing changes, nothing is re-queued", async () => {
    const t = await taskWithRuns();
    const input = { pronounLexicon: CUSTOM_LIST, pronounExclusions: [], mappedClusterF: true };
    expect(await rejection(updateTaskAnalysisSettings(t.member, t.task.id, input))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(updateTaskAnalysisSettings(null, t.task.id, input))).toBeInstanceOf(UnauthorizedError);
    const stored = await testDb.prisma.task.findUniqueOrThrow({ where: { id: t.task.id } });
    expect(stored).toMatchObject({ pronounLexicon: null, pronounExclusions: [], mappedClusterF: false });
    expect((await statuses(t.ids)).map((s) => s.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
    expect(await auditEvents(t.task.id)).toEqual([]);
  });

  it("a pronoun list that does not parse: 422 whose format error names the line and column; nothing saved or re-queued", async () => {
    const t = await taskWithRuns();
    const bad = ["@language nl", "hij: third-person, singular", "zij third-person", ""].join("\n");
    const error = await rejection(updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounLexicon: bad }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    const v = error as ValidationError;
    expect(v.formatErrors).toHaveLength(1);
    expect(v.formatErrors[0]).toMatchObject({ file: "pronoun list", line: 3, column: expect.any(Number), expected: expect.any(String), found: expect.any(String) });
    expect(v.formatErrors[0].message).toMatch(/^pronoun list:3:\d+: expected /);
    expect(v.message).toMatch(/^The pronoun list could not be read: pronoun list:3:/);
    expect(v.fieldErrors.map((e) => e.path)).toEqual(["pronounLexicon"]);
    // A second '@language' is refused at its own line.
    const twice = await rejection(updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounLexicon: "@language nl\n@language de\nhij: x\n" }));
    expect((twice as ValidationError).formatErrors[0].line).toBe(2);

    expect(await testDb.prisma.task.findUniqueOrThrow({ where: { id: t.task.id } })).toMatchObject({ pronounLexicon: null });
    expect((await statuses(t.ids)).map((s) => s.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
    expect(await auditEvents(t.task.id)).toEqual([]);
  });

  it("an exclusion that is not a category of the list is refused (field pronounExclusions); malformed input is 422", async () => {
    const t = await taskWithRuns();
    const error = await rejection(updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounExclusions: ["first-person", "fourth-person"] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual([{ path: "pronounExclusions", message: expect.stringContaining("fourth-person") }]);
    // Only the unknown one is named as the problem; the message lists the categories there are.
    expect(error.message).toMatch(/^Not a category of the pronoun list: fourth-person\. Categories: .*first-person/);
    // A category of the English lexicon is not one of a custom list that lacks it.
    const custom = await rejection(updateTaskAnalysisSettings(t.organizer, t.task.id, { pronounLexicon: CUSTOM_LIST, pronounExclusions: ["first-person"], mappedClusterF: false }));
    expect((custom as ValidationError).fieldErrors[0].path).toBe("pronounExclusions");
    for (const input of [{ ...DEFAULT_INPUT, mappedClusterF: "yes" }, { ...DEFAULT_INPUT, extra: 1 }, { pronounExclusions: [] }, null]) {
      expect(await rejection(updateTaskAnalysisSettings(t.organizer, t.task.id, input))).toBeInstanceOf(ValidationError);
    }
    expect((await statuses(t.ids)).map((s) => s.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
  });

  it("changing the lexicon re-queues every submission of the task (all phases, attempts reset), none of other tasks; audited", async () => {
    const t = await taskWithRuns();
    const { settings, requeued } = await updateTaskAnalysisSettings(t.organizer, t.task.id, { pronounLexicon: CUSTOM_LIST, pronounExclusions: ["masculine"], mappedClusterF: false });
    expect(requeued).toBe(3);
    expect(settings).toMatchObject({ englishLexicon: false, lexiconText: CUSTOM_LIST, categories: ["third-person", "masculine", "neuter", "feminine"], excludedCategories: ["masculine"], mappedClusterF: false });
    expect(settings.lexicon).toEqual({
      language: "xx",
      types: [
        { form: "he", categories: ["third-person", "masculine"] },
        { form: "it", categories: ["third-person", "neuter"] },
        { form: "zij", categories: ["third-person", "feminine"] },
      ],
    });
    expect(await statuses(t.ids)).toEqual(t.ids.map((id) => ({ id, status: "QUEUED", attempts: 0 })));
    expect((await statuses([t.otherId]))[0].status).toBe("SCORED");
    expect(await getTaskAnalysisSettings(t.organizer, t.task.id)).toEqual(settings);

    const events = await auditEvents(t.task.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ targetType: "task", actorId: (t.organizer as NonNullable<Viewer>).userId });
    expect(events[0].data).toMatchObject({ englishLexicon: false, lexiconTypes: 3, excludedCategories: ["masculine"], mappedClusterF: false, requeued: 3 });

    // Re-scored, the disclosure counts the task's list, with its exclusion applied when shown.
    await rescore(t.ids);
    const view = await getRunAnalysis(t.organizer, t.ids[0]);
    expect(view.disclosure).toMatchObject({ language: "xx", excludedCategories: ["masculine"], columns: ["he", "it", "Total"] });
    expect(view.disclosure!.rows.map((r) => r.id)).toContain("exclusion:masculine");
    expect(view.disclosure!.rows.find((r) => r.id === "excluded")!.values).toEqual([1, 0, 1]);

    // Back to English: re-queued again.
    const back = await updateTaskAnalysisSettings(t.organizer, t.task.id, DEFAULT_INPUT);
    expect(back.requeued).toBe(3);
    expect(back.settings.englishLexicon).toBe(true);
    expect(await testDb.prisma.task.findUniqueOrThrow({ where: { id: t.task.id } })).toMatchObject({ pronounLexicon: null, pronounExclusions: [] });
    expect(await auditEvents(t.task.id)).toHaveLength(2);
  });

  it("changing only the exclusions re-queues nothing (they apply when the disclosure is shown); neither does saving unchanged settings", async () => {
    const t = await taskWithRuns();
    const before = await getRunAnalysis(t.organizer, t.ids[0]);
    expect(before.disclosure!.rows.find((r) => r.id === "excluded")!.values.at(-1)).toBe(0);

    const { requeued, settings } = await updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounExclusions: ["first-person", "second-person", "first-person"] });
    expect(requeued).toBe(0);
    expect(settings.excludedCategories).toEqual(["first-person", "second-person"]);
    expect((await statuses(t.ids)).map((s) => s.status)).toEqual(["SCORED", "SCORED", "SCORED"]);

    // The exclusion shows at once on the stored analysis (here: every pronoun of the fixture is third person).
    const excluded = await updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounExclusions: ["third-person"] });
    expect(excluded.requeued).toBe(0);
    const after = await getRunAnalysis(t.member, t.ids[0]);
    expect(after.disclosure!.excludedCategories).toEqual(["third-person"]);
    const total = (id: string) => after.disclosure!.rows.find((r) => r.id === id)!.values.at(-1);
    expect(total("excluded")).toBe(total("referential"));
    expect(total("evaluation")).toBe(0);

    // The English lexicon's own text (even with Windows line ends), or a blank list, is the English lexicon: no change.
    for (const text of [ENGLISH_TEXT.replace(/\n/g, "\r\n"), "   \n", ""]) {
      const same = await updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, pronounLexicon: text, pronounExclusions: ["third-person"] });
      expect(same.requeued).toBe(0);
      expect(same.settings.englishLexicon).toBe(true);
    }
    expect(await testDb.prisma.task.findUniqueOrThrow({ where: { id: t.task.id } })).toMatchObject({ pronounLexicon: null });
    const events = await auditEvents(t.task.id);
    expect(events).toHaveLength(5);
    expect(events.map((e) => (e.data as { requeued: number }).requeued)).toEqual([0, 0, 0, 0, 0]);
  });

  it("mapped cluster F on: everything is re-queued, and re-scoring writes an `mcf` Score row and per-document rows; off again removes them", async () => {
    const t = await taskWithRuns();
    expect(await testDb.prisma.score.count({ where: { submissionId: { in: t.ids }, metric: "mcf" } })).toBe(0);
    const on = await updateTaskAnalysisSettings(t.organizer, t.task.id, { ...DEFAULT_INPUT, mappedClusterF: true });
    expect(on.requeued).toBe(3);
    expect(on.settings.mappedClusterF).toBe(true);
    await rescore(t.ids);
    for (const id of t.ids) {
      const mcf = await testDb.prisma.score.findUniqueOrThrow({ where: { submissionId_variant_metric: { submissionId: id, variant: "", metric: "mcf" } } });
      expect(mcf.f1).toBeGreaterThanOrEqual(0);
      expect(mcf.f1).toBeLessThanOrEqual(1);
      expect(mcf.recallDen).toEqual(expect.any(Number));
      const docs = await testDb.prisma.documentScore.findMany({ where: { submissionId: id, metric: "mcf" } });
      expect(docs.map((d) => d.document).sort()).toEqual(["alpha/part 0", "beta/part 0"]);
    }
    // The key scored against itself is perfect on mapped F as well.
    const perfect = await testDb.prisma.score.findUniqueOrThrow({ where: { submissionId_variant_metric: { submissionId: t.ids[1], variant: "", metric: "mcf" } } });
    expect(perfect.f1).toBe(1);
    // Other tasks are untouched.
    expect(await testDb.prisma.score.count({ where: { submissionId: t.otherId, metric: "mcf" } })).toBe(0);

    const off = await updateTaskAnalysisSettings(t.organizer, t.task.id, DEFAULT_INPUT);
    expect(off.requeued).toBe(3);
    await rescore(t.ids);
    expect(await testDb.prisma.score.count({ where: { submissionId: { in: t.ids }, metric: "mcf" } })).toBe(0);
    expect(await testDb.prisma.documentScore.count({ where: { submissionId: { in: t.ids }, metric: "mcf" } })).toBe(0);
  });
});

describe("pronounFormOrder", () => {
  it("gives the lexicon's forms in order: the English lexicon for none, the task's list, nothing for a stored list that no longer parses", () => {
    expect(pronounFormOrder(null)).toEqual(ENGLISH_PRONOUNS.types.map((t) => t.form));
    expect(pronounFormOrder(CUSTOM_LIST)).toEqual(["he", "it", "zij"]);
    expect(pronounFormOrder("@language nl\n@language de\nhij: x\n")).toEqual([]);
  });
});
