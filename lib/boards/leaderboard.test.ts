/**
 * Leaderboards of tasks with an evaluation profile's secondary variants (issue 10 §3–4): every
 * row carries each variant's scores, `variant` re-ranks the board (selection rule included),
 * unknown variants are a 422, the CSV gets one `<id>_conll_f1` column per variant, and boards of
 * tasks without variants are unchanged. Score rows are written straight to the database as the
 * worker writes them (`variant = ""` primary, else the variant id).
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { packFile } from "../storage";
import { getLeaderboard, leaderboardJson } from "./leaderboard";
import { LEADERBOARD_CSV_COLUMNS, leaderboardCsv } from "./leaderboard-csv";
import { disqualifySubmission, requalifySubmission, withdrawSubmission } from "../runs/controls";
import { boardSignificance } from "./significance";
import { bytes, csvCells, insertScores, insertSubmission, insertSubmissionInTrack, makeTaskWithPhase, makeTeam, makeTrack, makeUser, rejection } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));


/** The CSV as one map per data row, column name → cell. */
function csvRows(csv: string): { header: string[]; rows: Map<string, string>[] } {
  const [header, ...lines] = csv.trim().split("\r\n").map(csvCells);
  return { header, rows: lines.map((cells) => new Map(header.map((c, i) => [c, cells[i]]))) };
}

/**
 * A phase of a task with `profile`, two teams and a baseline, each run with primary CoNLL F1
 * and per-variant CoNLL F1 (`null` = no rows for that variant).
 */
async function boardFixture(profile: "crac" | "conll2012", selectionRule: "BEST" | "LATEST" = "BEST") {
  const db = testDb.prisma;
  const org = await makeUser(db, "Org");
  const u1 = await makeUser(db, "U1");
  const u2 = await makeUser(db, "U2");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [org.id], phase: { selectionRule }, evaluationProfile: profile });
  const alpha = await makeTeam(db, "Alpha", [u1.id]);
  const beta = await makeTeam(db, "Beta", [u2.id]);
  const orgTeam = await makeTeam(db, "Organizers", [org.id]);
  const add = async (
    teamId: string,
    submitterId: string,
    minute: number,
    primary: number,
    variants: Record<string, number | null>,
    extra: { isBaseline?: boolean; partialMuc?: [number, number, number, number] } = {},
  ) => {
    const s = await insertSubmission(db, { phaseId: phase.id, teamId, submitterId, createdAt: at(minute), systemName: `run-${minute}`, isBaseline: extra.isBaseline });
    await insertScores(db, s.id, phase.id, { conll: primary, muc: [minute, 100, minute, 100] });
    for (const [variant, conll] of Object.entries(variants)) {
      if (conll !== null) await insertScores(db, s.id, phase.id, { conll, muc: variant === "partial" ? extra.partialMuc : undefined }, { variant });
    }
    return s.id;
  };
  return { db, task, phase, alpha, beta, orgTeam, org, u1, u2, add };
}

describe("getLeaderboard with evaluation variants", () => {
  it("carries each variant's scores and the profile, ranked by the primary setting by default", async () => {
    const f = await boardFixture("crac");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.6, { partial: 0.7, exact: 0.5, singletons: 0.55 });
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.5, { partial: 0.8, exact: null, singletons: 0.45 });

    const board = await getLeaderboard(f.phase.id, null);
    expect(board.variant).toBeNull();
    expect(board.evaluation).toEqual({
      profile: "crac",
      label: "CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros)",
      variants: [
        { id: "partial", label: "Partial match" },
        { id: "exact", label: "Exact match" },
        { id: "singletons", label: "Head match with singletons" },
      ],
    });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [a1, 1, 0.6],
      [b1, 2, 0.5],
    ]);
    // The primary scores are the "" rows only; each variant's rows are its own.
    expect(board.rows[0].scores.conll).toEqual({ f1: 0.6 });
    expect(board.rows[0].variants.partial.conll).toEqual({ f1: 0.7 });
    expect(board.rows[0].variants.exact.conll).toEqual({ f1: 0.5 });
    expect(board.rows[0].variants.singletons.conll).toEqual({ f1: 0.55 });
    expect(Object.keys(board.rows[1].variants).sort()).toEqual(["partial", "singletons"]);
    // An empty variant is the primary setting.
    expect((await getLeaderboard(f.phase.id, null, { variant: "" })).rows.map((r) => r.submissionId)).toEqual([a1, b1]);
  });

  it("re-ranks by a variant's metric; BEST picks each team's best run by that variant", async () => {
    const f = await boardFixture("crac");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.9, { partial: 0.2, exact: 0.85 });
    const a2 = await f.add(f.alpha.id, f.u1.id, 2, 0.3, { partial: 0.75, exact: 0.25 });
    const b1 = await f.add(f.beta.id, f.u2.id, 3, 0.8, { partial: 0.6, exact: 0.8 });
    const base = await f.add(f.orgTeam.id, f.org.id, 0, 0.1, { partial: 0.95, exact: 0.05 }, { isBaseline: true });
    const b2 = await f.add(f.beta.id, f.u2.id, 4, 0.7, { partial: null, exact: 0.9 });

    const primary = await getLeaderboard(f.phase.id, null);
    expect(primary.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, 1],
      [b1, 2],
      [base, null],
    ]);

    const partial = await getLeaderboard(f.phase.id, null, { variant: "partial" });
    expect(partial.variant).toBe("partial");
    expect(partial.metric).toBe("conll");
    expect(partial.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [base, null, 0.95],
      [a2, 1, 0.75],
      [b1, 2, 0.6],
    ]);
    // The row still carries its primary scores.
    expect(partial.rows[1].scores.conll).toEqual({ f1: 0.3 });

    const exact = await getLeaderboard(f.phase.id, null, { variant: "exact" });
    expect(exact.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [b2, 1, 0.9],
      [a1, 2, 0.85],
      [base, null, 0.05],
    ]);

    // Every run, ranked by partial match; b2 has no partial scores: last, unranked.
    const all = await getLeaderboard(f.phase.id, null, { variant: "partial", allRuns: true });
    expect(all.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [base, null],
      [a2, 1],
      [b1, 2],
      [a1, 3],
      [b2, null],
    ]);
  });

  it("ranks by another metric of the variant", async () => {
    const f = await boardFixture("crac");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.9, { partial: 0.9 }, { partialMuc: [1, 4, 1, 4] });
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.5, { partial: 0.5 }, { partialMuc: [3, 4, 3, 4] });
    const board = await getLeaderboard(f.phase.id, null, { variant: "partial", metric: "muc" });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [b1, 1, 0.75],
      [a1, 2, 0.25],
    ]);
    // By the primary MUC (minute/100), a1 < b1 as well, but with other values.
    expect((await getLeaderboard(f.phase.id, null, { metric: "muc" })).rows.map((r) => r.value)).toEqual([0.02, 0.01]);
  });

  it("refuses a variant the profile does not have with a 422 naming the allowed ids", async () => {
    const f = await boardFixture("crac");
    await f.add(f.alpha.id, f.u1.id, 1, 0.6, { partial: 0.7 });
    const error = await rejection(getLeaderboard(f.phase.id, null, { variant: "head" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect((error as ValidationError).fieldErrors).toEqual([
      { path: "variant", message: "must be one of partial, exact, singletons (the task's evaluation variants), or empty for the primary setting" },
    ]);
    expect(error.message).toContain("variant");
    // Case matters: ids are exact.
    expect((await rejection(getLeaderboard(f.phase.id, null, { variant: "Partial" }))).httpStatus).toBe(422);
  });

  it("writes one <id>_conll_f1 CSV column per variant with exact values, rank and metric columns following the chosen setting", async () => {
    const f = await boardFixture("crac");
    const x = 0.1 + 0.2; // 0.30000000000000004: full precision must survive
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.6, { partial: x, exact: 2 / 3, singletons: null });
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.5, { partial: 0.8, exact: 0.125, singletons: 1 / 7 });

    const { header, rows } = csvRows(leaderboardCsv(await getLeaderboard(f.phase.id, null, { variant: "partial" })));
    expect(header).toEqual([...LEADERBOARD_CSV_COLUMNS, "partial_conll_f1", "exact_conll_f1", "singletons_conll_f1", "track"]);
    expect(rows.map((r) => [r.get("submission_id"), r.get("rank")])).toEqual([
      [b1, "1"],
      [a1, "2"],
    ]);
    // The metric columns hold the ranked setting's scores (partial match), not the primary 0.6.
    expect(rows[1].get("conll_f1")).toBe("0.30000000000000004");
    expect(rows[1].get("partial_conll_f1")).toBe("0.30000000000000004");
    expect(rows[1].get("exact_conll_f1")).toBe(String(2 / 3));
    expect(rows[1].get("singletons_conll_f1")).toBe("");
    expect(rows[0].get("partial_conll_f1")).toBe("0.8");
    expect(rows[0].get("exact_conll_f1")).toBe("0.125");
    expect(rows[0].get("singletons_conll_f1")).toBe(String(1 / 7));
  });

  it("JSON metrics and the CSV's metric columns are the ranked setting's scores: the variant's on a variant board (empty without them), the primary's otherwise", async () => {
    const f = await boardFixture("crac");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.6, { partial: 0.7, exact: null }, { partialMuc: [1, 4, 1, 4] });
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.5, { partial: 0.8, exact: 0.4 }, { partialMuc: [3, 4, 3, 4] });
    type JsonRow = { submissionId: string; value: number | null; metrics: Record<string, Record<string, number | null>>; variants: Record<string, unknown> };
    const jsonRows = (board: Awaited<ReturnType<typeof getLeaderboard>>) => (leaderboardJson(board) as { variant: string | null; rows: JsonRow[] }).rows;

    const partial = await getLeaderboard(f.phase.id, null, { variant: "partial" });
    expect(leaderboardJson(partial).variant).toBe("partial");
    const rows = jsonRows(partial);
    expect(rows.map((r) => [r.submissionId, r.value, r.metrics.conll!.f1])).toEqual([
      [b1, 0.8, 0.8],
      [a1, 0.7, 0.7],
    ]);
    // Counts too: the partial-match MUC (3 of 4), not the primary one (2 of 100).
    expect(rows[0].metrics.muc).toEqual({ recall: 0.75, precision: 0.75, f1: 0.75, recall_num: 3, recall_den: 4, precision_num: 3, precision_den: 4 });
    expect(rows[0].metrics).toEqual(partial.rows[0].variants.partial);
    expect(Object.keys(rows[0].variants).sort()).toEqual(["exact", "partial"]);
    // The board's rows (the page's table) keep the primary scores in `scores`.
    expect(partial.rows.map((r) => r.scores.conll)).toEqual([{ f1: 0.5 }, { f1: 0.6 }]);

    // A run without scores under the ranked variant: no value, empty metrics and empty CSV cells.
    const exact = await getLeaderboard(f.phase.id, null, { variant: "exact", allRuns: true });
    expect(jsonRows(exact).map((r) => [r.submissionId, r.value, r.metrics])).toEqual([
      [b1, 0.4, { conll: { f1: 0.4 } }],
      [a1, null, {}],
    ]);
    const csv = csvRows(leaderboardCsv(exact)).rows;
    expect(csv.map((r) => [r.get("submission_id"), r.get("conll_f1"), r.get("muc_f1"), r.get("partial_conll_f1"), r.get("exact_conll_f1")])).toEqual([
      [b1, "0.4", "", "0.8", "0.4"],
      [a1, "", "", "0.7", ""],
    ]);
    expect(csvRows(leaderboardCsv(partial)).rows.map((r) => [r.get("muc_recall_num"), r.get("muc_recall_den")])).toEqual([
      ["3", "4"],
      ["1", "4"],
    ]);

    // The primary board: primary scores everywhere, as before.
    const primary = await getLeaderboard(f.phase.id, null);
    expect(jsonRows(primary).map((r) => [r.submissionId, r.metrics.conll!.f1, r.metrics.muc!.recall_den])).toEqual([
      [a1, 0.6, 100],
      [b1, 0.5, 100],
    ]);
    expect(csvRows(leaderboardCsv(primary)).rows.map((r) => r.get("conll_f1"))).toEqual(["0.6", "0.5"]);
  });
});

describe("getLeaderboard of a task without variants (conll2012)", () => {
  it("is unchanged: no variants, the documented CSV columns and an empty track column, and stray variant rows are ignored", async () => {
    const f = await boardFixture("conll2012");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.6, {});
    // Rows under a variant id the profile does not list (e.g. left from an earlier profile).
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.5, { partial: 0.99 });

    const board = await getLeaderboard(f.phase.id, null);
    expect(board.evaluation).toEqual({ profile: "conll2012", label: "CoNLL-2012 (reference scorer: exact spans, singletons kept)", variants: [] });
    expect(board.variant).toBeNull();
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [a1, 1, 0.6],
      [b1, 2, 0.5],
    ]);
    expect(board.rows.map((r) => r.variants)).toEqual([{}, {}]);
    expect(board.rows[1].scores.conll).toEqual({ f1: 0.5 });

    const { header, rows } = csvRows(leaderboardCsv(board));
    expect(header).toEqual([...LEADERBOARD_CSV_COLUMNS, "track"]);
    expect(rows.map((r) => r.get("conll_f1"))).toEqual(["0.6", "0.5"]);
    expect(rows.map((r) => r.get("track"))).toEqual(["", ""]);
    expect([board.tracks, board.track]).toEqual([[], null]);

    const error = await rejection(getLeaderboard(f.phase.id, null, { variant: "partial" }));
    expect(error.httpStatus).toBe(422);
    expect((error as ValidationError).fieldErrors[0]).toEqual({
      path: "variant",
      message: "this task's evaluation profile has no variants; leave it out to rank by the primary setting",
    });
  });
});

describe("getLeaderboard of a phase with tracks", () => {
  /**
   * Two tracks ("LLM" first by position although created second), teams Alpha and Beta with
   * runs in both, a baseline without a track, a baseline in "open", and a run without a track
   * (made before the phase had tracks).
   */
  async function trackFixture() {
    const f = await boardFixture("conll2012");
    const open = await makeTrack(f.db, f.phase.id, "open", { position: 1, description: "Anything goes" });
    const llm = await makeTrack(f.db, f.phase.id, "LLM", { position: 0, description: "Prompted LLMs" });
    const run = async (trackId: string | null, teamId: string, submitterId: string, minute: number, conll: number, isBaseline = false) => {
      const s = await insertSubmissionInTrack(
        f.db,
        { phaseId: f.phase.id, teamId, submitterId, createdAt: at(minute), systemName: `run-${minute}`, isBaseline },
        trackId,
      );
      await insertScores(f.db, s.id, f.phase.id, { conll });
      return s.id;
    };
    const ids = {
      alphaLlm1: await run(llm.id, f.alpha.id, f.u1.id, 1, 0.5),
      alphaLlm2: await run(llm.id, f.alpha.id, f.u1.id, 2, 0.55),
      betaLlm: await run(llm.id, f.beta.id, f.u2.id, 3, 0.6),
      alphaOpen: await run(open.id, f.alpha.id, f.u1.id, 4, 0.9),
      betaOpen1: await run(open.id, f.beta.id, f.u2.id, 5, 0.7),
      betaOpen2: await run(open.id, f.beta.id, f.u2.id, 6, 0.65),
      baseline: await run(null, f.orgTeam.id, f.org.id, 7, 0.58, true),
      openBaseline: await run(open.id, f.orgTeam.id, f.org.id, 8, 0.8, true),
      legacy: await run(null, f.alpha.id, f.u1.id, 9, 0.99),
    };
    return { ...f, llm, open, ids };
  }

  it("ranks each track separately (each team's best in the track), with the baselines without a track on every board", async () => {
    const f = await trackFixture();
    const llmBoard = await getLeaderboard(f.phase.id, null);
    expect(llmBoard.tracks).toEqual([
      { id: f.llm.id, name: "LLM", description: "Prompted LLMs" },
      { id: f.open.id, name: "open", description: "Anything goes" },
    ]);
    expect(llmBoard.track).toEqual({ id: f.llm.id, name: "LLM", description: "Prompted LLMs" });
    expect(llmBoard.rows.map((r) => [r.submissionId, r.rank, r.value, r.track?.name ?? null])).toEqual([
      [f.ids.betaLlm, 1, 0.6, "LLM"],
      [f.ids.baseline, null, 0.58, null],
      [f.ids.alphaLlm2, 2, 0.55, "LLM"],
    ]);

    const openBoard = await getLeaderboard(f.phase.id, null, { track: f.open.id });
    expect(openBoard.track?.name).toBe("open");
    expect(openBoard.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [f.ids.alphaOpen, 1, 0.9],
      [f.ids.openBaseline, null, 0.8],
      [f.ids.betaOpen1, 2, 0.7],
      [f.ids.baseline, null, 0.58],
    ]);
    // By name too, and every run of the track with allRuns; never the run without a track.
    const all = await getLeaderboard(f.phase.id, null, { track: "OPEN", allRuns: "1" });
    expect(all.rows.map((r) => r.submissionId)).toEqual([f.ids.alphaOpen, f.ids.openBaseline, f.ids.betaOpen1, f.ids.betaOpen2, f.ids.baseline]);
    expect(all.rows.some((r) => r.submissionId === f.ids.legacy)).toBe(false);
  });

  it("an unknown track is a 422 naming the choices; a track on a phase without tracks is a 422", async () => {
    const f = await trackFixture();
    const error = (await rejection(getLeaderboard(f.phase.id, null, { track: "closed" }))) as ValidationError;
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors).toEqual([{ path: "track", message: 'No track "closed" in this phase; choose one of "LLM", "open" (by name or id).' }]);
    const plain = await boardFixture("conll2012");
    const none = (await rejection(getLeaderboard(plain.phase.id, null, { track: "LLM" }))) as ValidationError;
    expect(none.fieldErrors).toEqual([{ path: "track", message: "This phase has no tracks; leave out the track." }]);
  });

  it("a withdrawn run leaves its track's board (the team's next run in the track counts); a disqualified one is struck there, unranked", async () => {
    const f = await trackFixture();
    await withdrawSubmission(f.u1.viewer, f.ids.alphaLlm2);
    await disqualifySubmission(f.org.viewer, f.ids.betaOpen1, "Trained on the test set.");
    const llm = await getLeaderboard(f.phase.id, null, { track: "LLM", allRuns: "1" });
    expect(llm.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [f.ids.betaLlm, 1],
      [f.ids.baseline, null],
      [f.ids.alphaLlm1, 2],
    ]);
    const open = await getLeaderboard(f.phase.id, null, { track: "open" });
    expect(open.rows.map((r) => [r.submissionId, r.rank, r.disqualified?.reason ?? null])).toEqual([
      [f.ids.alphaOpen, 1, null],
      [f.ids.openBaseline, null, null],
      [f.ids.betaOpen1, null, "Trained on the test set."],
      [f.ids.betaOpen2, 2, null],
      [f.ids.baseline, null, null],
    ]);
  });

  it("the CSV follows the chosen track, with the run's track name in the last column (empty for a baseline without one)", async () => {
    const f = await trackFixture();
    const { header, rows } = csvRows(leaderboardCsv(await getLeaderboard(f.phase.id, null, { track: f.open.id })));
    expect(header).toEqual([...LEADERBOARD_CSV_COLUMNS, "track"]);
    expect(rows.map((r) => [r.get("submission_id"), r.get("rank"), r.get("track")])).toEqual([
      [f.ids.alphaOpen, "1", "open"],
      [f.ids.openBaseline, "", "open"],
      [f.ids.betaOpen1, "2", "open"],
      [f.ids.baseline, "", ""],
    ]);
  });
});

describe("getLeaderboard of a phase with several datasets", () => {
  /**
   * A crac task's phase with datasets main (from the fixture), cs and de, each with an active
   * gold key; Score rows are the macro-average (counts null) and DatasetScore rows per dataset,
   * as the worker writes them. Runs: Alpha (macro 0.6; main 0.9, cs 0.9, de left out → 0),
   * Beta (macro 0.5; 0.5 each), a baseline (macro 0.3). On cs Beta (0.5) is below Alpha
   * (0.9); on de Beta is first: Alpha left it out.
   */
  async function datasetFixture() {
    const f = await boardFixture("crac");
    const db = f.db;
    const main = await db.dataset.findFirstOrThrow({ where: { phaseId: f.phase.id } });
    const cs = await db.dataset.create({ data: { phaseId: f.phase.id, name: "cs", language: "cs", fileName: "cs.conllu", format: "conllu", position: 1 } });
    const de = await db.dataset.create({ data: { phaseId: f.phase.id, name: "de", language: "de", fileName: "de.conllu", format: "conllu", position: 2 } });
    const golds = new Map<string, string>();
    for (const d of [main, cs, de]) {
      const stored = packFile(bytes(`gold ${d.name}`));
      const g = await db.goldKey.create({
        data: { phaseId: f.phase.id, datasetId: d.id, version: 1, fileName: d.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 1, uploadedById: f.org.id, active: true },
      });
      golds.set(d.id, g.id);
    }
    /** A run with per-dataset primary CoNLL F1 (null: left out) and MUC counts on cs; macro rows averaged over 3. */
    const add = async (teamId: string, submitterId: string, minute: number, per: { main: number | null; cs: number | null; de: number | null }, isBaseline = false) => {
      const s = await insertSubmission(db, { phaseId: f.phase.id, teamId, submitterId, createdAt: at(minute), systemName: `run-${minute}`, isBaseline });
      await db.submission.update({ where: { id: s.id }, data: { goldVersion: null } });
      const byName = { main, cs, de };
      let sum = 0;
      let mucSum = 0;
      for (const [name, value] of Object.entries(per) as ["main" | "cs" | "de", number | null][]) {
        const d = byName[name];
        if (value === null) {
          await db.submissionFile.deleteMany({ where: { submissionId: s.id, datasetId: d.id } });
          continue;
        }
        sum += value;
        if (d.id !== main.id) {
          const stored = packFile(bytes(`${name} ${minute}`));
          await db.submissionFile.create({ data: { submissionId: s.id, phaseId: f.phase.id, datasetId: d.id, fileName: d.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size } });
        }
        await db.submissionFile.update({ where: { submissionId_datasetId: { submissionId: s.id, datasetId: d.id } }, data: { goldKeyId: golds.get(d.id)! } });
        await db.datasetScore.create({ data: { submissionId: s.id, phaseId: f.phase.id, datasetId: d.id, metric: "conll", f1: value } });
        // MUC value/1 both ways, with counts: every metric of a dataset's board.
        const num = value * 4;
        await db.datasetScore.create({
          data: { submissionId: s.id, phaseId: f.phase.id, datasetId: d.id, metric: "muc", recallNum: num, recallDen: 4, precisionNum: num, precisionDen: 4, recall: value, precision: value, f1: value },
        });
        await db.datasetScore.create({ data: { submissionId: s.id, phaseId: f.phase.id, datasetId: d.id, variant: "partial", metric: "conll", f1: value / 2 } });
        mucSum += value;
      }
      await db.score.create({ data: { submissionId: s.id, phaseId: f.phase.id, metric: "conll", f1: sum / 3 } });
      await db.score.create({ data: { submissionId: s.id, phaseId: f.phase.id, metric: "muc", recall: mucSum / 3, precision: mucSum / 3, f1: mucSum / 3 } });
      await db.score.create({ data: { submissionId: s.id, phaseId: f.phase.id, variant: "partial", metric: "conll", f1: sum / 6 } });
      return s.id;
    };
    const ids = {
      alpha: await add(f.alpha.id, f.u1.id, 1, { main: 0.9, cs: 0.9, de: null }),
      beta: await add(f.beta.id, f.u2.id, 2, { main: 0.5, cs: 0.5, de: 0.5 }),
      baseline: await add(f.orgTeam.id, f.org.id, 3, { main: 0.3, cs: 0.3, de: 0.3 }, true),
    };
    return { ...f, main, cs, de, ids };
  }

  it("carries each dataset's primary CoNLL F1, a left-out dataset as 0 marked missing; the macro scores have no counts", async () => {
    const f = await datasetFixture();
    const board = await getLeaderboard(f.phase.id, null);
    expect(board.datasets.map((d) => [d.name, d.language, d.scored])).toEqual([
      ["main", "", true],
      ["cs", "cs", true],
      ["de", "de", true],
    ]);
    expect([board.dataset, board.rankDataset]).toEqual([null, null]);
    expect(board.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [f.ids.alpha, 1],
      [f.ids.beta, 2],
      [f.ids.baseline, null],
    ]);
    expect(board.rows[0].value).toBeCloseTo(0.6, 12);
    expect(board.rows[0].datasets).toEqual({
      main: { missing: false, goldVersion: 1, conllF1: 0.9 },
      cs: { missing: false, goldVersion: 1, conllF1: 0.9 },
      de: { missing: true, goldVersion: null, conllF1: 0 },
    });
    expect(board.rows[0].scores.muc).toMatchObject({ recall_num: null, recall_den: null, precision_num: null, precision_den: null });
    expect(board.rows[0].scores.muc!.f1).toBeCloseTo(0.6, 12);
    expect(board.rows[0].variants.partial.conll!.f1).toBeCloseTo(0.3, 12);
    expect(board.rows[0].goldVersion).toBeNull();

    const json = leaderboardJson(board) as { datasets: unknown; dataset: unknown; rankDataset: unknown; rows: Record<string, unknown>[] };
    expect(json.datasets).toEqual(board.datasets);
    expect([json.dataset, json.rankDataset]).toEqual([null, null]);
    expect(json.rows[0].datasets).toEqual(board.rows[0].datasets);
    expect(json.rows[0].metrics).toBe(board.rows[0].scores);
    expect("missing" in json.rows[0]).toBe(false);
  });

  it("on a variant's macro board, each dataset's column is that variant's CoNLL F1, not the primary one", async () => {
    const f = await datasetFixture();
    const partial = await getLeaderboard(f.phase.id, null, { variant: "partial" });
    expect(partial.rows.map((r) => r.submissionId)).toEqual([f.ids.alpha, f.ids.beta, f.ids.baseline]);
    // The fixture's partial-match CoNLL F1 is half the primary one on every dataset.
    expect(partial.rows[0].datasets).toEqual({
      main: { missing: false, goldVersion: 1, conllF1: 0.45 },
      cs: { missing: false, goldVersion: 1, conllF1: 0.45 },
      de: { missing: true, goldVersion: null, conllF1: 0 },
    });
    expect(partial.rows[1].datasets.de).toEqual({ missing: false, goldVersion: 1, conllF1: 0.25 });
    // The primary board, read after it, still carries the primary values.
    expect((await getLeaderboard(f.phase.id, null)).rows[0].datasets.cs.conllF1).toBe(0.9);
  });

  it("rankDataset ranks by one dataset (a left-out dataset is 0), combined with a variant and a metric", async () => {
    const f = await datasetFixture();
    const de = await getLeaderboard(f.phase.id, null, { rankDataset: "de" });
    expect(de.rankDataset).toBe("de");
    expect(de.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [f.ids.beta, 1, 0.5],
      [f.ids.baseline, null, 0.3],
      [f.ids.alpha, 2, 0],
    ]);
    // Case-insensitive names and ids work; the columns stay.
    expect((await getLeaderboard(f.phase.id, null, { rankDataset: "DE" })).rows.map((r) => r.submissionId)).toEqual(de.rows.map((r) => r.submissionId));
    expect((await getLeaderboard(f.phase.id, null, { rankDataset: f.cs.id })).rankDataset).toBe("cs");
    const csPartial = await getLeaderboard(f.phase.id, null, { rankDataset: "cs", variant: "partial" });
    expect(csPartial.rows.map((r) => [r.submissionId, r.value])).toEqual([
      [f.ids.alpha, 0.45],
      [f.ids.beta, 0.25],
      [f.ids.baseline, 0.15],
    ]);
    const deMuc = await getLeaderboard(f.phase.id, null, { rankDataset: "de", metric: "muc" });
    expect(deMuc.rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [f.ids.beta, 1, 0.5],
      [f.ids.baseline, null, 0.3],
      [f.ids.alpha, 2, 0],
    ]);
  });

  it("?dataset= is that dataset's board: every metric with counts, variants, R/P, a left-out run marked missing", async () => {
    const f = await datasetFixture();
    const board = await getLeaderboard(f.phase.id, null, { dataset: "de", metric: "muc" });
    expect(board.dataset).toEqual({ id: f.de.id, name: "de", language: "de", scored: true });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value, r.missing])).toEqual([
      [f.ids.beta, 1, 0.5, false],
      [f.ids.baseline, null, 0.3, false],
      [f.ids.alpha, 2, 0, true],
    ]);
    expect(board.rows[0].scores.muc).toEqual({ recall: 0.5, precision: 0.5, f1: 0.5, recall_num: 2, recall_den: 4, precision_num: 2, precision_den: 4 });
    expect(board.rows[0].scores.conll).toEqual({ f1: 0.5 });
    expect(board.rows[0].variants.partial.conll).toEqual({ f1: 0.25 });
    expect(board.rows[0].goldVersion).toBe(1);
    expect(board.rows[2].scores).toEqual({});
    expect(board.rows.every((r) => Object.keys(r.datasets).length === 0)).toBe(true);
    const json = leaderboardJson(board) as { dataset: unknown; rows: Record<string, unknown>[] };
    expect(json.dataset).toEqual(board.dataset);
    expect(json.rows.map((r) => r.missing)).toEqual([false, false, true]);
    expect("datasets" in json.rows[0]).toBe(false);
    // A variant on a dataset's board; rankDataset naming another dataset is refused.
    const partial = await getLeaderboard(f.phase.id, null, { dataset: "cs", variant: "partial" });
    expect(partial.rows.map((r) => [r.submissionId, r.value])).toEqual([
      [f.ids.alpha, 0.45],
      [f.ids.beta, 0.25],
      [f.ids.baseline, 0.15],
    ]);
    const both = (await rejection(getLeaderboard(f.phase.id, null, { dataset: "cs", rankDataset: "de" }))) as ValidationError;
    expect(both.fieldErrors[0].path).toBe("rankDataset");
  });

  it("with a variant, JSON metrics are that variant's: the macro-average on the phase-level board, the dataset's scores on a dataset's board", async () => {
    const f = await datasetFixture();
    type JsonRow = { submissionId: string; value: number; metrics: { conll?: { f1: number }; muc?: unknown } };
    const macro = (leaderboardJson(await getLeaderboard(f.phase.id, null, { variant: "partial" })) as { rows: JsonRow[] }).rows;
    // Partial CoNLL F1 is half the primary per dataset, averaged over 3 datasets (alpha left de out).
    expect(macro.map((r) => r.submissionId)).toEqual([f.ids.alpha, f.ids.beta, f.ids.baseline]);
    expect(macro[0].metrics.conll!.f1).toBeCloseTo(0.3, 12);
    expect(macro.map((r) => r.metrics.conll!.f1)).toEqual(macro.map((r) => r.value));
    // The fixture has no partial-match MUC: the primary MUC is not passed off as it.
    expect(macro.every((r) => r.metrics.muc === undefined)).toBe(true);
    const cs = (leaderboardJson(await getLeaderboard(f.phase.id, null, { dataset: "cs", variant: "partial" })) as { rows: JsonRow[] }).rows;
    expect(cs.map((r) => [r.submissionId, r.metrics])).toEqual([
      [f.ids.alpha, { conll: { f1: 0.45 } }],
      [f.ids.beta, { conll: { f1: 0.25 } }],
      [f.ids.baseline, { conll: { f1: 0.15 } }],
    ]);
  });

  it("zeros: whether each dataset's active gold key has zeros, from the stored zero scores' recall denominators, and for the board", async () => {
    const f = await datasetFixture();
    const zero = (submissionId: string, datasetId: string, recallDen: number) =>
      f.db.datasetScore.create({
        data: { submissionId, phaseId: f.phase.id, datasetId, metric: "zero", recallNum: 0, recallDen, precisionNum: 0, precisionDen: 1, recall: 0, precision: 0, f1: 0 },
      });
    // cs: the key has 2 zero anaphors (every run stores the same denominator); de: none; main: no zero score stored.
    await zero(f.ids.beta, f.cs.id, 2);
    await zero(f.ids.alpha, f.cs.id, 2);
    await zero(f.ids.beta, f.de.id, 0);
    // A zero score against an older, inactive de key does not count.
    const stored = packFile(bytes("old de gold"));
    const old = await f.db.goldKey.create({
      data: { phaseId: f.phase.id, datasetId: f.de.id, version: 2, fileName: "de.conllu", sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 1, uploadedById: f.org.id, active: false },
    });
    await f.db.submissionFile.update({ where: { submissionId_datasetId: { submissionId: f.ids.baseline, datasetId: f.de.id } }, data: { goldKeyId: old.id } });
    await zero(f.ids.baseline, f.de.id, 3);

    const board = await getLeaderboard(f.phase.id, null);
    expect(board.zeros).toEqual({ inGold: true, datasets: { main: null, cs: true, de: false } });
    expect((await getLeaderboard(f.phase.id, null, { dataset: "de" })).zeros).toEqual({ inGold: false, datasets: { main: null, cs: true, de: false } });
    expect((await getLeaderboard(f.phase.id, null, { dataset: "main", variant: "partial" })).zeros?.inGold).toBeNull();
    expect((await getLeaderboard(f.phase.id, null, { rankDataset: "de" })).zeros?.inGold).toBe(true);
    expect(leaderboardJson(board).zeros).toEqual({ inGold: true, datasets: { main: null, cs: true, de: false } });
  });

  it("zeros: false when every scored dataset's key is known to have none, null while one is unknown; hidden from a viewer who sees no run", async () => {
    const f = await datasetFixture();
    const zero = (datasetId: string, recallDen: number) =>
      f.db.datasetScore.create({
        data: { submissionId: f.ids.beta, phaseId: f.phase.id, datasetId, metric: "zero", recallNum: 0, recallDen, precisionNum: 0, precisionDen: 0, recall: 0, precision: 0, f1: 0 },
      });
    await zero(f.cs.id, 0);
    await zero(f.de.id, 0);
    // main's key has no known zero count yet: not known for the board.
    expect((await getLeaderboard(f.phase.id, null)).zeros).toEqual({ inGold: null, datasets: { main: null, cs: false, de: false } });
    // (Writing dataset_scores is a board change: the phase's facts are computed again.)
    await zero(f.main.id, 0);
    expect((await getLeaderboard(f.phase.id, null)).zeros).toEqual({ inGold: false, datasets: { main: false, cs: false, de: false } });
    // Hidden until the close: an anonymous viewer sees no run, and no fact of the gold either.
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardTiming: "after_close" } });
    expect((await getLeaderboard(f.phase.id, null)).zeros).toEqual({ inGold: null, datasets: { main: null, cs: null, de: null } });
  });

  it("an unknown dataset is a 422 naming the datasets", async () => {
    const f = await datasetFixture();
    for (const field of ["dataset", "rankDataset"] as const) {
      const error = (await rejection(getLeaderboard(f.phase.id, null, { [field]: "fr" }))) as ValidationError;
      expect(error.httpStatus).toBe(422);
      expect(error.fieldErrors).toEqual([{ path: field, message: 'No dataset "fr" in this phase; choose one of "main", "cs", "de" (by name).' }]);
    }
  });

  it("the CSV: dataset_<name>_conll_f1 and dataset_<name>_missing per dataset before track, rank following rankDataset; a dataset's board has a missing column", async () => {
    const f = await datasetFixture();
    const { header, rows } = csvRows(leaderboardCsv(await getLeaderboard(f.phase.id, null, { rankDataset: "de" })));
    expect(header).toEqual([
      ...LEADERBOARD_CSV_COLUMNS,
      "partial_conll_f1",
      "exact_conll_f1",
      "singletons_conll_f1",
      "dataset_main_conll_f1",
      "dataset_main_missing",
      "dataset_cs_conll_f1",
      "dataset_cs_missing",
      "dataset_de_conll_f1",
      "dataset_de_missing",
      "track",
    ]);
    expect(rows.map((r) => [r.get("submission_id"), r.get("rank"), r.get("dataset_de_conll_f1"), r.get("dataset_de_missing"), r.get("dataset_cs_conll_f1")])).toEqual([
      [f.ids.beta, "1", "0.5", "false", "0.5"],
      [f.ids.baseline, "", "0.3", "false", "0.3"],
      [f.ids.alpha, "2", "0", "true", "0.9"],
    ]);
    // Macro counts are empty cells; the macro F1 is there.
    expect(rows[2].get("muc_recall_num")).toBe("");
    expect(Number(rows[2].get("muc_f1"))).toBeCloseTo(0.6, 12);
    expect(rows[2].get("gold_version")).toBe("");

    const de = csvRows(leaderboardCsv(await getLeaderboard(f.phase.id, null, { dataset: "de" })));
    expect(de.header).toEqual([...LEADERBOARD_CSV_COLUMNS, "partial_conll_f1", "exact_conll_f1", "singletons_conll_f1", "missing", "track"]);
    expect(de.rows.map((r) => [r.get("submission_id"), r.get("rank"), r.get("muc_recall_num"), r.get("missing"), r.get("gold_version")])).toEqual([
      [f.ids.beta, "1", "2", "false", "1"],
      [f.ids.baseline, "", "1.2", "false", "1"],
      [f.ids.alpha, "2", "", "true", ""],
    ]);
  });

  it("a withdrawn run is on neither the macro-averaged board nor any dataset's board; a disqualified one is struck and unranked on each", async () => {
    const f = await datasetFixture();
    await withdrawSubmission(f.u2.viewer, f.ids.beta);
    const macro = await getLeaderboard(f.phase.id, null);
    expect(macro.rows.map((r) => r.submissionId)).toEqual([f.ids.alpha, f.ids.baseline]);
    for (const options of [{ dataset: "cs" }, { dataset: "de" }, { rankDataset: "de" }, { dataset: "cs", allRuns: "1" }]) {
      const board = await getLeaderboard(f.phase.id, null, options);
      expect(board.rows.some((r) => r.submissionId === f.ids.beta), JSON.stringify(options)).toBe(false);
    }
    await disqualifySubmission(f.org.viewer, f.ids.alpha, "Late file.");
    const cs = await getLeaderboard(f.phase.id, null, { dataset: "cs" });
    expect(cs.rows.map((r) => [r.submissionId, r.rank, r.disqualified?.reason ?? null])).toEqual([
      [f.ids.alpha, null, "Late file."],
      [f.ids.baseline, null, null],
    ]);
    const csv = csvRows(leaderboardCsv(await getLeaderboard(f.phase.id, null, { rankDataset: "cs" })));
    expect(csv.rows.map((r) => [r.get("submission_id"), r.get("rank"), r.get("disqualified"), r.get("track")])).toEqual([
      [f.ids.alpha, "", "Late file.", ""],
      [f.ids.baseline, "", "", ""],
    ]);
  });

  it("a phase with one dataset keeps exactly today's board, JSON and CSV; naming its dataset changes nothing", async () => {
    const f = await boardFixture("crac");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.6, { partial: 0.7 });
    const board = await getLeaderboard(f.phase.id, null);
    const json = leaderboardJson(board);
    // No dataset fields; `policy` and each row's `selection` and `own` are the leaderboard policy's (issue 11 §2), `page` its paging (issue 12 §1).
    expect(Object.keys(json).sort()).toEqual(["allRuns", "evaluation", "generatedAt", "metric", "page", "phase", "policy", "rows", "task", "tiePolicy", "track", "tracks", "variant", "zeros"]);
    // No zero score stored: not known; no per-dataset facts on a phase with one dataset.
    expect(json.zeros).toEqual({ inGold: null });
    expect(Object.keys((json.rows as Record<string, unknown>[])[0]).sort()).toEqual(
      ["codeUrl", "disqualified", "goldVersion", "isBaseline", "metrics", "own", "paperUrl", "rank", "scorerVersion", "selection", "submissionId", "submittedAt", "systemName", "team", "track", "value", "variants"].sort(),
    );
    expect((json.rows as Record<string, unknown>[])[0].disqualified).toBeNull();
    expect((json.rows as Record<string, unknown>[])[0]).toMatchObject({ submissionId: a1, goldVersion: 1, metrics: { conll: { f1: 0.6 } } });
    expect(csvRows(leaderboardCsv(board)).header).toEqual([...LEADERBOARD_CSV_COLUMNS, "partial_conll_f1", "exact_conll_f1", "singletons_conll_f1", "track"]);
    const named = await getLeaderboard(f.phase.id, null, { dataset: "main", rankDataset: "main" });
    expect([named.dataset, named.rankDataset]).toEqual([null, null]);
    expect(leaderboardCsv(named)).toBe(leaderboardCsv(board));
    expect((await rejection(getLeaderboard(f.phase.id, null, { dataset: "cs" }))).httpStatus).toBe(422);
  });
});

describe("getLeaderboard with withdrawn and disqualified runs (issue 11)", () => {
  /** Board of a conll2012 task (rule BEST unless given) with a third team, Gamma. */
  async function controlsFixture(selectionRule: "BEST" | "LATEST" = "BEST") {
    const f = await boardFixture("conll2012", selectionRule);
    const u3 = await makeUser(f.db, "U3");
    const gamma = await makeTeam(f.db, "Gamma", [u3.id]);
    return { ...f, u3, gamma };
  }

  it("a withdrawn run is on no board: the team's next best counts, and allRuns, metrics, JSON and CSV leave it out", async () => {
    const f = await controlsFixture();
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.8, {});
    const a2 = await f.add(f.alpha.id, f.u1.id, 2, 0.6, {});
    const b1 = await f.add(f.beta.id, f.u2.id, 3, 0.7, {});
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, 1],
      [b1, 2],
    ]);

    await withdrawSubmission(f.u1.viewer, a1);
    const board = await getLeaderboard(f.phase.id, null);
    expect(board.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [b1, 1],
      [a2, 2],
    ]);
    // Organizers' boards leave it out too (they see the run on the manage page and its own page).
    expect((await getLeaderboard(f.phase.id, f.org.viewer, { allRuns: "1" })).rows.map((r) => r.submissionId)).toEqual([b1, a2]);
    expect((await getLeaderboard(f.phase.id, null, { metric: "muc", allRuns: true })).rows.map((r) => r.submissionId)).toEqual([b1, a2]);
    const json = leaderboardJson(board);
    expect((json.rows as { submissionId: string }[]).map((r) => r.submissionId)).toEqual([b1, a2]);
    const csv = leaderboardCsv(await getLeaderboard(f.phase.id, null, { allRuns: "1" }));
    expect(csv).not.toContain(a1);
    expect(csvRows(csv).rows.map((r) => r.get("submission_id"))).toEqual([b1, a2]);
  });

  it("BEST never selects a disqualified run: the team's next best is ranked, the disqualified run is listed struck and unranked, and counts for no rank, tie or significance", async () => {
    const f = await controlsFixture();
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.9, {});
    const a2 = await f.add(f.alpha.id, f.u1.id, 2, 0.5, {});
    const b1 = await f.add(f.beta.id, f.u2.id, 3, 0.7, {});
    const c1 = await f.add(f.gamma.id, f.u3.id, 4, 0.5, {});
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, 1],
      [b1, 2],
      [c1, 3],
    ]);

    const before = new Date();
    await disqualifySubmission(f.org.viewer, a1, "  Tuned on the test gold.  ");
    const board = await getLeaderboard(f.phase.id, null);
    // a2 (0.5) ties with c1 (0.5): both rank 2, the earlier first; a1 takes no rank and is not counted.
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.value, r.disqualified?.reason ?? null])).toEqual([
      [a1, null, 0.9, "Tuned on the test gold."],
      [b1, 1, 0.7, null],
      [a2, 2, 0.5, null],
      [c1, 2, 0.5, null],
    ]);
    expect(board.rows[0].disqualified!.at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const significance = await boardSignificance(board);
    expect(Object.keys(significance.rows).sort()).toEqual([b1, a2, c1].sort());
    expect(significance.rows[b1].versusAbove).toBeNull();

    // With every run listed, each disqualified one is unranked.
    await disqualifySubmission(f.org.viewer, a2, "Same system as the disqualified run.");
    expect((await getLeaderboard(f.phase.id, null, { allRuns: "1" })).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, null],
      [b1, 1],
      [a2, null],
      [c1, 2],
    ]);
    // One run per team: Alpha has no run left to rank; only the run the board would otherwise show is struck.
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, null],
      [b1, 1],
      [c1, 2],
    ]);

    await requalifySubmission(f.org.viewer, a1);
    await requalifySubmission(f.org.viewer, a2);
    const back = await getLeaderboard(f.phase.id, null);
    expect(back.rows.map((r) => [r.submissionId, r.rank, r.disqualified])).toEqual([
      [a1, 1, null],
      [b1, 2, null],
      [c1, 3, null],
    ]);
  });

  it("LATEST skips a disqualified latest run: the team's previous run counts", async () => {
    const f = await controlsFixture("LATEST");
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.9, {});
    const a2 = await f.add(f.alpha.id, f.u1.id, 2, 0.4, {});
    const b1 = await f.add(f.beta.id, f.u2.id, 3, 0.7, {});
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [b1, 1],
      [a2, 2],
    ]);
    await disqualifySubmission(f.org.viewer, a2, "Broken file.");
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [a1, 1],
      [b1, 2],
      [a2, null],
    ]);
  });

  it("JSON rows carry disqualified {reason, at} (null otherwise); the CSV's disqualified column, after conll_f1, holds the reason, the rank is empty", async () => {
    const f = await controlsFixture();
    const a1 = await f.add(f.alpha.id, f.u1.id, 1, 0.9, {});
    const b1 = await f.add(f.beta.id, f.u2.id, 2, 0.7, {});
    const { disqualified } = await disqualifySubmission(f.org.viewer, a1, "=HYPERLINK(1), with a comma");
    const board = await getLeaderboard(f.phase.id, null);
    const json = JSON.parse(JSON.stringify(leaderboardJson(board))) as { rows: { submissionId: string; rank: number | null; disqualified: unknown }[] };
    expect(json.rows.map((r) => [r.submissionId, r.rank, r.disqualified])).toEqual([
      [a1, null, { reason: "=HYPERLINK(1), with a comma", at: disqualified!.at.toISOString() }],
      [b1, 1, null],
    ]);
    expect(LEADERBOARD_CSV_COLUMNS.slice(-2)).toEqual(["conll_f1", "disqualified"]);
    const { header, rows } = csvRows(leaderboardCsv(board));
    expect(header).toEqual([...LEADERBOARD_CSV_COLUMNS, "track"]);
    expect(rows.map((r) => [r.get("submission_id"), r.get("rank"), r.get("conll_f1"), r.get("disqualified")])).toEqual([
      [a1, "", "0.9", "'=HYPERLINK(1), with a comma"],
      [b1, "1", "0.7", ""],
    ]);
  });
});
