/**
 * The GUM demo loader against a real (throwaway) database: it creates the crac-profile task,
 * the 12-document CorefUD gold key and three baseline runs once, is idempotent, and the
 * baselines score through the real scoring job with the CLI's numbers (`evaluate` with the
 * crac preset), variants included. Loading both demos adds the LitBank one beside it.
 */
import { describe, expect, it } from "vitest";
import { CRAC_PRESET, CRAC_VARIANTS, evaluate, presetOptions } from "../../scoring/index";
import { readCorefUD } from "../../scoring/formats/conllu";
import { useTestDatabase } from "../db/test-db";
import { stopBoss } from "../queue";
import { unpackFile } from "../storage";
import { scoreSubmission } from "../worker/scoring-job";
import { DEMO_TASK_SLUG, GUM_DEMO_GOLD_FILE, GUM_DEMO_TASK_SLUG, loadDemoTasks, loadGumDemoTask } from "./demo-task";

describe("loadGumDemoTask", () => {
  const testDb = useTestDatabase();

  it("creates the crac task, gold key and baselines once; they score as evaluate() with the crac preset", async () => {
    try {
      const lines: string[] = [];
      const first = await loadGumDemoTask({ log: (l) => lines.push(l) });
      expect(first.created).toEqual({ task: true, gold: true, team: true, baselines: ["singletons", "same-head", "head-and-pronoun"] });
      expect(first.source).toBe("shipped copy");

      const db = testDb.prisma;
      const task = await db.task.findUniqueOrThrow({ where: { slug: GUM_DEMO_TASK_SLUG }, include: { phases: true } });
      expect(task.title).toBe("GUM multi-genre (CorefUD demo)");
      expect(task.evaluationProfile).toBe("crac");
      expect(task.dataLicense).toContain("CC BY-SA 3.0");
      expect(task.dataLicense).toContain("CC BY 4.0");
      expect(task.dataSource).toContain("Zeldes");
      expect(task.dataSource).toContain("72ce5ac1");
      expect(task.description).toContain("newdoc id");
      expect(task.phases.map((p) => [p.name, p.closesAt.getUTCFullYear()])).toEqual([["test", 2099]]);
      const gold = await db.goldKey.findFirstOrThrow({ where: { phaseId: first.phaseId, active: true } });
      expect(gold.fileName).toBe(GUM_DEMO_GOLD_FILE);
      expect(gold.documentCount).toBe(12);
      const keyBytes = unpackFile(gold.gzip, gold.sha256);
      const key = readCorefUD(keyBytes, GUM_DEMO_GOLD_FILE);
      expect(key.documents.flatMap((d) => d.corefud!.entities).reduce((a, e) => a + e.length, 0)).toBe(3142);

      const again = await loadGumDemoTask();
      expect(again.created).toEqual({ task: false, gold: false, team: false, baselines: [] });
      const runs = await db.submission.findMany({ where: { phaseId: first.phaseId }, orderBy: { createdAt: "asc" } });
      expect(runs.map((r) => r.fileName)).toEqual(["gum-singletons.conllu", "gum-same-head.conllu", "gum-head-and-pronoun.conllu"]);
      expect(runs.every((r) => r.isBaseline && r.status === "QUEUED")).toBe(true);
      // Every key document is in every run: the upload's document check had nothing to warn about.
      expect(lines.filter((l) => l.includes("warning"))).toEqual([]);

      const conll: number[] = [];
      for (const run of runs) {
        expect((await scoreSubmission(run.id, { workerId: "test" })).status).toBe("SCORED");
        const response = readCorefUD(unpackFile(run.gzip, run.sha256), run.fileName);
        const expected = evaluate(key, response, presetOptions(CRAC_PRESET)).metrics.conll!.f1;
        const row = await db.score.findFirstOrThrow({ where: { submissionId: run.id, metric: "conll", variant: "" } });
        expect(Math.abs(row.f1 - expected)).toBeLessThan(1e-9);
        for (const variant of CRAC_VARIANTS) {
          const stored = await db.score.findFirstOrThrow({ where: { submissionId: run.id, metric: "conll", variant: variant.id } });
          expect(Math.abs(stored.f1 - evaluate(key, response, presetOptions(variant.preset)).metrics.conll!.f1)).toBeLessThan(1e-9);
        }
        conll.push(row.f1);
      }
      expect(conll[0]).toBe(0);
      // Nor had the scorer (no missing or unknown documents, nothing odd in the files).
      const scored = await db.submission.findMany({ where: { phaseId: first.phaseId }, select: { warnings: true, status: true } });
      expect(scored).toEqual(runs.map(() => ({ warnings: [], status: "SCORED" })));
      expect(new Set(conll).size).toBe(3);

      // Both demos: the LitBank one is added, the GUM one is left as it is.
      const both = await loadDemoTasks();
      expect(both.litbank.created.task).toBe(true);
      expect(both.gum.created).toEqual({ task: false, gold: false, team: false, baselines: [] });
      expect(await db.task.count({ where: { slug: { in: [DEMO_TASK_SLUG, GUM_DEMO_TASK_SLUG] } } })).toBe(2);
    } finally {
      await stopBoss();
    }
  }, 180_000);
});
