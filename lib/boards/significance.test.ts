/**
 * Significance (compareRuns, boardSignificance) against a real database, on runs scored by
 * the worker's own code (`scoreSubmission`) over a key of many small documents.
 */
import { afterAll, describe, expect, it, vi } from "vitest";

// Counts the bootstrap's runs (`board-significance.ts`: a board view must run none).
const bootstrapCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock("../../scoring/analysis", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../scoring/analysis")>();
  return {
    ...actual,
    stratifiedPairedBootstrap: (...args: Parameters<typeof actual.stratifiedPairedBootstrap>) => {
      bootstrapCalls.n++;
      return actual.stratifiedPairedBootstrap(...args);
    },
    stratifiedBootstrapInterval: (...args: Parameters<typeof actual.stratifiedBootstrapInterval>) => {
      bootstrapCalls.n++;
      return actual.stratifiedBootstrapInterval(...args);
    },
  };
});
import { useTestDatabase } from "../db/test-db";
import { NotFoundError, ValidationError } from "../errors";
import type { Viewer } from "../permissions";
import { stopBoss } from "../queue";
import { scoringConfig, type ScoringConfig } from "../scoring-config";
import { scoreSubmission } from "../worker/scoring-job";
import { addGold, conll, createSubmission, type PhaseFixture } from "../worker/scoring-job.fixtures";
import { BOOTSTRAP_SEED, DEFAULT_BOOTSTRAP_SAMPLES, pairedBootstrap, reportDocuments } from "../../scoring/analysis";
import { readCorpus } from "../../scoring/formats";
import { evaluate } from "../../scoring";
import { defaultDatasetData } from "../tasks/datasets";
import { getLeaderboard } from "./leaderboard";
import { computeBoardSignificance, readBoardSignificance } from "./board-significance";
import { disqualifySubmission } from "../runs/controls";
import { boardSignificance, compareRuns, listComparableRuns, loadRunDocuments, SIGNIFICANCE_LEVEL } from "./significance";
import { packFile } from "../storage";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, type PhaseOverrides } from "../tasks/test-fixtures";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG: ScoringConfig = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };

/** Number of documents of the key: enough for the bootstrap to tell runs apart. */
const DOCS = 30;

/** One document's rows: two people, each mentioned twice; `merged` puts all four mentions in one entity. */
function rows(merged: boolean): string[] {
  const second = merged ? 1 : 2;
  return ["Anna\t(1)", "met\t-", "Ben\t(" + second + ")", ".\t-", "", "She\t(1)", "thanked\t-", "him\t(" + second + ")", ".\t-"];
}

/** A file of DOCS documents, `merged(i)` telling which documents conflate the two people. */
function file(merged: (i: number) => boolean): string {
  return conll(...Array.from({ length: DOCS }, (_, i) => [`d${String(i).padStart(2, "0")}`, rows(merged(i))] as [string, string[]]));
}

const KEY = file(() => false);
/** The key itself: perfect on every metric. */
const PERFECT = KEY;
/** Every document conflated. */
const POOR = file(() => true);
/** A third of the documents conflated. */
const MEDIUM = file((i) => i % 3 === 0);

/**
 * A task (organizer), a phase with gold KEY, two teams (A and B, one member each) and an
 * outsider; `runs` are scored for team A, B, A, B, … in order.
 */
async function phaseWithRuns(runs: string[], phase: PhaseOverrides = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const memberA = await makeUser(db, "Member A");
  const memberB = await makeUser(db, "Member B");
  const outsider = await makeUser(db, "Outsider");
  const teamA = await makeTeam(db, "Team A", [memberA.id]);
  const teamB = await makeTeam(db, "Team B", [memberB.id]);
  const { task, phase: row } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase });
  const fA: PhaseFixture = { userId: memberA.id, teamId: teamA.id, taskId: task.id, phaseId: row.id };
  const fB: PhaseFixture = { userId: memberB.id, teamId: teamB.id, taskId: task.id, phaseId: row.id };
  await addGold(db, fA, 1, KEY);
  const ids: string[] = [];
  for (const [i, text] of runs.entries()) {
    const id = await createSubmission(db, i % 2 === 0 ? fA : fB, text);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    ids.push(id);
  }
  return {
    ids,
    task,
    phase: row,
    fA,
    organizer: organizer.viewer as Viewer,
    memberA: memberA.viewer as Viewer,
    memberB: memberB.viewer as Viewer,
    outsider: outsider.viewer as Viewer,
  };
}

describe("compareRuns", () => {
  it("identical runs: every metric has delta 0 and p = 1; per-document deltas are all 0", async () => {
    const p = await phaseWithRuns([MEDIUM, MEDIUM]);
    const result = await compareRuns(p.organizer, p.ids[0], p.ids[1]);
    expect(result.bootstrap).toMatchObject({ documents: DOCS, samples: DEFAULT_BOOTSTRAP_SAMPLES, seed: BOOTSTRAP_SEED });
    expect(result.bootstrap.metrics.map((m) => m.metric)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"]);
    for (const m of result.bootstrap.metrics) {
      expect(m.delta).toBe(0);
      expect(m.pValue).toBe(1);
      expect(m.a).toBe(m.b);
    }
    expect(result.documents).toHaveLength(DOCS);
    expect(result.documents!.every((d) => d.delta === 0 && d.a === d.b)).toBe(true);
    expect(result.documentMetric).toBe("conll");
    expect(result.a).toMatchObject({ id: p.ids[0], team: { id: p.fA.teamId }, goldVersion: 1, canViewErrors: true });
    expect(result.b.id).toBe(p.ids[1]);
    expect(result.task).toEqual({ slug: p.task.slug, title: p.task.title, primaryMetric: "conll" });
    expect(result.phase).toEqual({ id: p.phase.id, name: p.phase.name });
  });

  it("a perfect run against a poor one over 30 documents: significant on conll (p < 0.05), deltas a − b, as pairedBootstrap on evaluate's counts", async () => {
    const p = await phaseWithRuns([PERFECT, POOR]);
    const result = await compareRuns(p.organizer, p.ids[0], p.ids[1]);
    const conllRow = result.bootstrap.metrics.find((m) => m.metric === "conll")!;
    expect(conllRow.a).toBe(1);
    expect(conllRow.b).toBeLessThan(0.9);
    expect(conllRow.delta).toBeCloseTo(1 - conllRow.b, 12);
    expect(conllRow.pValue).toBeLessThan(SIGNIFICANCE_LEVEL);
    expect(conllRow.ci95[0]).toBeGreaterThan(0);
    // The stored per-document counts give what the bootstrap gives on evaluate's own report.
    const key = readCorpus(KEY, "key.conll");
    const expected = pairedBootstrap(
      reportDocuments(evaluate(key, readCorpus(PERFECT, "a.conll"))),
      reportDocuments(evaluate(key, readCorpus(POOR, "b.conll"))),
    );
    expect(result.bootstrap.metrics.map((m) => [m.metric, m.pValue])).toEqual(expected.metrics.map((m) => [m.metric, m.pValue]));
    for (const [i, m] of result.bootstrap.metrics.entries()) expect(m.delta).toBeCloseTo(expected.metrics[i].delta, 12);

    // B − A: the same p-values, deltas negated.
    const reversed = await compareRuns(p.organizer, p.ids[1], p.ids[0]);
    const back = reversed.bootstrap.metrics.find((m) => m.metric === "conll")!;
    expect(back.delta).toBeCloseTo(-conllRow.delta, 12);
    expect(back.pValue).toBe(conllRow.pValue);
    // Per document: every document differs by the same amount, largest |delta| first, ties by id.
    expect(result.documents!.map((d) => d.document)).toEqual([...result.documents!.map((d) => d.document)].sort());
    expect(result.documents!.every((d) => d.a === 1 && d.delta > 0)).toBe(true);

    // The sample count is the caller's.
    expect((await compareRuns(p.organizer, p.ids[0], p.ids[1], { samples: 200 })).bootstrap.samples).toBe(200);
  });

  it("a private run of another team is 404 (also for anonymous viewers); a hidden board is 404 for outsiders", async () => {
    const p = await phaseWithRuns([PERFECT, POOR]);
    await testDb.prisma.submission.update({ where: { id: p.ids[0] }, data: { visibility: "PRIVATE" } });
    for (const viewer of [p.memberB, p.outsider, null]) {
      expect(await rejection(compareRuns(viewer, p.ids[1], p.ids[0]))).toBeInstanceOf(NotFoundError);
      expect(await rejection(compareRuns(viewer, p.ids[0], p.ids[1]))).toBeInstanceOf(NotFoundError);
    }
    // Its own team and the organizers may.
    expect((await compareRuns(p.memberA, p.ids[0], p.ids[1])).a.id).toBe(p.ids[0]);
    expect((await compareRuns(p.organizer, p.ids[0], p.ids[1])).a.id).toBe(p.ids[0]);
    expect(await rejection(compareRuns(p.organizer, p.ids[0], "not-a-uuid"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(compareRuns(p.organizer, "00000000-0000-4000-8000-000000000000", p.ids[0]))).toBeInstanceOf(NotFoundError);

    const hidden = await phaseWithRuns([PERFECT, POOR], { leaderboardVisibility: "ORGANIZERS" });
    expect(await rejection(compareRuns(hidden.outsider, hidden.ids[0], hidden.ids[1]))).toBeInstanceOf(NotFoundError);
    expect(await rejection(compareRuns(null, hidden.ids[0], hidden.ids[1]))).toBeInstanceOf(NotFoundError);
  });

  it("422 for the same run twice, runs of different phases, a run not scored, and runs scored against different gold versions", async () => {
    const p = await phaseWithRuns([PERFECT, POOR, MEDIUM]);
    const same = await rejection(compareRuns(p.organizer, p.ids[0], p.ids[0]));
    expect(same).toBeInstanceOf(ValidationError);
    expect(same.httpStatus).toBe(422);

    // A run of another phase of the same task.
    const other = await testDb.prisma.phase.create({
      data: {
        taskId: p.task.id,
        name: "dev",
        opensAt: new Date(Date.now() - 86_400_000),
        closesAt: new Date(Date.now() + 86_400_000),
        datasets: { create: defaultDatasetData("conll2012") },
      },
    });
    const fOther: PhaseFixture = { ...p.fA, phaseId: other.id };
    await addGold(testDb.prisma, fOther, 1, KEY);
    const elsewhere = await createSubmission(testDb.prisma, fOther, PERFECT);
    expect(await scoreSubmission(elsewhere, WORKER)).toMatchObject({ status: "SCORED" });
    const phases = await rejection(compareRuns(p.organizer, p.ids[0], elsewhere));
    expect(phases).toBeInstanceOf(ValidationError);
    expect(phases.message).toMatch(/same phase/);

    await testDb.prisma.submission.update({ where: { id: p.ids[2] }, data: { status: "QUEUED" } });
    expect(await rejection(compareRuns(p.organizer, p.ids[0], p.ids[2]))).toBeInstanceOf(ValidationError);

    await testDb.prisma.submission.update({ where: { id: p.ids[1] }, data: { goldVersion: 2 } });
    const versions = await rejection(compareRuns(p.organizer, p.ids[0], p.ids[1]));
    expect(versions).toBeInstanceOf(ValidationError);
    expect(versions.message).toMatch(/different gold key versions/);
  });

  it("per-document deltas: shown to the organizers; hidden from outsiders (and from a team for another team's run) unless the viewer may see the error analysis", async () => {
    const closed = await phaseWithRuns([PERFECT, MEDIUM], { participantAnalysis: "NONE" });
    const forOrganizer = await compareRuns(closed.organizer, closed.ids[0], closed.ids[1]);
    expect(forOrganizer.documents).toHaveLength(DOCS);
    // MEDIUM conflates every third document: those differ, the others do not; largest first.
    expect(forOrganizer.documents!.slice(0, DOCS / 3).every((d) => d.delta > 0)).toBe(true);
    expect(forOrganizer.documents!.slice(DOCS / 3).every((d) => d.delta === 0)).toBe(true);
    expect(forOrganizer.documents![0]).toMatchObject({ document: "d00/part 0", a: 1 });

    for (const viewer of [closed.outsider, null, closed.memberA]) {
      const view = await compareRuns(viewer, closed.ids[0], closed.ids[1]);
      expect(view.documents).toBeNull();
      expect(view.bootstrap.metrics.find((m) => m.metric === "conll")!.pValue).toBe(forOrganizer.bootstrap.metrics.find((m) => m.metric === "conll")!.pValue);
      expect(view.a.canViewErrors).toBe(false);
      expect(view.b.canViewErrors).toBe(false);
    }

    // TEAMS: the two teams' members (participants) see them; the outsider and anonymous readers do not.
    const teams = await phaseWithRuns([PERFECT, MEDIUM], { participantAnalysis: "TEAMS" });
    for (const [viewer, sees] of [[teams.memberA, true], [teams.memberB, true], [teams.organizer, true], [teams.outsider, false], [null, false]] as const) {
      const view = await compareRuns(viewer, teams.ids[0], teams.ids[1]);
      expect(view.documents === null ? 0 : view.documents.length).toBe(sees ? DOCS : 0);
      expect(view.a.canViewErrors).toBe(sees);
    }

    const open = await phaseWithRuns([PERFECT, MEDIUM], { participantAnalysis: "PUBLIC" });
    for (const viewer of [open.outsider, null, open.memberA, open.organizer]) {
      const view = await compareRuns(viewer, open.ids[0], open.ids[1]);
      expect(view.documents).toHaveLength(DOCS);
      expect(view.a.canViewErrors).toBe(true);
    }
  });

  it("a team comparing two of its own runs: per-document deltas on a public board; on a hidden board only with teamDocumentScores (organizers always)", async () => {
    // Team A: ids[0] (perfect) and ids[2] (medium).
    const visible = await phaseWithRuns([PERFECT, POOR, MEDIUM]);
    expect((await compareRuns(visible.memberA, visible.ids[0], visible.ids[2])).documents).toHaveLength(DOCS);

    const hidden = await phaseWithRuns([PERFECT, POOR, MEDIUM], { leaderboardVisibility: "ORGANIZERS" });
    const own = await compareRuns(hidden.memberA, hidden.ids[0], hidden.ids[2]);
    expect(own.documents).toBeNull();
    // The corpus-level comparison stays: scores, deltas and p-values.
    expect(own.bootstrap.metrics.find((m) => m.metric === "conll")!.delta).toBeGreaterThan(0);
    expect((await compareRuns(hidden.organizer, hidden.ids[0], hidden.ids[2])).documents).toHaveLength(DOCS);
    // Other teams' runs stay invisible on a hidden board.
    expect(await rejection(compareRuns(hidden.memberA, hidden.ids[0], hidden.ids[1]))).toBeInstanceOf(NotFoundError);

    await testDb.prisma.phase.update({ where: { id: hidden.phase.id }, data: { teamDocumentScores: true } });
    expect((await compareRuns(hidden.memberA, hidden.ids[0], hidden.ids[2])).documents).toHaveLength(DOCS);
  });
});

describe("boardSignificance", () => {
  it("marks each row with a value against the row listed above it (the first has none; a baseline is a reference point), with p-values on the board's metric and intervals that contain the row's value", async () => {
    // Teams A, B, A, B: a perfect run, a poor one, a medium one and a second poor one.
    const p = await phaseWithRuns([PERFECT, POOR, MEDIUM, POOR], { selectionRule: "BEST" });
    // A baseline (not ranked) by team A, as good as the medium run.
    const baseline = await createSubmission(testDb.prisma, p.fA, MEDIUM);
    await testDb.prisma.submission.update({ where: { id: baseline }, data: { isBaseline: true } });
    expect(await scoreSubmission(baseline, WORKER)).toMatchObject({ status: "SCORED" });

    const board = await getLeaderboard(p.phase.id, null, { allRuns: true });
    const listed = board.rows.filter((r) => r.value !== null);
    expect(listed.map((r) => r.submissionId)).toEqual([p.ids[0], p.ids[2], baseline, p.ids[1], p.ids[3]]);
    expect(listed.map((r) => r.rank)).toEqual([1, 2, null, 3, 3]);

    const sig = await boardSignificance(board, { intervals: true });
    expect(sig).toMatchObject({ metric: "conll", samples: DEFAULT_BOOTSTRAP_SAMPLES, seed: BOOTSTRAP_SEED, level: SIGNIFICANCE_LEVEL });
    expect(Object.keys(sig.rows).sort()).toEqual(listed.map((r) => r.submissionId).sort());

    // The first ranked row has no marker; every other row is compared with the row above it.
    expect(sig.rows[listed[0].submissionId].versusAbove).toBeNull();
    for (let i = 1; i < listed.length; i++) {
      const mark = sig.rows[listed[i].submissionId].versusAbove!;
      expect(mark.submissionId).toBe(listed[i - 1].submissionId);
      expect(mark.delta).toBeCloseTo(listed[i - 1].value! - listed[i].value!, 12);
      expect(mark.pValue).toBeGreaterThan(0);
      expect(mark.pValue).toBeLessThanOrEqual(1);
      expect(mark.significant).toBe(mark.pValue < SIGNIFICANCE_LEVEL);
    }
    // Perfect over medium is significant; the baseline equals the medium run (p = 1); the
    // poor run is significantly below the baseline; two identical poor runs are not apart (p = 1).
    expect(sig.rows[p.ids[2]].versusAbove!.significant).toBe(true);
    expect(sig.rows[baseline].versusAbove).toMatchObject({ submissionId: p.ids[2], delta: 0, pValue: 1, significant: false });
    expect(sig.rows[p.ids[1]].versusAbove).toMatchObject({ submissionId: baseline, significant: true });
    expect(sig.rows[p.ids[3]].versusAbove).toMatchObject({ submissionId: p.ids[1], delta: 0, pValue: 1, significant: false });

    for (const row of listed) {
      const interval = sig.rows[row.submissionId].interval!;
      expect(interval.lo).toBeLessThanOrEqual(interval.hi);
      expect(interval.lo).toBeLessThanOrEqual(row.value! + 1e-9);
      expect(interval.hi).toBeGreaterThanOrEqual(row.value! - 1e-9);
    }
    expect(sig.rows[p.ids[0]].interval).toEqual({ lo: 1, hi: 1 });
    expect(sig.rows[p.ids[2]].interval!.hi).toBeGreaterThan(sig.rows[p.ids[2]].interval!.lo);

    // Without `intervals`, none; on another metric, that metric's p-values.
    const plain = await boardSignificance(board);
    expect(Object.values(plain.rows).every((r) => r.interval === null)).toBe(true);
    expect(plain.rows[p.ids[2]].versusAbove).toEqual(sig.rows[p.ids[2]].versusAbove);
    const mucBoard = await getLeaderboard(p.phase.id, null, { allRuns: true, metric: "muc" });
    const muc = await boardSignificance(mucBoard, { samples: 100 });
    expect(muc).toMatchObject({ metric: "muc", samples: 100 });
    const mucListed = mucBoard.rows.filter((r) => r.value !== null);
    expect(muc.rows[mucListed[0].submissionId].versusAbove).toBeNull();
    expect(muc.rows[mucListed[1].submissionId].versusAbove!.delta).toBeCloseTo(mucListed[0].value! - mucListed[1].value!, 12);
  });

  it("one row per team (selection rule): each compared with the team ranked above; runs scored against another gold version get no marker", async () => {
    const p = await phaseWithRuns([PERFECT, POOR, MEDIUM]);
    const board = await getLeaderboard(p.phase.id, p.organizer);
    expect(board.rows.map((r) => r.submissionId)).toEqual([p.ids[0], p.ids[1]]);
    const sig = await boardSignificance(board);
    expect(sig.rows[p.ids[0]]).toEqual({ versusAbove: null, interval: null });
    expect(sig.rows[p.ids[1]].versusAbove).toMatchObject({ submissionId: p.ids[0], significant: true });

    // A row whose gold version differs from the row above: no comparison.
    const mixed = { metric: board.metric, phase: board.phase, rows: board.rows.map((r, i) => (i === 1 ? { ...r, goldVersion: 2 } : r)) };
    expect((await boardSignificance(mixed)).rows[p.ids[1]].versusAbove).toBeNull();
  });

  it("loadRunDocuments: per run and document, every count metric and BLANC's link counts", async () => {
    const p = await phaseWithRuns([MEDIUM]);
    const docs = await loadRunDocuments([p.ids[0], "00000000-0000-4000-8000-000000000000"]);
    expect([...docs.keys()]).toEqual([p.ids[0]]);
    const run = docs.get(p.ids[0])!;
    expect(run.size).toBe(DOCS);
    const key = readCorpus(KEY, "key.conll");
    const expected = reportDocuments(evaluate(key, readCorpus(MEDIUM, "m.conll")));
    for (const [id, counts] of expected) expect(run.get(id)).toEqual(counts);
    expect(await loadRunDocuments([])).toEqual(new Map());
  });
});

describe("listComparableRuns", () => {
  it("lists the scored runs of the phase (same gold version) the viewer may see: all for organizers, public and own-team runs for others", async () => {
    // Team A: ids[0] (public) and ids[2] (private); team B: ids[1] (public).
    const p = await phaseWithRuns([PERFECT, POOR, MEDIUM]);
    await testDb.prisma.submission.update({ where: { id: p.ids[2] }, data: { visibility: "PRIVATE" } });
    const ids = async (viewer: Viewer, id: string) => (await listComparableRuns(viewer, id)).map((r) => r.id);
    expect(await ids(p.organizer, p.ids[0])).toEqual([p.ids[2], p.ids[1]]);
    expect(await ids(p.memberA, p.ids[0])).toEqual([p.ids[2], p.ids[1]]);
    expect(await ids(p.memberB, p.ids[1])).toEqual([p.ids[0]]);
    expect(await ids(p.outsider, p.ids[0])).toEqual([p.ids[1]]);
    expect(await ids(null, p.ids[1])).toEqual([p.ids[0]]);
    expect((await listComparableRuns(p.organizer, p.ids[0]))[0]).toMatchObject({ id: p.ids[2], systemName: "test system", isBaseline: false, team: expect.any(String) });
    for (const viewer of [p.outsider, null, p.memberB]) {
      expect(await rejection(listComparableRuns(viewer, p.ids[2]))).toBeInstanceOf(NotFoundError);
    }
    // Another gold version, or a run not scored: not comparable.
    await testDb.prisma.submission.update({ where: { id: p.ids[1] }, data: { goldVersion: 2 } });
    expect(await ids(p.organizer, p.ids[0])).toEqual([p.ids[2]]);
    await testDb.prisma.submission.update({ where: { id: p.ids[0] }, data: { status: "QUEUED" } });
    expect(await ids(p.organizer, p.ids[0])).toEqual([]);
  });
});

describe("significance on a phase with several datasets (stratified bootstrap)", () => {
  /** MUC counts `num/1` both ways for one document. */
  const muc = (num: number) => ({ metric: "muc", recallNum: num, recallDen: 1, precisionNum: num, precisionDen: 1 });
  const Y_DOCS = 20;

  /**
   * Datasets "main" (one document, a1) and "y" (20 documents, y00…y19), each with an active
   * gold key. Runs (MUC only): r1 perfect on a1, r2 0 on a1, r3 left "main" out; on "y" all
   * three score 1 on the even documents and 0 on the odd ones. Macro MUC F1: r1 (1 + 1/2)/2,
   * r2 and r3 (0 + 1/2)/2.
   */
  async function multiPhase() {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const member = await makeUser(db, "Member");
    const { phase, dataset: main } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: { selectionRule: "BEST" }, primaryMetric: "muc" });
    const y = await db.dataset.create({ data: { phaseId: phase.id, name: "y", fileName: "y.conll", position: 1 } });
    const gold = async (datasetId: string, fileName: string, documentCount: number) => {
      const stored = packFile(bytes(`gold ${fileName}`));
      return db.goldKey.create({
        data: { phaseId: phase.id, datasetId, version: 1, fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount, uploadedById: organizer.id, active: true },
      });
    };
    const goldMain = await gold(main.id, "main.conll", 1);
    const goldY = await gold(y.id, "y.conll", Y_DOCS);
    const teams = [await makeTeam(db, "R1", [member.id]), await makeTeam(db, "R2", [member.id]), await makeTeam(db, "R3", [member.id])];
    const run = async (i: number, mainNum: number | null) => {
      const s = await insertSubmission(db, { phaseId: phase.id, teamId: teams[i].id, submitterId: member.id, goldVersion: null, createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) });
      await db.submission.update({ where: { id: s.id }, data: { goldVersion: null } });
      if (mainNum === null) await db.submissionFile.delete({ where: { submissionId_datasetId: { submissionId: s.id, datasetId: main.id } } });
      else {
        await db.submissionFile.update({ where: { submissionId_datasetId: { submissionId: s.id, datasetId: main.id } }, data: { goldKeyId: goldMain.id } });
        await db.documentScore.create({ data: { submissionId: s.id, datasetId: main.id, document: "a1", ...muc(mainNum) } });
        await db.datasetScore.create({ data: { submissionId: s.id, phaseId: phase.id, datasetId: main.id, ...muc(mainNum), recall: mainNum, precision: mainNum, f1: mainNum } });
      }
      const stored = packFile(bytes(`y of ${i}`));
      await db.submissionFile.create({
        data: { submissionId: s.id, phaseId: phase.id, datasetId: y.id, fileName: "y.conll", sha256: stored.sha256, gzip: stored.gzip, size: stored.size, goldKeyId: goldY.id },
      });
      await db.documentScore.createMany({
        data: Array.from({ length: Y_DOCS }, (_, d) => ({ submissionId: s.id, datasetId: y.id, document: `y${String(d).padStart(2, "0")}`, ...muc(d % 2 === 0 ? 1 : 0) })),
      });
      await db.datasetScore.create({ data: { submissionId: s.id, phaseId: phase.id, datasetId: y.id, metric: "muc", recallNum: 10, recallDen: 20, precisionNum: 10, precisionDen: 20, recall: 0.5, precision: 0.5, f1: 0.5 } });
      const macro = ((mainNum ?? 0) + 0.5) / 2;
      await db.score.create({ data: { submissionId: s.id, phaseId: phase.id, metric: "muc", recall: macro, precision: macro, f1: macro } });
      return s.id;
    };
    const ids = [await run(0, 1), await run(1, 0), await run(2, null)];
    return { phase, main, y, ids };
  }

  it("the phase-level board resamples within each dataset: a difference on a one-document dataset is significant, a left-out dataset counts 0", async () => {
    const p = await multiPhase();
    const board = await getLeaderboard(p.phase.id, null, { metric: "muc" });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [p.ids[0], 1, 0.75],
      [p.ids[1], 2, 0.25],
      [p.ids[2], 2, 0.25],
    ]);
    const samples = 500;
    const sig = await boardSignificance(board, { samples, intervals: true });
    // r1 − r2 is 1/2 in every sample: "main"'s one document is drawn once in each (stratified).
    // Pooling the 21 documents would leave it out of about a third of the samples (p > 0.05).
    const second = sig.rows[p.ids[1]].versusAbove!;
    expect(second.submissionId).toBe(p.ids[0]);
    expect(second.delta).toBe(0.5);
    expect(second.pValue).toBe(1 / (samples + 1));
    expect(second.significant).toBe(true);
    // r3 left "main" out (0), as r2 scored 0 there: equal in every sample.
    expect(sig.rows[p.ids[2]].versusAbove).toMatchObject({ submissionId: p.ids[1], delta: 0, pValue: 1, significant: false });
    // Intervals of the macro-average: r1's "main" score (1) is in every sample.
    expect(sig.rows[p.ids[0]].interval!.lo).toBeGreaterThanOrEqual(0.5);
    expect(sig.rows[p.ids[2]].interval!.hi).toBeLessThanOrEqual(0.5);
  });

  it("a dataset's board (and the board ranked by a dataset) uses that dataset's documents only", async () => {
    const p = await multiPhase();
    // On "y" the runs agree document by document.
    const yBoard = await getLeaderboard(p.phase.id, null, { metric: "muc", dataset: "y", allRuns: true });
    expect(yBoard.rows.map((r) => r.value)).toEqual([0.5, 0.5, 0.5]);
    const ySig = await boardSignificance(yBoard, { samples: 200 });
    expect(ySig.rows[yBoard.rows[1].submissionId].versusAbove).toMatchObject({ delta: 0, pValue: 1 });
    // On "main" (one document), r1 beats r2 in every sample; r3 left it out (0), like r2's 0.
    const mainBoard = await getLeaderboard(p.phase.id, null, { metric: "muc", dataset: "main" });
    expect(mainBoard.rows.map((r) => [r.submissionId, r.value, r.missing])).toEqual([
      [p.ids[0], 1, false],
      [p.ids[1], 0, false],
      [p.ids[2], 0, true],
    ]);
    const mainSig = await boardSignificance(mainBoard, { samples: 200 });
    expect(mainSig.rows[p.ids[1]].versusAbove).toMatchObject({ delta: 1, pValue: 1 / 201, significant: true });
    expect(mainSig.rows[p.ids[2]].versusAbove).toMatchObject({ delta: 0, pValue: 1 });
    const ranked = await getLeaderboard(p.phase.id, null, { metric: "muc", rankDataset: "main" });
    const rankedSig = await boardSignificance(ranked, { samples: 200 });
    expect(rankedSig.rows[p.ids[1]].versusAbove).toEqual(mainSig.rows[p.ids[1]].versusAbove);
  });

  it("compareRuns: the stratified bootstrap of the macro-average, each dataset's gold version checked", async () => {
    const p = await multiPhase();
    const organizer = (await testDb.prisma.taskOrganizer.findFirstOrThrow({ where: { task: { phases: { some: { id: p.phase.id } } } } })).userId;
    const viewer: Viewer = { userId: organizer, role: "USER" };
    const c = await compareRuns(viewer, p.ids[0], p.ids[2], { samples: 300 });
    const m = c.bootstrap.metrics.find((x) => x.metric === "muc")!;
    expect(m).toMatchObject({ a: 0.75, b: 0.25, delta: 0.5, pValue: 1 / 301 });
    expect(c.bootstrap.documents).toBe(1 + Y_DOCS);
    expect(c.a.goldVersion).toBeNull();
    expect(c.b.datasets).toEqual([
      { name: "main", missing: true, goldVersion: null },
      { name: "y", missing: false, goldVersion: 1 },
    ]);
    expect(c.a.scores.muc).toMatchObject({ f1: 0.75, recall_num: null });
    // Per-document rows name their dataset; a dataset one run left out has none.
    expect(c.documents!).toHaveLength(Y_DOCS);
    expect(c.documents!.every((d) => d.dataset === "y" && d.delta === 0)).toBe(true);
    const withMain = await compareRuns(viewer, p.ids[0], p.ids[1], { samples: 300 });
    expect(withMain.documents!).toHaveLength(1 + Y_DOCS);
    expect(withMain.documents![0]).toEqual({ document: "a1", dataset: "main", a: 1, b: 0, delta: 1 });
    // Another gold version of "y" for one run: refused, naming the dataset.
    const goldY2 = await testDb.prisma.goldKey.create({
      data: { ...(await testDb.prisma.goldKey.findFirstOrThrow({ where: { datasetId: p.y.id }, omit: { id: true, createdAt: true, stats: true } })), version: 2, active: false },
    });
    await testDb.prisma.submissionFile.update({ where: { submissionId_datasetId: { submissionId: p.ids[2], datasetId: p.y.id } }, data: { goldKeyId: goldY2.id } });
    const error = await rejection(compareRuns(viewer, p.ids[0], p.ids[2]));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/different gold key versions of the y dataset \(1 and 2\)/);
  });
});

describe("stored board significance (board-significance.ts)", () => {
  const defaultBoard = { metric: "conll", track: null, dataset: null, rankDataset: null, allRuns: false };

  it("a board view reads what the worker stored and runs no bootstrap; a change to the board makes it stale", async () => {
    const p = await phaseWithRuns([PERFECT, POOR, MEDIUM, POOR]);
    const view = () => getLeaderboard(p.phase.id, p.outsider, { limit: 50 });
    bootstrapCalls.n = 0;
    // Nothing stored: pending, and a job is queued for the workers.
    expect(await readBoardSignificance(await view(), { intervals: true })).toEqual({ status: "pending" });
    expect(bootstrapCalls.n).toBe(0);
    const queued = await testDb.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'board-significance' AND data->>'phaseId' = ${p.phase.id}`;
    expect(queued[0].n).toBe(1);

    // The worker's job computes and stores it (with intervals); a second job finds it fresh.
    expect(await computeBoardSignificance({ phaseId: p.phase.id, viewerId: null, board: defaultBoard })).toMatchObject({ status: "computed", rows: 2 });
    expect(bootstrapCalls.n).toBeGreaterThan(0);
    expect(await computeBoardSignificance({ phaseId: p.phase.id, viewerId: null, board: defaultBoard })).toMatchObject({ status: "fresh" });

    bootstrapCalls.n = 0;
    const board = await view();
    const ready = await readBoardSignificance(board, { intervals: true });
    const plain = await readBoardSignificance(board);
    expect(bootstrapCalls.n).toBe(0);
    expect(ready.status).toBe("ready");
    // Exactly what computing it on the view would give (the old way).
    const computedNow = await boardSignificance(board, { intervals: true });
    expect(ready.status === "ready" && ready.significance).toEqual(computedNow);
    expect(ready.status === "ready" && Object.values(ready.significance.rows).some((r) => r.interval !== null)).toBe(true);
    expect(plain.status === "ready" && Object.values(plain.significance.rows).every((r) => r.interval === null)).toBe(true);

    // Disqualifying the top run changes the board: the stored result is not shown for it.
    await disqualifySubmission(p.organizer, board.rows[0].submissionId, "Trained on the test set.");
    bootstrapCalls.n = 0;
    expect(await readBoardSignificance(await view())).toEqual({ status: "pending" });
    expect(bootstrapCalls.n).toBe(0);
  });

  it("a board hidden until the close has no significance, and says why; the worker skips it", async () => {
    const p = await phaseWithRuns([PERFECT, POOR], { closesAt: new Date(Date.now() + 86_400_000) });
    await testDb.prisma.phase.update({ where: { id: p.phase.id }, data: { leaderboardTiming: "after_close" } });
    const hidden = await readBoardSignificance(await getLeaderboard(p.phase.id, p.memberA, { limit: 50 }));
    expect(hidden).toMatchObject({ status: "none", reason: expect.stringMatching(/hidden until the phase closes/) });
    expect(await computeBoardSignificance({ phaseId: p.phase.id, viewerId: null, board: defaultBoard })).toMatchObject({ status: "skipped" });
  });
});
