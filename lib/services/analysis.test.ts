/**
 * A run's analyses (getRunAnalysis, getDocumentAnalysis) against a real database, with runs
 * scored by the worker's own code (`scoreSubmission`): who sees the error analysis, and
 * that what the worker stores equals what the scoring functions compute.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { NotFoundError } from "../errors";
import type { Viewer } from "../permissions";
import { stopBoss } from "../queue";
import { scoringConfig, type ScoringConfig } from "../worker/config";
import { analysisRow, scoreSubmission } from "../worker/scoring-job";
import { BROKEN, KEY, RESPONSE, addGold, createSubmission, type PhaseFixture } from "../worker/scoring-job.fixtures";
import { packFile } from "../storage";
import { analyzeDocumentErrors, analyzeRun, disclosureTable, ENGLISH_PRONOUNS, ERROR_KINDS } from "../../scoring/analysis/index";
import { readCorpus } from "../../scoring/formats/index";
import { getDocumentAnalysis, getRunAnalysis } from "./analysis";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, type PhaseOverrides } from "./test-fixtures";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG: ScoringConfig = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };

/** The analyses of RESPONSE against KEY as the scoring functions compute them. */
function expectedAnalysis(removeSingletons = false) {
  return analyzeRun(readCorpus(KEY, "key.conll"), readCorpus(RESPONSE, "system.conll"), { removeSingletons, lexicon: ENGLISH_PRONOUNS });
}

/**
 * A task (organizer), a phase with gold KEY, a team (member) with a scored run of RESPONSE,
 * a participant (member of another team with a run in the task), and an outsider (signed
 * in, in no team of the task).
 */
async function scoredRun(phase: PhaseOverrides = {}, options: { visibility?: "PUBLIC" | "PRIVATE"; keepSingletons?: boolean } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const member = await makeUser(db, "Member");
  const outsider = await makeUser(db, "Outsider");
  const team = await makeTeam(db, "Runners", [member.id]);
  const { task, phase: row } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase });
  if (options.keepSingletons !== undefined) await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "custom", keepSingletons: options.keepSingletons } });
  const f: PhaseFixture = { userId: member.id, teamId: team.id, taskId: task.id, phaseId: row.id };
  await addGold(db, f, 1, KEY);
  const id = await createSubmission(db, f, RESPONSE);
  if (options.visibility) await db.submission.update({ where: { id }, data: { visibility: options.visibility } });
  expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
  const participant = await makeUser(db, "Participant");
  const rivals = await makeTeam(db, "Rivals", [participant.id]);
  await insertSubmission(db, { phaseId: row.id, teamId: rivals.id, submitterId: participant.id, status: "QUEUED" });
  return {
    id,
    f,
    task,
    phase: row,
    organizer: organizer.viewer as Viewer,
    member: member.viewer as Viewer,
    participant: participant.viewer as Viewer,
    outsider: outsider.viewer as Viewer,
  };
}

describe("the worker's RunAnalysis row", () => {
  it("holds exactly what analyzeRun computes on the same files; getRunAnalysis shows it to the organizers", async () => {
    const run = await scoredRun();
    const expected = expectedAnalysis();
    const row = await testDb.prisma.runAnalysis.findUniqueOrThrow({ where: { submissionId: run.id } });
    expect(row.errorCounts).toEqual(expected.errors.totals);
    expect(row.documentErrors).toEqual(expected.errors.perDocument.map((d) => ({ document: d.id, counts: d.counts })));
    expect(row.pronounDisclosure).toEqual(JSON.parse(JSON.stringify(expected.disclosure)));
    expect({ errorCounts: row.errorCounts, documentErrors: row.documentErrors, pronounDisclosure: row.pronounDisclosure }).toEqual(analysisRow(expected));
    // The fixture has errors of several kinds and pronouns to disclose, so the check means something.
    expect(Object.values(expected.errors.totals).reduce((a, b) => a + b, 0)).toBeGreaterThan(2);
    expect(expected.disclosure.total.raw).toBeGreaterThan(0);

    const view = await getRunAnalysis(run.organizer, run.id);
    expect(view).toMatchObject({ submissionId: run.id, available: true, canViewErrors: true });
    expect(view.errorTotals).toEqual(expected.errors.totals);
    expect(Object.keys(view.errorTotals!)).toEqual([...ERROR_KINDS]);
    expect(view.documents).toEqual(expected.errors.perDocument.map((d) => ({ document: d.id, counts: d.counts })));
    expect(view.disclosure).toEqual({ ...disclosureTable(expected.disclosure, []), language: "en", excludedCategories: [] });
  });

  it("follows the task's custom profile with keepSingletons = false (singletons dropped from the error analysis and the document view)", async () => {
    const run = await scoredRun({}, { keepSingletons: false });
    const expected = expectedAnalysis(true);
    expect(expected.errors.totals).not.toEqual(expectedAnalysis(false).errors.totals);
    const view = await getRunAnalysis(run.organizer, run.id);
    expect(view.errorTotals).toEqual(expected.errors.totals);
    const doc = await getDocumentAnalysis(run.organizer, run.id, view.documents![1].document);
    expect(doc.key.every((e) => e.length > 1)).toBe(true);
    expect(doc.response.every((e) => e.length > 1)).toBe(true);
    expect(doc.counts).toEqual(view.documents![1].counts);
  });

  it("a re-score that ends FAILED deletes the row: the run then has no analysis", async () => {
    const run = await scoredRun();
    expect(await testDb.prisma.runAnalysis.count({ where: { submissionId: run.id } })).toBe(1);
    // The team's file replaced by one that does not parse, then re-queued (as a new gold key would).
    const broken = packFile(Buffer.from(BROKEN));
    await testDb.prisma.submission.update({
      where: { id: run.id },
      data: { status: "QUEUED", gzip: broken.gzip, sha256: broken.sha256, size: broken.size },
    });
    expect(await scoreSubmission(run.id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "validation" });
    expect(await testDb.prisma.runAnalysis.count({ where: { submissionId: run.id } })).toBe(0);
    expect(await getRunAnalysis(run.organizer, run.id)).toEqual({
      submissionId: run.id,
      available: false,
      canViewErrors: true,
      participantAnalysis: "NONE",
      errorTotals: null,
      documents: null,
      disclosure: null,
    });
    expect(await rejection(getDocumentAnalysis(run.organizer, run.id, "alpha/part 0"))).toBeInstanceOf(NotFoundError);
  });

  it("a run not yet scored has no analysis (available: false)", async () => {
    const run = await scoredRun();
    await testDb.prisma.submission.update({ where: { id: run.id }, data: { status: "QUEUED" } });
    expect(await getRunAnalysis(run.organizer, run.id)).toMatchObject({ available: false, errorTotals: null, documents: null, disclosure: null });
  });
});

describe("who sees the error analysis", () => {
  type Run = Awaited<ReturnType<typeof scoredRun>>;
  type Who = "anonymous" | "outsider" | "participant" | "member" | "organizer";
  const viewerOf = (run: Run, who: Who): Viewer => (who === "anonymous" ? null : run[who]);

  /** Whether `who` gets the error counts and a document view of the run (the two must agree). */
  async function seesErrors(run: Run, who: Who): Promise<boolean> {
    const viewer = viewerOf(run, who);
    const view = await getRunAnalysis(viewer, run.id);
    expect(view.available).toBe(true);
    // The disclosure is corpus-level: whoever sees the run sees it.
    expect(view.disclosure?.columns).toEqual(["he", "her", "it", "Total"]);
    if (!view.canViewErrors) {
      expect(view).toMatchObject({ errorTotals: null, documents: null });
      const error = await rejection(getDocumentAnalysis(viewer, run.id, "beta/part 0"));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.httpStatus).toBe(404);
      return false;
    }
    const expected = expectedAnalysis();
    expect(view.errorTotals).toEqual(expected.errors.totals);
    expect(view.documents?.map((d) => d.document)).toEqual(["alpha/part 0", "beta/part 0"]);
    const doc = await getDocumentAnalysis(viewer, run.id, "beta/part 0");
    expect(doc.counts).toEqual(expected.errors.perDocument[1].counts);
    return true;
  }

  const everyone: Who[] = ["anonymous", "outsider", "participant", "member", "organizer"];
  const cases: [level: "NONE" | "TEAMS" | "PUBLIC", allowed: Who[]][] = [
    ["NONE", ["organizer"]],
    ["TEAMS", ["participant", "member", "organizer"]],
    ["PUBLIC", everyone],
  ];
  for (const [level, allowed] of cases) {
    it(`participantAnalysis ${level} (public run, public board): ${allowed.join(", ")} see the errors; the others only the disclosure`, async () => {
      const run = await scoredRun({ participantAnalysis: level });
      for (const who of everyone) expect([who, await seesErrors(run, who)]).toEqual([who, allowed.includes(who)]);
    });
  }

  it("TEAMS: a team with only a baseline in the task makes no one a participant; any stored run of the team does, even a FAILED one", async () => {
    const run = await scoredRun({ participantAnalysis: "TEAMS" });
    const db = testDb.prisma;
    const helper = await makeUser(db, "Baseline Helper");
    const helpers = await makeTeam(db, "Helpers", [helper.id]);
    await insertSubmission(db, { phaseId: run.phase.id, teamId: helpers.id, submitterId: helper.id, isBaseline: true });
    expect((await getRunAnalysis(helper.viewer, run.id)).canViewErrors).toBe(false);
    await insertSubmission(db, { phaseId: run.phase.id, teamId: helpers.id, submitterId: helper.id, status: "FAILED", errorStage: "validation" });
    expect((await getRunAnalysis(helper.viewer, run.id)).canViewErrors).toBe(true);
  });

  it("a private run stays hidden from outsiders and participants even where the phase's analysis is PUBLIC", async () => {
    const run = await scoredRun({ participantAnalysis: "PUBLIC" }, { visibility: "PRIVATE" });
    for (const viewer of [run.outsider, run.participant, null]) {
      expect(await rejection(getRunAnalysis(viewer, run.id))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getDocumentAnalysis(viewer, run.id, "alpha/part 0"))).toBeInstanceOf(NotFoundError);
    }
    expect((await getRunAnalysis(run.member, run.id)).canViewErrors).toBe(true);
  });

  it("an ORGANIZERS-only board: everyone outside the team and the organizers gets 404 from both functions, whatever the level", async () => {
    const run = await scoredRun({ leaderboardVisibility: "ORGANIZERS", participantAnalysis: "PUBLIC" });
    for (const viewer of [null, run.outsider, run.participant]) {
      const a = await rejection(getRunAnalysis(viewer, run.id));
      expect(a).toBeInstanceOf(NotFoundError);
      const b = await rejection(getDocumentAnalysis(viewer, run.id, "alpha/part 0"));
      expect(b).toBeInstanceOf(NotFoundError);
    }
    expect((await getRunAnalysis(run.organizer, run.id)).canViewErrors).toBe(true);
    expect((await getRunAnalysis(run.member, run.id)).canViewErrors).toBe(true);
  });

  it("unknown and malformed ids and unknown documents are 404", async () => {
    const run = await scoredRun();
    expect(await rejection(getRunAnalysis(run.organizer, "not-a-uuid"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getRunAnalysis(run.organizer, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getDocumentAnalysis(run.organizer, run.id, "gamma/part 0"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getDocumentAnalysis(run.organizer, "not-a-uuid", "alpha/part 0"))).toBeInstanceOf(NotFoundError);
  });
});

describe("getDocumentAnalysis", () => {
  it("gives the document's tokens, key and response entities, the errors as analyzeDocumentErrors finds them, its scores and the document list", async () => {
    const run = await scoredRun();
    const key = readCorpus(KEY, "key.conll");
    const response = readCorpus(RESPONSE, "system.conll");
    for (const [i, keyDoc] of key.documents.entries()) {
      const view = await getDocumentAnalysis(run.organizer, run.id, keyDoc.id);
      const expected = analyzeDocumentErrors(keyDoc.entities, response.documents[i].entities);
      expect(view.document).toEqual({ id: keyDoc.id, tokens: keyDoc.tokens, sentenceStarts: keyDoc.sentenceStarts });
      expect(view.key).toEqual(keyDoc.entities);
      expect(view.response).toEqual(response.documents[i].entities);
      expect(view.missingInResponse).toBe(false);
      expect(view.counts).toEqual(expected.counts);
      expect(view.errors).toEqual(expected.errors);
      expect(view.documentIds).toEqual(["alpha/part 0", "beta/part 0"]);
      expect(view.scores?.muc).toBeDefined();
      expect(view.scores?.conll?.f1).toEqual(expect.any(Number));
      // Exactly these fields: nothing else of the task (its settings) reaches the view.
      expect(view.submission.task).toEqual({ slug: run.task.slug, title: run.task.title });
      expect(view.submission).toMatchObject({
        id: run.id,
        systemName: "test system",
        team: { id: run.f.teamId },
        phase: { id: run.phase.id, name: run.phase.name },
        goldVersion: 1,
      });
    }
  });

  it("a key document the run lacks: every key entity is missing, marked missingInResponse", async () => {
    const run = await scoredRun();
    const onlyAlpha = RESPONSE.slice(0, RESPONSE.indexOf("#begin document (beta)"));
    const stored = packFile(Buffer.from(onlyAlpha));
    await testDb.prisma.submission.update({ where: { id: run.id }, data: { status: "QUEUED", gzip: stored.gzip, sha256: stored.sha256, size: stored.size } });
    expect(await scoreSubmission(run.id, WORKER)).toMatchObject({ status: "SCORED" });
    const view = await getDocumentAnalysis(run.organizer, run.id, "beta/part 0");
    expect(view.missingInResponse).toBe(true);
    expect(view.response).toEqual([]);
    expect(view.counts["missing-entity"]).toBe(view.key.length);
    const run2 = await getRunAnalysis(run.organizer, run.id);
    expect(run2.documents![1]).toEqual({ document: "beta/part 0", counts: view.counts });
  });
});
