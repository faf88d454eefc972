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
import { scoringConfig, type ScoringConfig } from "../scoring-config";
import { analysisRow, scoreSubmission } from "../worker/scoring-job";
import { BROKEN, KEY, KEY_V2, RESPONSE, addGold, createPhase, createRun, createSubmission, type PhaseFixture } from "../worker/scoring-job.fixtures";
import { packFile } from "../storage";
import { analyzeDocumentErrors, analyzeRun, disclosureTable, ENGLISH_PRONOUNS, ERROR_KINDS } from "../../scoring/analysis";
import { readCorpus } from "../../scoring/formats";
import { getDocumentAnalysis, getRunAnalysis, mergeRunAnalyses, type DatasetAnalysis } from "./analysis";
import type { PronounDisclosure } from "../../scoring/analysis";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, type PhaseOverrides } from "../tasks/test-fixtures";

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
  const { task, phase: row, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase });
  if (options.keepSingletons !== undefined) await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "custom", keepSingletons: options.keepSingletons } });
  const f: PhaseFixture = {
    userId: member.id,
    teamId: team.id,
    taskId: task.id,
    phaseId: row.id,
    datasetId: dataset.id,
    datasets: [{ id: dataset.id, name: dataset.name, fileName: dataset.fileName, format: "conll2012" }],
  };
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
    datasetId: dataset.id,
    task,
    phase: row,
    organizer: organizer.viewer as Viewer,
    member: member.viewer as Viewer,
    participant: participant.viewer as Viewer,
    outsider: outsider.viewer as Viewer,
  };
}

/** Replaces the run's (only) file and re-queues it, as a new gold key would (the stored gold key on the file is cleared, so the worker scores it again). */
async function replaceRunFile(run: { id: string; datasetId: string }, stored: { gzip: Uint8Array<ArrayBuffer>; sha256: string; size: number }) {
  const db = testDb.prisma;
  await db.submissionFile.update({
    where: { submissionId_datasetId: { submissionId: run.id, datasetId: run.datasetId } },
    data: { gzip: stored.gzip, sha256: stored.sha256, size: stored.size, goldKeyId: null },
  });
  await db.submission.update({ where: { id: run.id }, data: { status: "QUEUED" } });
}

describe("the worker's RunAnalysis row", () => {
  it("holds exactly what analyzeRun computes on the same files; getRunAnalysis shows it to the organizers", async () => {
    const run = await scoredRun();
    const expected = expectedAnalysis();
    const row = await testDb.prisma.runAnalysis.findUniqueOrThrow({ where: { submissionId_datasetId: { submissionId: run.id, datasetId: run.datasetId } } });
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
    expect(view.documents).toEqual(expected.errors.perDocument.map((d) => ({ dataset: null, document: d.id, counts: d.counts })));
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
    await replaceRunFile(run, broken);
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
    await replaceRunFile(run, packFile(Buffer.from(onlyAlpha)));
    expect(await scoreSubmission(run.id, WORKER)).toMatchObject({ status: "SCORED" });
    const view = await getDocumentAnalysis(run.organizer, run.id, "beta/part 0");
    expect(view.missingInResponse).toBe(true);
    expect(view.response).toEqual([]);
    expect(view.counts["missing-entity"]).toBe(view.key.length);
    const run2 = await getRunAnalysis(run.organizer, run.id);
    expect(run2.documents![1]).toEqual({ dataset: null, document: "beta/part 0", counts: view.counts });
  });
});

describe("mergeRunAnalyses", () => {
  const counts = (n: number) => Object.fromEntries(ERROR_KINDS.map((k, i) => [k, n * (i + 1)])) as DatasetAnalysis["errorCounts"];
  const column = (form: string, raw: number, nonReferential: number, correct: number) => ({ form, categories: ["third-person"], raw, nonReferential, referential: raw - nonReferential, correct });
  const disclosure = (columns: ReturnType<typeof column>[]): PronounDisclosure => ({
    language: "en",
    columns,
    total: columns.reduce((t, c) => ({ raw: t.raw + c.raw, nonReferential: t.nonReferential + c.nonReferential, referential: t.referential + c.referential, correct: t.correct + c.correct }), {
      raw: 0,
      nonReferential: 0,
      referential: 0,
      correct: 0,
    }),
  });
  const a: DatasetAnalysis = { dataset: "en_a", errorCounts: counts(1), documentErrors: [{ document: "d1", counts: counts(1) }], disclosure: disclosure([column("he", 2, 1, 1)]) };
  const b: DatasetAnalysis = {
    dataset: "cs_b",
    errorCounts: counts(2),
    documentErrors: [
      { document: "d1", counts: counts(2) },
      { document: "d2", counts: counts(0) },
    ],
    disclosure: disclosure([column("it", 1, 0, 0), column("he", 1, 0, 1)]),
  };

  it("sums the error totals and the disclosure counts per form, and lists the documents dataset after dataset", () => {
    const merged = mergeRunAnalyses([a, b], ["he", "it"]);
    expect(merged.errorCounts).toEqual(counts(3));
    expect(merged.documentErrors).toEqual([
      { dataset: "en_a", document: "d1", counts: counts(1) },
      { dataset: "cs_b", document: "d1", counts: counts(2) },
      { dataset: "cs_b", document: "d2", counts: counts(0) },
    ]);
    expect(merged.disclosure).toEqual({
      language: "en",
      columns: [
        { form: "he", categories: ["third-person"], raw: 3, nonReferential: 1, referential: 2, correct: 2 },
        { form: "it", categories: ["third-person"], raw: 1, nonReferential: 0, referential: 1, correct: 0 },
      ],
      total: { raw: 4, nonReferential: 1, referential: 3, correct: 2 },
    });
    // The parts are not changed.
    expect(a.disclosure.columns[0].raw).toBe(2);
  });

  it("orders the columns by the lexicon, forms outside it last in first-seen order; one part is itself; no part is all zero", () => {
    expect(mergeRunAnalyses([a, b], ["it", "he"]).disclosure.columns.map((c) => c.form)).toEqual(["it", "he"]);
    expect(mergeRunAnalyses([b, a]).disclosure.columns.map((c) => c.form)).toEqual(["it", "he"]);
    expect(mergeRunAnalyses([a, b], ["she"]).disclosure.columns.map((c) => c.form)).toEqual(["he", "it"]);
    const single = mergeRunAnalyses([a]);
    expect(single).toEqual({ errorCounts: a.errorCounts, documentErrors: [{ dataset: "en_a", ...a.documentErrors[0] }], disclosure: a.disclosure });
    expect(mergeRunAnalyses([])).toEqual({ errorCounts: counts(0), documentErrors: [], disclosure: { language: "", columns: [], total: { raw: 0, nonReferential: 0, referential: 0, correct: 0 } } });
  });
});

describe("a run on a phase with several datasets", () => {
  /**
   * Three datasets: ds_one (gold KEY, run RESPONSE), ds_two (gold KEY_V2: alpha only, run KEY)
   * and ds_three (gold KEY, left out by the run); scored by the worker; an organizer.
   */
  async function multiRun() {
    const db = testDb.prisma;
    const phase = await createPhase(db, {
      datasets: [
        { name: "ds_one", gold: KEY },
        { name: "ds_two", gold: KEY_V2 },
        { name: "ds_three", gold: KEY },
      ],
    });
    const f = { ...phase, datasets: phase.datasets! };
    const organizer = await makeUser(db, "Organizer");
    await db.taskOrganizer.create({ data: { taskId: f.taskId, userId: organizer.id } });
    const id = await createRun(db, f, [
      { datasetId: f.datasets[0].id, text: RESPONSE },
      { datasetId: f.datasets[1].id, text: KEY },
    ]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    return { id, f, organizer: organizer.viewer as Viewer };
  }
  const analysisOf = (key: string, response: string) => analyzeRun(readCorpus(key, "key.conll"), readCorpus(response, "system.conll"), { removeSingletons: false, lexicon: ENGLISH_PRONOUNS });

  it("getRunAnalysis merges the datasets' rows: totals summed, documents per dataset, the disclosure summed", async () => {
    const { id, organizer } = await multiRun();
    expect(await testDb.prisma.runAnalysis.count({ where: { submissionId: id } })).toBe(2);
    const one = analysisOf(KEY, RESPONSE);
    const two = analysisOf(KEY_V2, KEY);
    const merged = mergeRunAnalyses(
      [
        { dataset: "ds_one", errorCounts: one.errors.totals, documentErrors: one.errors.perDocument.map((d) => ({ document: d.id, counts: d.counts })), disclosure: one.disclosure },
        { dataset: "ds_two", errorCounts: two.errors.totals, documentErrors: two.errors.perDocument.map((d) => ({ document: d.id, counts: d.counts })), disclosure: two.disclosure },
      ],
      ENGLISH_PRONOUNS.types.map((t) => t.form),
    );
    const view = await getRunAnalysis(organizer, id);
    expect(view.available).toBe(true);
    expect(view.errorTotals).toEqual(Object.fromEntries(ERROR_KINDS.map((k) => [k, one.errors.totals[k] + two.errors.totals[k]])));
    expect(view.documents?.map((d) => [d.dataset, d.document])).toEqual([
      ["ds_one", "alpha/part 0"],
      ["ds_one", "beta/part 0"],
      ["ds_two", "alpha/part 0"],
    ]);
    expect(view.documents).toEqual(merged.documentErrors);
    expect(view.disclosure).toEqual({ ...disclosureTable(merged.disclosure, []), language: "en", excludedCategories: [] });
    expect(view.disclosure?.rows.find((r) => r.id === "raw")?.values.at(-1)).toBe(one.disclosure.total.raw + two.disclosure.total.raw);
  });

  it("getDocumentAnalysis reads the file and gold key of the dataset named (else the first holding the document); a left-out dataset reads as an empty response", async () => {
    const { id, f, organizer } = await multiRun();
    const keyAlpha = readCorpus(KEY, "k.conll").documents[0];
    const keyV2Alpha = readCorpus(KEY_V2, "k.conll").documents[0];
    const responseAlpha = readCorpus(RESPONSE, "r.conll").documents[0];

    const inTwo = await getDocumentAnalysis(organizer, id, "alpha/part 0", "ds_two");
    expect(inTwo.dataset).toEqual({ id: f.datasets[1].id, name: "ds_two" });
    expect(inTwo.key).toEqual(keyV2Alpha.entities);
    expect(inTwo.response).toEqual(keyAlpha.entities);
    expect(inTwo.counts).toEqual(analyzeDocumentErrors(keyV2Alpha.entities, keyAlpha.entities).counts);
    expect(inTwo.documentIds).toEqual(["alpha/part 0"]);
    expect(inTwo.submission.goldVersion).toBe(1);
    expect(inTwo.scores?.muc).toBeDefined();

    for (const dataset of ["ds_one", undefined]) {
      const inOne = await getDocumentAnalysis(organizer, id, "alpha/part 0", dataset);
      expect(inOne.dataset?.name).toBe("ds_one");
      expect(inOne.response).toEqual(responseAlpha.entities);
      expect(inOne.counts).toEqual(analyzeDocumentErrors(keyAlpha.entities, responseAlpha.entities).counts);
      expect(inOne.documentIds).toEqual(["alpha/part 0", "beta/part 0"]);
    }
    expect(inTwo.counts).not.toEqual((await getDocumentAnalysis(organizer, id, "alpha/part 0", "ds_one")).counts);

    const left = await getDocumentAnalysis(organizer, id, "beta/part 0", "ds_three");
    expect([left.dataset?.name, left.missingInResponse, left.response, left.scores]).toEqual(["ds_three", true, [], null]);
    expect(left.counts["missing-entity"]).toBe(left.key.length);

    for (const [document, dataset] of [
      ["beta/part 0", "ds_two"],
      ["alpha/part 0", "no_such_dataset"],
      ["gamma/part 0", undefined],
    ] as const) {
      expect(await rejection(getDocumentAnalysis(organizer, id, document, dataset))).toBeInstanceOf(NotFoundError);
    }
  });
});
