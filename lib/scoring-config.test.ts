import { describe, expect, it } from "vitest";
import { ScoringConfigError, scoringBudget, scoringConfig } from "./scoring-config";

describe("scoringConfig", () => {
  it("has defaults that re-queue a dead worker's run within 30 s and cap a scoring thread's heap", () => {
    expect(scoringConfig({})).toEqual({
      timeoutMs: 600_000,
      baseMs: 30_000,
      msPerMb: 10_000,
      maxMemoryMb: 1536,
      heartbeatMs: 5000,
      heartbeatStaleMs: 20_000,
      staleAfterMs: 720_000,
      jobExpireSeconds: 720,
      maxAttempts: 5,
      reconcileIntervalMs: 5000,
      shutdownTimeoutMs: 30_000,
      pollSeconds: 2,
      testDelayMs: 0,
    });
    // A dead worker's last heartbeat goes stale after heartbeatStaleMs; the next reconcile pass
    // (every reconcileIntervalMs) re-queues the run, and an idle worker picks it up at its next
    // poll at the latest. The resilience kill test (e2e/resilience/recovery.ts) runs this path
    // with shorter settings; the deployed ones are bounded here.
    const d = scoringConfig({});
    expect(d.heartbeatStaleMs + d.reconcileIntervalMs + d.pollSeconds * 1000).toBeLessThanOrEqual(30_000);
    expect(scoringConfig({ SCORING_MAX_MEMORY_MB: "64", WORKER_HEARTBEAT_MS: "1000", SCORING_HEARTBEAT_STALE_MS: "2000" })).toMatchObject({
      maxMemoryMb: 64,
      heartbeatMs: 1000,
      heartbeatStaleMs: 2000,
    });
  });

  it("derives the stale threshold and the job expiry from the timeout", () => {
    expect(scoringConfig({})).toMatchObject({ timeoutMs: 600_000, staleAfterMs: 720_000, jobExpireSeconds: 720, maxAttempts: 5, testDelayMs: 0 });
    expect(scoringConfig({ SCORING_TIMEOUT_MS: "4000", SCORING_STALE_MS: "5000" })).toMatchObject({ timeoutMs: 4000, staleAfterMs: 5000, jobExpireSeconds: 5 });
  });

  it("honours the test delay only when NODE_ENV=test", () => {
    expect(scoringConfig({ COREFBOARD_TEST_SCORE_DELAY_MS: "100", NODE_ENV: "production" }).testDelayMs).toBe(0);
    expect(scoringConfig({ COREFBOARD_TEST_SCORE_DELAY_MS: "100", NODE_ENV: "test" }).testDelayMs).toBe(100);
    expect(scoringConfig({ COREFBOARD_TEST_SCORE_DELAY_SYSTEM: " slow run ", NODE_ENV: "test" }).testDelaySystem).toBe("slow run");
    expect(scoringConfig({ COREFBOARD_TEST_SCORE_DELAY_SYSTEM: "slow run", NODE_ENV: "production" })).not.toHaveProperty("testDelaySystem");
    expect(scoringConfig({ COREFBOARD_TEST_SCORE_DELAY_SYSTEM: "", NODE_ENV: "test" })).not.toHaveProperty("testDelaySystem");
  });

  it("lists every bad value, and refuses a stale threshold or job expiry that a live job could outlast", () => {
    let error: unknown;
    try {
      scoringConfig({ SCORING_TIMEOUT_MS: "60000", SCORING_STALE_MS: "30000", SCORE_JOB_EXPIRE_SECONDS: "10", WORKER_POLL_SECONDS: "fast" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScoringConfigError);
    const problems = (error as ScoringConfigError).problems.join("\n");
    expect(problems).toMatch(/WORKER_POLL_SECONDS: expected a number from 0.5 to 3600 \(got "fast"\)/);
    expect(problems).toMatch(/SCORING_STALE_MS \(30000\) must be greater than SCORING_TIMEOUT_MS \(60000\)/);
    expect(problems).toMatch(/SCORE_JOB_EXPIRE_SECONDS \(10\) must be at least/);
  });

  it("refuses a heartbeat stale threshold under two heartbeat intervals, and a memory cap under 64 MB", () => {
    let error: unknown;
    try {
      scoringConfig({ WORKER_HEARTBEAT_MS: "5000", SCORING_HEARTBEAT_STALE_MS: "9999", SCORING_MAX_MEMORY_MB: "32" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScoringConfigError);
    expect((error as ScoringConfigError).problems).toEqual([
      'SCORING_MAX_MEMORY_MB: expected a whole number from 64 to 1048576 (got "32")',
      "SCORING_HEARTBEAT_STALE_MS (9999) must be at least twice WORKER_HEARTBEAT_MS (5000); otherwise one late heartbeat would take a live worker's submission away from it",
    ]);
    expect(scoringConfig({ WORKER_HEARTBEAT_MS: "5000", SCORING_HEARTBEAT_STALE_MS: "10000" }).heartbeatStaleMs).toBe(10_000);
  });

  it("scales a run's time budget with its size: base + per MB per setting, capped at the timeout", () => {
    const config = scoringConfig({});
    expect(scoringBudget(config, 0, 1)).toEqual({ ms: 30_000, mb: 0, settings: 1, capped: false });
    expect(scoringBudget(config, 2_500_000, 1)).toEqual({ ms: 55_000, mb: 2.5, settings: 1, capped: false });
    expect(scoringBudget(config, 2_500_000, 4)).toEqual({ ms: 130_000, mb: 2.5, settings: 4, capped: false });
    expect(scoringBudget(config, 100_000_000, 1)).toEqual({ ms: 600_000, mb: 100, settings: 1, capped: true });
    expect(scoringBudget(scoringConfig({ SCORING_BASE_MS: "1000", SCORING_MS_PER_MB: "500" }), 3_000_000, 2).ms).toBe(4000);
    // The default base never exceeds a smaller timeout; an explicit one may not.
    expect(scoringConfig({ SCORING_TIMEOUT_MS: "4000", SCORING_STALE_MS: "5000" }).baseMs).toBe(4000);
    expect(() => scoringConfig({ SCORING_TIMEOUT_MS: "4000", SCORING_STALE_MS: "5000", SCORING_BASE_MS: "4001" })).toThrow(
      "SCORING_BASE_MS (4001) must be at most SCORING_TIMEOUT_MS (4000), the cap of every run's time budget",
    );
    expect(() => scoringConfig({ SCORING_MS_PER_MB: "-1" })).toThrow("SCORING_MS_PER_MB: expected a whole number from 0 to");
  });
});
