/**
 * Timing, retry and resource settings of the scoring pipeline (web enqueue, worker,
 * reconciler), read from environment variables. One place, so that the numbers that must
 * agree with each other are checked together:
 * heartbeat interval × 2 <= heartbeat stale threshold; timeout < stale threshold <= job expiry.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `SCORING_TIMEOUT_MS` | 600000 (10 min) | the largest time budget of a run (its own budget scales with its size: `SCORING_BASE_MS`, `SCORING_MS_PER_MB`): wall-clock limit for parsing + scoring one submission, all its dataset files together: per dataset the gold key and the file read once, then scored under every setting of the task's evaluation profile (1, or 4 for `crac`: the primary setting and 3 variants), then analysed (in a scoring thread that is terminated when it runs over) |
 * | `SCORING_BASE_MS` | 30000 (at most the timeout) | a run's own time budget starts here (see {@link scoringBudget}) |
 * | `SCORING_MS_PER_MB` | 10000 | and grows by this much per MB (10^6 bytes, uncompressed) of the gold keys and run files it scores, per evaluation setting, up to `SCORING_TIMEOUT_MS` |
 * | `SCORING_MAX_MEMORY_MB` | 1536 | heap cap of each scoring thread (the two corpora, the primary report and one variant evaluation at a time); a run that needs more fails with stage `scoring` ("Scoring needs more than N MB of memory"), and the worker lives on |
 * | `WORKER_HEARTBEAT_MS` | 5000 | how often a worker refreshes `heartbeat_at` of the rows it is scoring (and notices a claim taken away from it) |
 * | `SCORING_HEARTBEAT_STALE_MS` | 20000 | a SCORING row whose heartbeat is older than this has lost its worker: the reconciler re-queues it and cancels its job; at least twice the heartbeat interval |
 * | `SCORING_STALE_MS` | timeout + 120000 | a SCORING row claimed longer ago than this is stale even with a live heartbeat (a stuck worker); must be greater than the timeout |
 * | `SCORE_JOB_EXPIRE_SECONDS` | stale threshold, in seconds | pg-boss job expiry (after it, pg-boss gives up on the handler and retries); at least the timeout |
 * | `SCORING_MAX_ATTEMPTS` | 5 | a stale SCORING row already claimed this many times ends FAILED (stage `platform`) instead of being re-queued (a poison pill that kills workers) |
 * | `RECONCILE_INTERVAL_MS` | 5000 | how often a worker runs the reconciler (also at start; a pass is a handful of indexed queries); with the heartbeat threshold it bounds how soon a dead worker's run is re-queued: at most about 20 + 5 s after its last heartbeat |
 * | `WORKER_SHUTDOWN_TIMEOUT_MS` | 30000 | on SIGINT/SIGTERM, how long running jobs may finish before they are interrupted and re-queued |
 * | `WORKER_POLL_SECONDS` | 2 | pg-boss polling interval of an idle worker (at least 0.5); new jobs wake workers at once through LISTEN/NOTIFY, so this only bounds missed notifications and retry delays |
 * | `COREFBOARD_TEST_SCORE_DELAY_MS` | 0 | only when `NODE_ENV=test`: sleep this long after claiming a submission (for the kill test) |
 * | `COREFBOARD_TEST_SCORE_DELAY_SYSTEM` | (every run) | only when `NODE_ENV=test`: the delay applies only to runs with this system name, so that one test site serves both the kill test and tests that need runs scored at full speed |
 */

const MINUTE = 60_000;

/** The validated settings. */
export interface ScoringConfig {
  /** the cap of every run's time budget ({@link scoringBudget}) */
  timeoutMs: number;
  /** a run's time budget before its size is counted */
  baseMs: number;
  /** budget per MB (10^6 bytes, uncompressed) of gold key plus run file, per evaluation setting */
  msPerMb: number;
  maxMemoryMb: number;
  heartbeatMs: number;
  heartbeatStaleMs: number;
  staleAfterMs: number;
  jobExpireSeconds: number;
  maxAttempts: number;
  reconcileIntervalMs: number;
  shutdownTimeoutMs: number;
  pollSeconds: number;
  testDelayMs: number;
  /** the only system name {@link testDelayMs} applies to (absent: every run) */
  testDelaySystem?: string;
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
 * @throws ScoringConfigError listing every bad value, and when the heartbeat stale threshold
 *   is less than two heartbeat intervals, the stale threshold is not greater than the
 *   timeout, or the job expiry is shorter than the timeout
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
  const baseMs = num("SCORING_BASE_MS", 0, 24 * 60 * MINUTE, Math.min(30_000, timeoutMs));
  const msPerMb = num("SCORING_MS_PER_MB", 0, 24 * 60 * MINUTE, 10_000);
  const maxMemoryMb = num("SCORING_MAX_MEMORY_MB", 64, 1024 * 1024, 1536);
  const heartbeatMs = num("WORKER_HEARTBEAT_MS", 100, 10 * MINUTE, 5000);
  const heartbeatStaleMs = num("SCORING_HEARTBEAT_STALE_MS", 200, 60 * MINUTE, 20_000);
  const staleAfterMs = num("SCORING_STALE_MS", 1000, 48 * 60 * MINUTE, timeoutMs + 2 * MINUTE);
  const jobExpireSeconds = num("SCORE_JOB_EXPIRE_SECONDS", 1, 23 * 3600, Math.ceil(staleAfterMs / 1000));
  const maxAttempts = num("SCORING_MAX_ATTEMPTS", 1, 1000, 5);
  const reconcileIntervalMs = num("RECONCILE_INTERVAL_MS", 100, 24 * 60 * MINUTE, 5000);
  const shutdownTimeoutMs = num("WORKER_SHUTDOWN_TIMEOUT_MS", 0, 60 * MINUTE, 30_000);
  const pollSeconds = num("WORKER_POLL_SECONDS", 0.5, 3600, 2, false);
  const testDelayMs = source.NODE_ENV === "test" ? num("COREFBOARD_TEST_SCORE_DELAY_MS", 0, 10 * MINUTE, 0) : 0;
  const testDelaySystem = source.NODE_ENV === "test" ? source.COREFBOARD_TEST_SCORE_DELAY_SYSTEM?.trim() || undefined : undefined;
  if (baseMs > timeoutMs) {
    problems.push(`SCORING_BASE_MS (${baseMs}) must be at most SCORING_TIMEOUT_MS (${timeoutMs}), the cap of every run's time budget`);
  }
  if (heartbeatStaleMs < 2 * heartbeatMs) {
    problems.push(
      `SCORING_HEARTBEAT_STALE_MS (${heartbeatStaleMs}) must be at least twice WORKER_HEARTBEAT_MS (${heartbeatMs}); otherwise one late heartbeat would take a live worker's submission away from it`,
    );
  }
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
  return {
    timeoutMs,
    baseMs,
    msPerMb,
    maxMemoryMb,
    heartbeatMs,
    heartbeatStaleMs,
    staleAfterMs,
    jobExpireSeconds,
    maxAttempts,
    reconcileIntervalMs,
    shutdownTimeoutMs,
    pollSeconds,
    testDelayMs,
    ...(testDelaySystem ? { testDelaySystem } : {}),
  };
}

/** A run's time budget and what it was computed from (for the message of a run over it). */
export interface ScoringBudget {
  /** milliseconds */
  ms: number;
  /** uncompressed MB (10^6 bytes) of gold keys and run files counted */
  mb: number;
  /** evaluation settings each file is scored under */
  settings: number;
  /** true when the cap (`SCORING_TIMEOUT_MS`) set the budget */
  capped: boolean;
}

/**
 * The wall-clock budget of one run: `baseMs + msPerMb * settings * MB`, at most `timeoutMs`.
 * So a normal run that goes astray frees its slot soon, while a large real run (a big test set,
 * or a profile with several settings) keeps the time it needs. Scoring reads key and run at
 * about 0.1-0.6 s per MB under one setting (LitBank 13 MB key against itself: 0.09 s/MB; GUM
 * CorefUD with singletons, 10 MB: 0.59 s/MB, on this 2-core machine), so the default 10 s per
 * MB leaves a margin of about 17 over the slowest real corpus.
 *
 * @param config the scoring settings (`timeoutMs`, `baseMs`, `msPerMb`)
 * @param bytes uncompressed bytes of the gold keys and run files to score (all datasets)
 * @param settings evaluation settings each file is scored under (1, or 4 for `crac`)
 * @returns the budget in milliseconds, with the figures it came from
 */
export function scoringBudget(config: Pick<ScoringConfig, "timeoutMs" | "baseMs" | "msPerMb">, bytes: number, settings: number): ScoringBudget {
  const mb = bytes / 1e6;
  const scaled = Math.ceil(config.baseMs + config.msPerMb * settings * mb);
  return { ms: Math.min(config.timeoutMs, scaled), mb, settings, capped: scaled >= config.timeoutMs };
}
