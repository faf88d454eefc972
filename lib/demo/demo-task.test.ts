/**
 * The demo loader against a real (throwaway) database: it creates the task, the gold key
 * and three baseline runs once, is idempotent, and the baselines score through the real
 * scoring job with different numbers.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { stopBoss } from "../queue";
import { scoreSubmission } from "../worker/scoring-job";
import { DEMO_TASK_SLUG, loadDemoTask } from "./demo-task";

// The demo files ship with the repository (lib/demo/data/litbank/): no shared data needed.
describe("loadDemoTask", () => {
  const testDb = useTestDatabase();

  it("creates the task, gold key and baselines once, and they score differently", async () => {
    const lines: string[] = [];
    try {
      const first = await loadDemoTask({ log: (l) => lines.push(l) });
      expect(first.created).toEqual({ task: true, gold: true, published: true, team: true, baselines: ["singletons", "exact-match", "string-and-pronoun-match"] });

      const db = testDb.prisma;
      const task = await db.task.findUniqueOrThrow({ where: { slug: DEMO_TASK_SLUG }, include: { phases: true } });
      expect(task.title).toBe("LitBank coreference (demo)");
      // Published through publishTask (audited) once the gold key was in, so anyone sees it.
      expect(task.status).toBe("PUBLISHED");
      expect(await db.auditEvent.count({ where: { action: "task.publish", targetId: task.id } })).toBe(1);
      expect(lines).toContain('published task "LitBank coreference (demo)"');
      expect(task.dataLicense).toContain("CC BY 4.0");
      expect(task.dataSource).toContain("3e50db0f");
      const gold = await db.goldKey.findFirstOrThrow({ where: { phaseId: first.phaseId, active: true } });
      expect(gold.documentCount).toBe(10);
      expect((gold.stats as { mentions: number }).mentions).toBe(2832);

      const again = await loadDemoTask();
      expect(again.created).toEqual({ task: false, gold: false, published: false, team: false, baselines: [] });
      const runs = await db.submission.findMany({ where: { phaseId: first.phaseId }, orderBy: { createdAt: "asc" } });
      expect(runs).toHaveLength(3);
      expect(runs.every((r) => r.isBaseline && r.status === "QUEUED")).toBe(true);

      const conll: number[] = [];
      for (const run of runs) {
        expect((await scoreSubmission(run.id, { workerId: "test" })).status).toBe("SCORED");
        const row = await db.score.findFirstOrThrow({ where: { submissionId: run.id, metric: "conll" } });
        conll.push(row.f1);
      }
      expect(new Set(conll).size).toBe(3);
    } finally {
      await stopBoss();
    }
  }, 120_000);
});
