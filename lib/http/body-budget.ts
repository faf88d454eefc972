/**
 * One memory budget for the request bodies the server holds at once (issue 23 F2): every
 * streaming upload (`lib/http/multipart-upload.ts`, the run and gold upload routes) reserves the
 * bytes it may hold before it reads its body, and gives them back when its request is done,
 * in a `finally` (success, refusal, client abort). Past the budget a new upload is refused
 * with 503 and `Retry-After` before a byte of its body is read, so that many large uploads at
 * once cannot grow the server's memory without bound.
 */
import { ServiceBusyError } from "../errors";

/** The suggested wait (seconds) when the budget is used up; API answers send it as `Retry-After`. */
export const BODY_BUDGET_RETRY_AFTER_S = 10;

/**
 * A counter of reserved bytes with a ceiling. Not tied to requests: callers reserve and
 * release (see {@link withBodyBudget}).
 */
export class BodyBudget {
  private reservedBytes = 0;

  /**
   * @param totalBytes the ceiling: the sum of the reservations held at once (bytes, > 0)
   * @param retryAfterSeconds the wait suggested to a refused caller
   */
  constructor(
    readonly totalBytes: number,
    readonly retryAfterSeconds: number = BODY_BUDGET_RETRY_AFTER_S,
  ) {
    if (!(totalBytes > 0)) throw new RangeError(`A body budget needs a positive size, not ${totalBytes}.`);
  }

  /** Bytes reserved now. */
  get reserved(): number {
    return this.reservedBytes;
  }

  /**
   * Reserves `bytes` (a non-negative integer). A single reservation larger than the whole
   * budget is still granted when nothing else is reserved, so that one upload at the limit
   * always gets through on a quiet server.
   *
   * @returns the release function: gives the bytes back; calling it again does nothing
   * @throws ServiceBusyError (503, `retryAfterSeconds`) when the reservation does not fit
   */
  reserve(bytes: number): () => void {
    const amount = Math.max(0, Math.ceil(bytes));
    if (this.reservedBytes > 0 && this.reservedBytes + amount > this.totalBytes) {
      throw new ServiceBusyError("The server is receiving too many uploads at once. Nothing was stored; please try again in a few seconds.", {
        retryAfterSeconds: this.retryAfterSeconds,
      });
    }
    this.reservedBytes += amount;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reservedBytes -= amount;
    };
  }
}

/**
 * Runs `work` holding a reservation of `bytes` on `budget`, released when `work` settles
 * (resolved or thrown).
 *
 * @throws ServiceBusyError (503) when the reservation does not fit (then `work` does not run);
 *   otherwise whatever `work` throws
 */
export async function withBodyBudget<T>(budget: BodyBudget, bytes: number, work: () => Promise<T>): Promise<T> {
  const release = budget.reserve(bytes);
  try {
    return await work();
  } finally {
    release();
  }
}

const GLOBAL_KEY = Symbol.for("corefboard.uploadBodyBudget");

/**
 * The process's budget for upload bodies: three uploads at the limit (`maxBodyBytes` each:
 * the file limit plus the multipart allowance). Kept on `globalThis` so that every route
 * bundle shares the one counter.
 *
 * @param maxBodyBytes the largest body one upload may send (bytes)
 */
export function uploadBodyBudget(maxBodyBytes: number): BodyBudget {
  const store = globalThis as { [GLOBAL_KEY]?: BodyBudget };
  store[GLOBAL_KEY] ??= new BodyBudget(3 * maxBodyBytes);
  return store[GLOBAL_KEY];
}
