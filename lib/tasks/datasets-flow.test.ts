/**
 * A CRAC-style phase with three CorefUD datasets through the services and the scoring job,
 * against a real (throwaway) database (issue 10's acceptance, the DB side; e2e/datasets.spec.ts
 * is the browser side): datasets and gold keys per dataset, two tracks, archive runs (one
 * leaving a dataset out, which scores 0 there and says so), a hostile archive and a misnamed
 * document refused before the run counts, the macro-average equal to the mean of the
 * per-dataset scores of `evaluate` with the crac preset (within 1e-9), re-ranking by a dataset
 * and by a variant, the CSV export, and the two tracks ranked separately.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn (the test scores the runs itself).
vi.mock("../queue");

import { makeTarGz, makeZip } from "../uploads/archive.fixtures";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { scoreSubmission } from "../worker/scoring-job";
import { KEY_CONLLU, RESPONSE_CONLLU } from "../worker/scoring-job.fixtures";
import { CRAC_PRESET, CRAC_VARIANTS, evaluate, presetOptions } from "../../scoring";
import { readCorpus } from "../../scoring/formats";
import { addDataset, updateDataset } from "./datasets";
import { uploadGoldKey } from "./gold";
import { getLeaderboard } from "../boards/leaderboard";
import { leaderboardCsv } from "../boards/leaderboard-csv";
import { quotaStatus } from "../runs/quota";
import { createSubmission, getSubmissionForViewer } from "../runs/submissions";
import { addTrack } from "./tracks";
import { csvCells, makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);
beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});

const DATASETS = ["ds_a", "ds_b", "ds_c"] as const;
type Dataset = (typeof DATASETS)[number];
const rename = (text: string, d: Dataset) => text.replaceAll("# newdoc id = d", `# newdoc id = ${d}_d`);
const KEY = (d: Dataset) => rename(KEY_CONLLU, d);
const RESPONSE = (d: Dataset) => rename(RESPONSE_CONLLU, d);
const fileOf = (d: Dataset) => `${d}-corefud-test.conllu`;
const score = (d: Dataset, response: string, preset = CRAC_PRESET) =>
  evaluate(readCorpus(Buffer.from(KEY(d)), fileOf(d)), readCorpus(Buffer.from(response), fileOf(d)), presetOptions(preset)).metrics.conll!.f1;

describe("a phase with three CorefUD datasets, through the services and the worker", () => {
  it("gold per dataset, archive runs (one with a dataset missing), refusals at no cost, macro-average, re-ranking, CSV and tracks", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const alpha = await makeUser(db, "Alpha");
    const beta = await makeUser(db, "Beta");
    const alphaTeam = await makeTeam(db, "Team Alpha", [alpha.id]);
    await makeTeam(db, "Team Beta", [beta.id]);
    const { phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], evaluationProfile: "crac" });
    await updateDataset(organizer.viewer, dataset.id, { name: "ds_a", fileName: fileOf("ds_a") });
    await addDataset(organizer.viewer, phase.id, { name: "ds_b", language: "en", fileName: fileOf("ds_b"), format: "conllu" });
    await addDataset(organizer.viewer, phase.id, { name: "ds_c", language: "cs", fileName: fileOf("ds_c"), format: "conllu" });
    for (const name of ["LLM", "unconstrained"]) await addTrack(organizer.viewer, phase.id, { name });

    // Gold: one dataset at a time, then the other two in one archive; an identical file is a no-op.
    expect((await uploadGoldKey(organizer.viewer, phase.id, "a.conllu", Buffer.from(KEY("ds_a")), { datasetId: "ds_a" })).unchanged).toBe(false);
    const archive = await uploadGoldKey(organizer.viewer, phase.id, "gold.tar.gz", await makeTarGz(["ds_b", "ds_c"].map((d) => ({ path: fileOf(d as Dataset), text: KEY(d as Dataset) }))));
    expect(archive.datasets.map((d) => [d.dataset.name, d.gold.version, d.unchanged])).toEqual([
      ["ds_b", 1, false],
      ["ds_c", 1, false],
    ]);
    expect((await uploadGoldKey(organizer.viewer, phase.id, "a.conllu", Buffer.from(KEY("ds_a")), { datasetId: "ds_a" })).unchanged).toBe(true);

    const submit = (viewer: typeof alpha.viewer, bytes: Uint8Array, fileName: string, systemName: string, track: string, acknowledgeWarnings = false) =>
      createSubmission({ viewer, phaseId: phase.id, fileName, bytes, systemName, track, acknowledgeWarnings });
    const alphaQuota = async () => (await quotaStatus(alphaTeam.id, phase.id, new Date(), db)).usedToday;
    const before = await alphaQuota();

    // A hostile archive: 422, nothing stored, no quota used.
    const hostile = await rejection(submit(alpha.viewer, await makeZip([{ path: `a/b/${fileOf("ds_a")}`, text: KEY("ds_a") }]), "run.zip", "hostile", "LLM"));
    expect(hostile).toBeInstanceOf(ValidationError);
    expect((hostile as ValidationError & { detail?: string }).detail).toContain("a/b/");
    // A misnamed document in ds_b: 409 naming the dataset before the run counts.
    const misnamedArchive = await makeZip(DATASETS.map((d) => ({ path: fileOf(d), text: d === "ds_b" ? KEY(d).replace("ds_b_d2", "ds_b_d2x") : KEY(d) })));
    const misnamed = await rejection(submit(alpha.viewer, misnamedArchive, "run.zip", "misnamed", "LLM"));
    expect(misnamed).toBeInstanceOf(ConflictError);
    expect(misnamed.message).toContain("ds_b");
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await alphaQuota()).toBe(before);

    // Runs: alpha leaves ds_c out in the LLM track.
    const runs: Record<string, { user: typeof alpha; track: string; files: Partial<Record<Dataset, string>> }> = {
      "alpha-llm": { user: alpha, track: "LLM", files: { ds_a: RESPONSE("ds_a"), ds_b: KEY("ds_b") } },
      "beta-llm": { user: beta, track: "LLM", files: { ds_a: KEY("ds_a"), ds_b: RESPONSE("ds_b"), ds_c: KEY("ds_c") } },
      "alpha-open": { user: alpha, track: "unconstrained", files: { ds_a: KEY("ds_a"), ds_b: KEY("ds_b"), ds_c: RESPONSE("ds_c") } },
    };
    const ids: Record<string, string> = {};
    for (const [name, run] of Object.entries(runs)) {
      const entries = Object.entries(run.files).map(([d, text]) => ({ path: fileOf(d as Dataset), text }));
      const leftOut = DATASETS.some((d) => run.files[d] === undefined);
      // Leaving a dataset out asks for confirmation first (issue 24 §1), as a missing document does.
      if (leftOut) expect(await rejection(submit(run.user.viewer, await makeZip(entries), "run.zip", name, run.track))).toBeInstanceOf(ConflictError);
      const created = await submit(run.user.viewer, await makeZip(entries), "run.zip", name, run.track, leftOut);
      expect(created.missingDatasets).toEqual(DATASETS.filter((d) => run.files[d] === undefined));
      ids[name] = created.id;
      expect((await scoreSubmission(created.id, { workerId: "test" })).status).toBe("SCORED");
    }
    const view = await getSubmissionForViewer(ids["alpha-llm"], alpha.viewer);
    expect(view.datasets.map((d) => [d.name, d.missing])).toEqual([
      ["ds_a", false],
      ["ds_b", false],
      ["ds_c", true],
    ]);

    // Per dataset the scorer's CoNLL F1 (crac preset), a left-out dataset 0; the run's score their mean.
    const llm = await getLeaderboard(phase.id, null, { track: "LLM" });
    expect(llm.rows.map((r) => r.systemName)).toEqual(["beta-llm", "alpha-llm"]);
    for (const row of llm.rows) {
      const files = runs[row.systemName].files;
      const expected = DATASETS.map((d) => (files[d] === undefined ? 0 : score(d, files[d]!)));
      for (const [i, d] of DATASETS.entries()) {
        expect(row.datasets![d].missing).toBe(files[d] === undefined);
        expect(Math.abs(row.datasets![d].conllF1! - expected[i])).toBeLessThan(1e-9);
      }
      expect(Math.abs(row.scores.conll!.f1 - expected.reduce((a, b) => a + b, 0) / 3)).toBeLessThan(1e-9);
      // Each variant's macro-average too.
      for (const variant of CRAC_VARIANTS) {
        const mean = DATASETS.map((d) => (files[d] === undefined ? 0 : score(d, files[d]!, variant.preset))).reduce((a, b) => a + b, 0) / 3;
        expect(Math.abs(row.variants[variant.id].conll!.f1 - mean)).toBeLessThan(1e-9);
      }
    }
    // Re-ranked by ds_b alone, alpha (perfect there) is first; by a variant, the board follows it.
    const byB = await getLeaderboard(phase.id, null, { track: "LLM", rankDataset: "ds_b" });
    expect(byB.rows.map((r) => r.systemName)).toEqual(["alpha-llm", "beta-llm"]);
    const byExact = await getLeaderboard(phase.id, null, { track: "LLM", variant: "exact" });
    expect(byExact.variant).toBe("exact");
    const exactMeans = byExact.rows.map((r) => r.variants.exact.conll!.f1);
    expect(exactMeans).toEqual([...exactMeans].sort((a, b) => b - a));
    // ds_c's own board: the left-out run at 0, marked.
    const dsC = await getLeaderboard(phase.id, null, { track: "LLM", dataset: "ds_c" });
    expect(dsC.rows.map((r) => [r.systemName, r.missing])).toEqual([
      ["beta-llm", false],
      ["alpha-llm", true],
    ]);

    // The CSV export: a CoNLL F1 and a missing column per dataset, in the board's order.
    const [header, ...lines] = leaderboardCsv(byB).trim().split("\r\n").map(csvCells);
    const col = (name: string) => header.indexOf(name);
    for (const d of DATASETS) expect(col(`dataset_${d}_conll_f1`)).toBeGreaterThan(-1);
    expect(lines.map((l) => [l[col("system")], l[col("dataset_ds_c_missing")], Number(l[col("dataset_ds_c_conll_f1")])])).toEqual([
      ["alpha-llm", "true", 0],
      ["beta-llm", "false", 1],
    ]);

    // The other track is ranked on its own.
    const open = await getLeaderboard(phase.id, null, { track: "unconstrained" });
    expect(open.rows.map((r) => r.systemName)).toEqual(["alpha-open"]);
  }, 120_000);
});
