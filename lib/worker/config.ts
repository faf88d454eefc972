/**
 * Timing and retry settings of the scoring pipeline (web enqueue, worker, reconciler),
 * read from environment variables. One place, so that the numbers that must agree with
 * each other (timeout < stale threshold <= job expiry) are checked together.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `SCORING_TIMEOUT_MS` | 600000 (10 min) | wall-clock limit for parsing + scoring one submission (in a worker thread that is terminated when it runs over) |
 * | `SCORING_STALE_MS` | timeout + 120000 | a SCORING row whose `started_at` is older than this has lost its worker; must be greater than the timeout |
 * | `SCORE_JOB_EXPIRE_SECONDS` | stale threshold, in seconds | pg-boss job expiry (after it, pg-boss gives up on the handler and retries); at least the timeout |
 * | `SCORING_MAX_ATTEMPTS` | 5 | a stale SCORING row already claimed this many times ends FAILED (stage `platform`) instead of being re-queued (a poison pill that kills workers) |
 * | `RECONCILE_INTERVAL_MS` | 60000 | how often a worker runs the reconciler |
 * | `WORKER_SHUTDOWN_TIMEOUT_MS` | 30000 | on SIGINT/SIGTERM, how long running jobs may finish before they are interrupted and re-queued |
 * | `WORKER_POLL_SECONDS` | 2 | pg-boss polling interval of a worker (at least 0.5) |
 * | `SCORING_MAX_MEMORY_MB` | unset (Node's default) | heap limit of the scoring thread; running over it fails the submission with stage `scoring` |
 * | `COREFBOARD_TEST_SCORE_DELAY_MS` | 0 | only when `NODE_ENV=test`: sleep this long after claiming a submission (for the kill test) |
 */

const MINUTE = 60_000;

/** The validated settings. */
export interface ScoringConfig {
  timeoutMs: number;
  staleAfterMs: number;
  jobExpireSeconds: number;
  maxAttempts: number;
  reconcileIntervalMs: number;
  shutdownTimeoutMs: number;
  pollSeconds: number;
  maxMemoryMb: number | undefined;
  testDelayMs: number;
}

/** Thrown by {@link scoringConfig}; one line per bad setting. */
export class ScoringConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid scoring configuration (environment variables):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ScoringConfigError";
  }
}

/**
 * Reads and checks the scoring settings (see the table at the top of this file).
 *
 * @param source variables to read (default `process.env`); empty strings count as unset
 * @returns the settings, defaults applied
 * @throws ScoringConfigError listing every bad value, and when the stale threshold is not
 *   greater than the timeout or the job expiry is shorter than the timeout
 */
export function scoringConfig(source: Record<string, string | undefined> = process.env): ScoringConfig {
  const problems: string[] = [];
  const num = (name: string, min: number, max: number, fallback: number, integer = true): number => {
    const raw = source[name]?.trim();
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
      problems.push(`${name}: expected ${integer ? "a whole number" : "a number"} from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return value;
  };
  const timeoutMs = num("SCORING_TIMEOUT_MS", 1000, 24 * 60 * MINUTE, 10 * MINUTE);
  const staleAfterMs = num("SCORING_STALE_MS", 1000, 48 * 60 * MINUTE, timeoutMs + 2 * MINUTE);
  const jobExpireSeconds = num("SCORE_JOB_EXPIRE_SECONDS", 1, 23 * 3600, Math.ceil(staleAfterMs / 1000));
  const maxAttempts = num("SCORING_MAX_ATTEMPTS", 1, 1000, 5);
  const reconcileIntervalMs = num("RECONCILE_INTERVAL_MS", 100, 24 * 60 * MINUTE, MINUTE);
  const shutdownTimeoutMs = num("WORKER_SHUTDOWN_TIMEOUT_MS", 0, 60 * MINUTE, 30_000);
  const pollSeconds = num("WORKER_POLL_SECONDS", 0.5, 3600, 2, false);
  const maxMemoryRaw = source.SCORING_MAX_MEMORY_MB?.trim();
  const maxMemoryMb = maxMemoryRaw ? num("SCORING_MAX_MEMORY_MB", 64, 1024 * 1024, 0) || undefined : undefined;
  const testDelayMs = source.NODE_ENV === "test" ? num("COREFBOARD_TEST_SCORE_DELAY_MS", 0, 10 * MINUTE, 0) : 0;
  if (staleAfterMs <= timeoutMs) {
    problems.push(
      `SCORING_STALE_MS (${staleAfterMs}) must be greater than SCORING_TIMEOUT_MS (${timeoutMs}); otherwise a live worker's submission would be taken away from it`,
    );
  }
  if (jobExpireSeconds * 1000 < timeoutMs) {
    problems.push(
      `SCORE_JOB_EXPIRE_SECONDS (${jobExpireSeconds}) must be at least SCORING_TIMEOUT_MS in seconds (${Math.ceil(timeoutMs / 1000)}); otherwise pg-boss abandons jobs that are still within the time limit`,
    );
  }
  if (problems.length) throw new ScoringConfigError(problems);
  return { timeoutMs, staleAfterMs, jobExpireSeconds, maxAttempts, reconcileIntervalMs, shutdownTimeoutMs, pollSeconds, maxMemoryMb, testDelayMs };
}
