/**
 * The benchmark's bulk seeding against a real database: a small board (20 teams × 3 runs × 4
 * documents) must read back through the services the pages use (leaderboard, significance,
 * compare, the error-analysis document view) as a board of worker-scored runs does, with
 * corpus counts that are the sums of the document counts, and re-scoring a seeded run with the
 * real worker (`scoreSubmission`, real scoring threads) must write exactly the seeded rows.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: nothing here may start pg-boss.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { getDocumentAnalysis } from "../runs/analysis";
import { getLeaderboard } from "../boards/leaderboard";
import { documentScoresToJson } from "../boards/scores";
import { boardSignificance, compareRuns } from "../boards/significance";
import { scoringConfig } from "../scoring-config";
import { scoreSubmission } from "../worker/scoring-job";
import { seedBoard, type SeededBoard } from "./seed-board";

const testDb = useTestDatabase();
const TEAMS = 20;
const RUNS_PER_TEAM = 3;
const DOCUMENTS = 4;
/** What the conll2012 profile stores per run (every non-optional metric, BLANC's parts, CoNLL). */
const STORED_METRICS = ["bcub", "blanc", "blanc_coref", "blanc_noncoref", "ceafe", "ceafm", "conll", "lea", "mentions", "muc"];
/** Stored metrics with counts: those of the DocumentScore rows. */
const COUNTED_METRICS = STORED_METRICS.filter((m) => m !== "blanc" && m !== "conll");

let seeded: SeededBoard;

beforeAll(async () => {
  seeded = await seedBoard(testDb.connectionString, { teams: TEAMS, runsPerTeam: RUNS_PER_TEAM, documents: DOCUMENTS, slug: "seed-test" });
}, 120_000);

/** Each run's Score rows of the primary setting, by submission id then metric. */
async function storedScores() {
  const rows = await testDb.prisma.score.findMany({ where: { phaseId: seeded.phaseId } });
  const out = new Map<string, Map<string, (typeof rows)[number]>>();
  for (const r of rows) {
    const run = out.get(r.submissionId) ?? new Map();
    run.set(r.metric, r);
    out.set(r.submissionId, run);
  }
  return out;
}

describe("seedBoard", () => {
  it("writes the runs, rows and files asked for, all scored and public", async () => {
    const db = testDb.prisma;
    const runs = await db.submission.findMany({ where: { phaseId: seeded.phaseId }, select: { id: true, status: true, visibility: true, teamId: true, goldVersion: true } });
    expect(runs).toHaveLength(TEAMS * RUNS_PER_TEAM);
    expect(new Set(runs.map((r) => r.teamId)).size).toBe(TEAMS);
    expect(runs.every((r) => r.status === "SCORED" && r.visibility === "PUBLIC" && r.goldVersion === 1)).toBe(true);
    const ids = runs.map((r) => r.id);
    expect(await db.score.count({ where: { submissionId: { in: ids }, variant: "" } })).toBe(runs.length * STORED_METRICS.length);
    expect(await db.datasetScore.count({ where: { submissionId: { in: ids } } })).toBe(runs.length * STORED_METRICS.length);
    expect(await db.documentScore.count({ where: { submissionId: { in: ids } } })).toBe(runs.length * DOCUMENTS * COUNTED_METRICS.length);
    expect(await db.runAnalysis.count({ where: { submissionId: { in: ids } } })).toBe(runs.length);
    expect(await db.submissionFile.count({ where: { submissionId: { in: ids }, goldKeyId: seeded.goldKeyId } })).toBe(runs.length);
    expect(seeded).toMatchObject({ runs: TEAMS * RUNS_PER_TEAM, teams: TEAMS, documents: DOCUMENTS, documentScoreRows: runs.length * DOCUMENTS * COUNTED_METRICS.length });
    expect(seeded.documentIds).toHaveLength(DOCUMENTS);
    // Every foreign key holds (the seeding skips the per-row checks).
    const orphans = await testDb.prisma.$queryRaw<{ n: number }[]>`
      SELECT (SELECT count(*) FROM document_scores d LEFT JOIN submissions s ON s.id = d.submission_id WHERE s.id IS NULL)
           + (SELECT count(*) FROM scores c LEFT JOIN submissions s ON s.id = c.submission_id AND s.phase_id = c.phase_id WHERE s.id IS NULL)
           + (SELECT count(*) FROM submissions s LEFT JOIN team_members m ON m.team_id = s.team_id AND m.user_id = s.submitter_id WHERE m.team_id IS NULL)
           + (SELECT count(*) FROM task_participants p LEFT JOIN teams t ON t.id = p.team_id WHERE t.id IS NULL) AS n`;
    expect(Number(orphans[0].n)).toBe(0);
  });

  it("reads back through getLeaderboard: one row per team, each its best run, best first", async () => {
    const board = await getLeaderboard(seeded.phaseId, null);
    expect(board.task.slug).toBe("seed-test");
    expect(board.rows).toHaveLength(TEAMS);
    expect(new Set(board.rows.map((r) => r.team.id)).size).toBe(TEAMS);
    const scores = await storedScores();
    const runs = await testDb.prisma.submission.findMany({ where: { phaseId: seeded.phaseId }, select: { id: true, teamId: true } });
    const bestOf = new Map<string, number>();
    for (const run of runs) bestOf.set(run.teamId, Math.max(bestOf.get(run.teamId) ?? -1, scores.get(run.id)!.get("conll")!.f1));
    board.rows.forEach((row, i) => {
      expect(row.value).toBe(bestOf.get(row.team.id));
      expect(row.scores.conll?.f1).toBe(row.value);
      expect(row.rank).not.toBeNull();
      if (i > 0) expect(row.value!).toBeLessThanOrEqual(board.rows[i - 1].value!);
    });
    expect(board.rows[seeded.midRun.boardIndex].submissionId).toBe(seeded.midRun.submissionId);
    expect(board.rows[seeded.compare.b.boardIndex].submissionId).toBe(seeded.compare.b.submissionId);
    // The scores differ from run to run.
    expect(new Set([...scores.values()].map((s) => s.get("conll")!.f1)).size).toBeGreaterThan(TEAMS * RUNS_PER_TEAM * 0.9);
  });

  it("stores corpus counts that are the sums of the document counts, in key order", async () => {
    const scores = await storedScores();
    const documents = await testDb.prisma.documentScore.findMany({ where: { datasetId: seeded.datasetId } });
    const order = new Map(seeded.documentIds.map((id, i) => [id, i]));
    documents.sort((a, b) => order.get(a.document)! - order.get(b.document)!);
    for (const [submissionId, byMetric] of scores) {
      for (const metric of COUNTED_METRICS) {
        const sum = { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 };
        for (const d of documents) {
          if (d.submissionId !== submissionId || d.metric !== metric) continue;
          sum.recallNum += d.recallNum;
          sum.recallDen += d.recallDen;
          sum.precisionNum += d.precisionNum;
          sum.precisionDen += d.precisionDen;
        }
        const corpus = byMetric.get(metric)!;
        expect({ recallNum: corpus.recallNum, recallDen: corpus.recallDen, precisionNum: corpus.precisionNum, precisionDen: corpus.precisionDen }).toEqual(sum);
        expect(sum.recallDen).toBeGreaterThan(0);
      }
      const f1 = (m: string) => byMetric.get(m)!.f1;
      expect(f1("conll")).toBeCloseTo((f1("muc") + f1("bcub") + f1("ceafe")) / 3, 12);
    }
  });

  it("feeds the significance and compare services from the per-document rows", async () => {
    const board = await getLeaderboard(seeded.phaseId, null);
    const significance = await boardSignificance(board, { samples: 200 });
    expect(Object.keys(significance.rows)).toHaveLength(TEAMS);
    expect(board.rows.slice(1).every((r) => significance.rows[r.submissionId].versusAbove !== null)).toBe(true);

    const { a, b } = seeded.compare;
    const comparison = await compareRuns(null, a.submissionId, b.submissionId, { samples: 200 });
    expect(comparison.a.scores.conll?.f1).toBe(a.conllF1);
    expect(comparison.b.scores.conll?.f1).toBe(b.conllF1);
    expect(comparison.bootstrap.metrics.find((m) => m.metric === "conll")?.delta).toBeCloseTo(a.conllF1 - b.conllF1, 12);
    expect(comparison.documents?.map((d) => d.document).sort()).toEqual([...seeded.documentIds].sort());
  });

  it("opens the error-analysis document view, consistent with the stored analysis and scores", async () => {
    const { submissionId, document } = seeded.documentView;
    const view = await getDocumentAnalysis(null, submissionId, document);
    expect(view.documentIds).toEqual(seeded.documentIds);
    expect(view.key.length).toBeGreaterThan(0);
    expect(view.response.length).toBeGreaterThan(0);
    expect(view.missingInResponse).toBe(false);
    const stored = await testDb.prisma.runAnalysis.findUniqueOrThrow({ where: { submissionId_datasetId: { submissionId, datasetId: seeded.datasetId } } });
    const storedDocument = (stored.documentErrors as { document: string; counts: unknown }[]).find((d) => d.document === document);
    expect(view.counts).toEqual(storedDocument?.counts);
    const rows = await testDb.prisma.documentScore.findMany({ where: { submissionId, document } });
    expect(view.scores).toEqual(documentScoresToJson(rows, "reference")[0].metrics);
  });

  it("writes exactly what the scoring worker writes when it scores the run's file", async () => {
    const db = testDb.prisma;
    const id = seeded.compare.b.submissionId;
    const snapshot = async () => ({
      scores: (await db.score.findMany({ where: { submissionId: id } })).sort((x, y) => x.metric.localeCompare(y.metric)),
      datasetScores: (await db.datasetScore.findMany({ where: { submissionId: id } })).sort((x, y) => x.metric.localeCompare(y.metric)),
      documentScores: (await db.documentScore.findMany({ where: { submissionId: id } })).sort((x, y) => `${x.document} ${x.metric}`.localeCompare(`${y.document} ${y.metric}`)),
      analysis: await db.runAnalysis.findMany({ where: { submissionId: id }, select: { datasetId: true, errorCounts: true, documentErrors: true, pronounDisclosure: true } }),
      run: await db.submission.findUniqueOrThrow({ where: { id }, select: { status: true, goldVersion: true, scorerVersion: true, evaluation: true, warnings: true } }),
      file: await db.submissionFile.findMany({ where: { submissionId: id }, select: { datasetId: true, goldKeyId: true } }),
    });
    const seededRows = await snapshot();
    // As a new gold key would (requeueSubmissions): back to QUEUED, every dataset to score again.
    await db.submission.update({ where: { id }, data: { status: "QUEUED", attempts: 0 } });
    await db.submissionFile.updateMany({ where: { submissionId: id }, data: { goldKeyId: null } });
    const outcome = await scoreSubmission(id, { workerId: "seed-test", config: scoringConfig({ SCORING_TIMEOUT_MS: "60000" }) });
    expect(outcome).toMatchObject({ status: "SCORED", warnings: 0 });
    expect(await snapshot()).toEqual(seededRows);
  }, 60_000);
});
