/** How serve spaces out the restarts of a child that keeps dying (scripts/serve.ts, step 7). */

/** How restarts of a supervised child are spaced out. */
export interface BackoffPolicy {
  /** delay before the first restart, in ms */
  initialMs: number;
  /** longest delay, in ms; each quick failure doubles the delay up to this */
  maxMs: number;
  /** a child that ran at least this long (ms) before exiting starts again from `initialMs` */
  stableMs: number;
}

/** Restart spacing of the web server and the workers: 1 s doubling to 30 s, reset after a minute up. */
export const RESTART_BACKOFF: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, stableMs: 60_000 };

/**
 * The delay before restart number `attempt` in a row of quick failures:
 * `initialMs · 2^(attempt − 1)`, at most `maxMs`.
 *
 * @param attempt 1 for the first restart after a stable run
 * @returns milliseconds
 */
export function restartDelay(attempt: number, policy: BackoffPolicy = RESTART_BACKOFF): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
}

/** Counts one child's quick failures in a row and gives the delay before each restart. */
export class RestartBackoff {
  private attempts = 0;

  constructor(private readonly policy: BackoffPolicy = RESTART_BACKOFF) {}

  /**
   * Records an exit and returns when to restart.
   *
   * @param ranMs how long the child ran before it exited, in ms
   * @returns `attempt` (restarts in a row without a stable run, from 1) and `delayMs`
   */
  next(ranMs: number): { attempt: number; delayMs: number } {
    if (ranMs >= this.policy.stableMs) this.attempts = 0;
    this.attempts++;
    return { attempt: this.attempts, delayMs: restartDelay(this.attempts, this.policy) };
  }
}
