/**
 * The GUM demo loader against a real (throwaway) database: it creates the crac-profile task
 * with six genre datasets, their CorefUD gold keys (one archive upload) and three baseline
 * runs (each a `.tar.gz` with one file per dataset) once, and is idempotent. The baselines
 * score through the real scoring job: every per-dataset CoNLL F1 equals what the CLI prints
 * for that dataset's key and response with `--preset crac`, and the phase-level score is the
 * mean of those CLI scores (issue 10's acceptance, within 1e-9); the variants equal
 * `evaluate` with their presets. Loading both demos adds the LitBank one beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRAC_VARIANTS, evaluate, presetOptions } from "../../scoring/index";
import { main } from "../../scoring/cli/main";
import { readCorefUD } from "../../scoring/formats/conllu";
import { useTestDatabase } from "../db/test-db";
import { stopBoss } from "../queue";
import { unpackFile } from "../storage";
import { scoreSubmission } from "../worker/scoring-job";
import { sampleSubmission } from "../runs/participant-files";
import { createSubmission } from "../runs/submissions";
import { DEMO_BASELINE_TEAM, DEMO_ORGANIZER_EMAIL, DEMO_TASK_SLUG, GUM_DEMO_TASK_SLUG, loadDemoTasks, loadGumDemoTask } from "./demo-task";
import { GUM_GENRES } from "./gum";

const dir = mkdtempSync(join(tmpdir(), "gum-demo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's `score --preset crac --format json` CoNLL F1 (a fraction) for a key and a response. */
async function cliConll(key: Uint8Array, response: Uint8Array, name: string): Promise<number> {
  const keyPath = join(dir, `${name}.key.conllu`);
  const responsePath = join(dir, `${name}.response.conllu`);
  writeFileSync(keyPath, key);
  writeFileSync(responsePath, response);
  let out = "";
  const code = await main(["score", keyPath, responsePath, "--preset", "crac", "--format", "json"], { stdout: (t) => (out += t), stderr: () => {} });
  expect(code).toBe(0);
  return (JSON.parse(out) as { metrics: { conll: { f1: number } } }).metrics.conll.f1;
}

describe("loadGumDemoTask", () => {
  const testDb = useTestDatabase();

  it("creates the crac task, six genre datasets, their gold keys and the baselines once; they score as the CLI with --preset crac", async () => {
    try {
      const lines: string[] = [];
      const first = await loadGumDemoTask({ log: (l) => lines.push(l) });
      expect(first.created).toEqual({ task: true, gold: true, published: true, team: true, baselines: ["singletons", "same-head", "head-and-pronoun"] });
      expect(first.source).toBe("shipped copy");

      const db = testDb.prisma;
      const task = await db.task.findUniqueOrThrow({ where: { slug: GUM_DEMO_TASK_SLUG }, include: { phases: true } });
      expect(task.title).toBe("GUM multi-genre (CorefUD demo)");
      expect(task.evaluationProfile).toBe("crac");
      expect(task.status).toBe("PUBLISHED");
      expect(await db.auditEvent.count({ where: { action: "task.publish", targetId: task.id } })).toBe(1);
      expect(task.dataLicense).toContain("CC BY-SA 3.0");
      expect(task.dataLicense).toContain("CC BY 4.0");
      expect(task.dataSource).toContain("Zeldes");
      expect(task.dataSource).toContain("72ce5ac1");
      expect(task.description).toContain("newdoc id");
      expect(task.phases.map((p) => [p.name, p.closesAt.getUTCFullYear()])).toEqual([["test", 2099]]);

      const datasets = await db.dataset.findMany({ where: { phaseId: first.phaseId }, orderBy: { position: "asc" } });
      expect(datasets.map((d) => [d.name, d.language, d.fileName, d.format])).toEqual(
        GUM_GENRES.map((g) => [`en_gum_${g.genre}`, "en", `en_gum_${g.genre}-corefud-test.conllu`, "conllu"]),
      );
      const golds = await db.goldKey.findMany({ where: { phaseId: first.phaseId, active: true } });
      expect(golds).toHaveLength(6);
      const keyOf = new Map(golds.map((g) => [g.datasetId, unpackFile(g.gzip, g.sha256)]));
      // Each key parsed once, for every run below (`evaluate` leaves its corpora as they are).
      const keyCorpusOf = new Map(datasets.map((d) => [d.id, readCorefUD(keyOf.get(d.id)!, d.fileName)]));
      let mentions = 0;
      for (const d of datasets) {
        const gold = golds.find((g) => g.datasetId === d.id)!;
        expect([gold.fileName, gold.version, gold.documentCount]).toEqual([d.fileName, 1, 2]);
        mentions += keyCorpusOf.get(d.id)!.documents.flatMap((doc) => doc.corefud!.entities).reduce((a, e) => a + e.length, 0);
      }
      expect(mentions).toBe(3142);

      const again = await loadGumDemoTask();
      expect(again.created).toEqual({ task: false, gold: false, published: false, team: false, baselines: [] });
      expect(await db.dataset.count({ where: { phaseId: first.phaseId } })).toBe(6);
      const runs = await db.submission.findMany({ where: { phaseId: first.phaseId }, orderBy: { createdAt: "asc" }, include: { files: true } });
      expect(runs.map((r) => r.fileName)).toEqual(["gum-singletons.tar.gz", "gum-same-head.tar.gz", "gum-head-and-pronoun.tar.gz"]);
      expect(runs.every((r) => r.isBaseline && r.status === "QUEUED" && r.files.length === 6)).toBe(true);
      // Every key document is in every run: the upload's document check had nothing to warn about.
      expect(lines.filter((l) => l.includes("warning"))).toEqual([]);

      const macro: number[] = [];
      for (const run of runs) {
        expect((await scoreSubmission(run.id, { workerId: "test" })).status).toBe("SCORED");
        const perDataset: number[] = [];
        for (const d of datasets) {
          const file = run.files.find((f) => f.datasetId === d.id)!;
          expect(file.fileName).toBe(d.fileName);
          const responseBytes = unpackFile(file.gzip, file.sha256);
          const cli = await cliConll(keyOf.get(d.id)!, responseBytes, `${run.id}-${d.name}`);
          const row = await db.datasetScore.findFirstOrThrow({ where: { submissionId: run.id, datasetId: d.id, metric: "conll", variant: "" } });
          expect(Math.abs(row.f1 - cli)).toBeLessThan(1e-9);
          const key = keyCorpusOf.get(d.id)!;
          const response = readCorefUD(responseBytes, file.fileName);
          for (const variant of CRAC_VARIANTS) {
            const stored = await db.datasetScore.findFirstOrThrow({ where: { submissionId: run.id, datasetId: d.id, metric: "conll", variant: variant.id } });
            expect(Math.abs(stored.f1 - evaluate(key, response, presetOptions(variant.preset)).metrics.conll!.f1)).toBeLessThan(1e-9);
          }
          perDataset.push(cli);
        }
        const row = await db.score.findFirstOrThrow({ where: { submissionId: run.id, metric: "conll", variant: "" } });
        const mean = perDataset.reduce((a, b) => a + b, 0) / perDataset.length;
        expect(Math.abs(row.f1 - mean)).toBeLessThan(1e-9);
        macro.push(row.f1);
      }
      expect(macro[0]).toBe(0);
      // Nor had the scorer (no missing or unknown documents, nothing odd in the files).
      const scored = await db.submission.findMany({ where: { phaseId: first.phaseId }, select: { warnings: true, status: true } });
      expect(scored).toEqual(runs.map(() => ({ warnings: [], status: "SCORED" })));
      expect(new Set(macro).size).toBe(3);

      // The README's demo path: download the phase's sample submission (anonymously, as a
      // reader of the published task) and submit it as it is: one archive of the six named
      // files, accepted with no warning to confirm, and scored (0 on every dataset: it
      // predicts no mention).
      expect(lines.filter((l) => l.startsWith("derived the blind input"))).toHaveLength(6);
      const sample = await sampleSubmission(null, first.phaseId);
      expect(sample.fileName).toMatch(/\.tar\.gz$/);
      const organizer = await db.user.findUniqueOrThrow({ where: { email: DEMO_ORGANIZER_EMAIL } });
      const team = await db.team.findFirstOrThrow({ where: { name: DEMO_BASELINE_TEAM } });
      const submitted = await createSubmission({ viewer: { userId: organizer.id, role: "ADMIN" }, phaseId: first.phaseId, team: team.id, fileName: sample.fileName, bytes: sample.bytes, systemName: "the README's sample submission" });
      expect(submitted.warnings).toEqual([]);
      expect((await scoreSubmission(submitted.id, { workerId: "test" })).status).toBe("SCORED");
      const sampleFiles = await db.submissionFile.findMany({ where: { submissionId: submitted.id }, select: { fileName: true } });
      expect(sampleFiles.map((f) => f.fileName).sort()).toEqual(datasets.map((d) => d.fileName).sort());
      expect((await db.score.findFirstOrThrow({ where: { submissionId: submitted.id, metric: "conll", variant: "" } })).f1).toBe(0);

      // Both demos: the LitBank one is added, the GUM one is left as it is.
      const both = await loadDemoTasks();
      expect(both.litbank.created.task).toBe(true);
      expect(both.gum.created).toEqual({ task: false, gold: false, published: false, team: false, baselines: [] });
      expect(await db.task.count({ where: { slug: { in: [DEMO_TASK_SLUG, GUM_DEMO_TASK_SLUG] } } })).toBe(2);
    } finally {
      await stopBoss();
    }
  }, 240_000);
});
