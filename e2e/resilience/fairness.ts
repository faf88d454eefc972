/**
 * Resilience: scoring fairness (issue 23 F10). One team's slow runs must not make another
 * team's run wait: the worker has two scoring slots (WORKER_CONCURRENCY's default) and scores
 * one run per team at a time (`claimSubmission` in lib/submission-states.ts), so while the
 * hostile team's first run holds one slot, its other runs are deferred and the other slot
 * stays free for another team; the queue is fair per team as well (lib/queue.ts, "Fair per
 * team").
 *
 * The hostile team's runs are within the upload bounds (scoring/formats/density.ts: 2 mentions
 * per token) and slow to score anyway: every token carries two one-word mentions of different
 * entities (15,000 entities), the shape of the issue's 198-second archive, on the gold key's
 * one document. The site has two scoring slots (one worker, WORKER_CONCURRENCY unset: 2).
 *
 * Asserted (behaviour, and latency only as a ratio to a baseline measured on the same site):
 * - the normal run is SCORED while the hostile team's first run is still SCORING (it does not
 *   wait for it), and starts before the hostile team's second run;
 * - it starts within {@link START_RATIO}× the quiet baseline's upload-to-scored time after its
 *   upload (the free slot goes to it at once);
 * - no two of the hostile team's runs are SCORING at the same time;
 * - every run is scored exactly once.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { readRuns, scoredLogCounts, seconds, waitForRuns, type RunRow } from "./checks";
import { uploadRun } from "./clients";
import type { Site } from "./harness";
import { createAccount, createScoredTask, createTeamWith, RUN, useSuiteSite } from "./seed";

/** Tokens of a hostile run's one document (two mentions each: 10,000 mentions, about 0.13 MB; a few seconds to score here). */
const HOSTILE_TOKENS = 5000;

/** How many hostile runs the hostile team submits, one after the other (two: the second must wait for the first, not share the slots with it). */
const HOSTILE_RUNS = 2;

/**
 * The normal run must start within this many quiet baselines (upload to SCORED of the same
 * run alone) after its upload. The free slot takes it at once (tens of ms); with one slot, or
 * a slot taken by the hostile team's second run, it would wait for a hostile run (seconds).
 */
const START_RATIO = 5;

/**
 * A run for the suite's gold key (document `LuoTestCase`) whose tokens each carry two
 * one-word mentions of different entities: within the density bound, slow to score.
 */
function hostileRun(tokens: number): string {
  const lines = ["#begin document (LuoTestCase); "];
  for (let i = 0; i < tokens; i++) lines.push(`test1\t0\t${i}\tw\t(${(2 * i) % 15_000})|(${(2 * i + 1) % 15_000})`);
  lines.push("#end document", "");
  return lines.join("\n");
}

/** Milliseconds between two timestamps of a run row. */
const between = (from: Date | null, to: Date | null) => (from && to ? to.getTime() - from.getTime() : NaN);

/**
 * Registers the fairness test (a node:test `describe`) on the site `getSite` returns once the
 * suite's `before` has started it.
 */
export function fairness(getSite: () => Site): void {
  describe("scoring fairness", () => {
    let site!: Site;
    useSuiteSite(getSite, (s) => (site = s));

    test(`fairness: a normal run submitted right after ${HOSTILE_RUNS} slow runs of another team is scored while the first still scores, starting within ${START_RATIO}× the quiet baseline; the other team scores one run at a time`, { timeout: 300_000 }, async (t) => {
      const task = await createScoredTask(null);
      const hostile = await createAccount("fairness-hostile");
      const normal = await createAccount("fairness-normal");
      const hostileTeam = await createTeamWith(hostile, []);
      const normalTeam = await createTeamWith(normal, []);
      const uploadNormal = async () => {
        const r = await uploadRun(site.baseUrl, task.phaseId, normal.token, RUN, "run.conll", { team: normalTeam.id, systemName: "normal system" });
        assert.equal(r.status, 202, `the normal run is accepted: ${JSON.stringify(r.body)}`);
        return String(r.body.id);
      };

      // Baseline: the normal run alone on the quiet site, twice (the slower one counts).
      const baselineRows: RunRow[] = [];
      for (let i = 0; i < 2; i++) baselineRows.push(...(await waitForRuns(site, [await uploadNormal()], 60_000)));
      for (const row of baselineRows) assert.equal(row.status, "SCORED", `the baseline run is scored: ${row.error_message ?? ""}`);
      const baselineMs = Math.max(...baselineRows.map((r) => between(r.created_at, r.scored_at)));
      t.diagnostic(`baseline: a normal run alone is scored ${seconds(baselineMs)} s after its upload is stored`);

      // The hostile team's runs, one after the other, then the normal run at once.
      const file = path.join(site.dir, "fairness-hostile.conll");
      const text = hostileRun(HOSTILE_TOKENS);
      await writeFile(file, text);
      const hostileIds: string[] = [];
      for (let i = 0; i < HOSTILE_RUNS; i++) {
        const r = await uploadRun(site.baseUrl, task.phaseId, hostile.token, new TextEncoder().encode(text), "hostile.conll", { team: hostileTeam.id, systemName: `hostile ${i + 1}` });
        assert.equal(r.status, 202, `hostile run ${i + 1} is within the upload bounds and accepted: ${JSON.stringify(r.body).slice(0, 300)}`);
        hostileIds.push(String(r.body.id));
      }
      const normalId = await uploadNormal();
      const atNormal = await readRuns(site, hostileIds);
      t.diagnostic(
        `hostile runs: ${HOSTILE_TOKENS} tokens, ${2 * HOSTILE_TOKENS} mentions, ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB each; when the normal run was stored: ${hostileIds.map((id) => atNormal.find((r) => r.id === id)?.status).join(", ")}`,
      );

      const rows = await waitForRuns(site, [...hostileIds, normalId], 280_000);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const n = byId.get(normalId)!;
      const h = hostileIds.map((id) => byId.get(id)!);
      h.forEach((r, i) =>
        t.diagnostic(`hostile run ${i + 1}: ${r.status}, waited ${seconds(between(r.created_at, r.started_at))} s, scored in ${seconds(between(r.started_at, r.scored_at))} s${r.error_message ? `: ${r.error_message.slice(0, 160)}` : ""}`),
      );
      t.diagnostic(`normal run: ${n.status}, waited ${seconds(between(n.created_at, n.started_at))} s, scored in ${seconds(between(n.started_at, n.scored_at))} s, ${seconds(between(n.created_at, n.scored_at))} s after its upload (baseline ${seconds(baselineMs)} s)`);

      assert.equal(n.status, "SCORED", `the normal run is scored: ${n.error_message ?? ""}`);
      h.forEach((r, i) => assert.equal(r.status, "SCORED", `hostile run ${i + 1} is within the bounds and its time budget, so it is scored too: ${r.error_message ?? ""}`));
      // The hostile runs that started before the normal one must have started before it arrived
      // (one held the slot then); at least one waiting hostile run comes after it.
      const ahead = h.filter((r) => r.started_at!.getTime() <= n.started_at!.getTime());
      assert.ok(ahead.length < HOSTILE_RUNS, `the normal run starts before at least one of the hostile team's waiting runs (started before it: ${ahead.length} of ${HOSTILE_RUNS})`);
      for (const r of ahead) assert.ok(r.started_at!.getTime() <= n.created_at.getTime(), `no hostile run still waiting when the normal run arrived starts before it (one started ${seconds(between(n.created_at, r.started_at))} s after)`);
      // Two slots, one run per team: the normal run does not wait for the hostile run holding a slot.
      assert.ok(n.scored_at!.getTime() <= h[0].scored_at!.getTime(), `the normal run is scored while hostile run 1 is still scoring (normal scored ${seconds(between(h[0].scored_at, n.scored_at))} s after hostile run 1 ended)`);
      const startMs = between(n.created_at, n.started_at);
      t.diagnostic(`the normal run started ${seconds(startMs)} s after its upload (bound ${START_RATIO}× baseline = ${seconds(START_RATIO * baselineMs)} s)`);
      assert.ok(startMs <= START_RATIO * baselineMs, `the normal run starts within ${START_RATIO}× the baseline (${baselineMs} ms) after its upload: took ${startMs} ms`);
      // One run per team at a time: the hostile runs' scoring intervals do not overlap.
      const spans = h.map((r) => [r.started_at!.getTime(), r.scored_at!.getTime()] as const).sort((x, y) => x[0] - y[0]);
      for (let i = 1; i < spans.length; i++) {
        assert.ok(spans[i][0] >= spans[i - 1][1], `the hostile team's runs are scored one at a time (one started ${seconds(spans[i - 1][1] - spans[i][0])} s before the previous one ended)`);
      }

      // Each run scored exactly once.
      const counts = scoredLogCounts(site, [...hostileIds, normalId]);
      for (const r of rows) if (r.status === "SCORED") assert.equal(counts.get(r.id), 1, `run ${r.id} has exactly one SCORED log line`);
    });
  });
}
