/**
 * Identical reads in flight at once, made once (issue 26 §3): on results day, many anonymous
 * readers ask for the same board at the same moment. A request that finds the same read
 * already running joins it instead of querying the database again; the read is forgotten the
 * moment it settles, so nothing is kept and no answer is older than the request that started
 * it. A joined request can thus miss only a change committed while that read ran, as it would
 * if it had arrived a few milliseconds sooner; one that starts after a change is committed
 * always sees it.
 */

/** The reads running now, by key. */
const running = new Map<string, Promise<unknown>>();

/**
 * `read()`'s promise, shared by every caller that asks under the same `key` while it runs (its
 * value or its error alike); a new read once it has settled.
 *
 * Use it only for reads whose answer is the same for every caller of the key (e.g. what an
 * anonymous reader is shown): the key must name everything the answer depends on.
 *
 * @param key what the read depends on, e.g. JSON of the phase id and the board's options
 * @param read the read; called only when no read of `key` is running
 */
export function coalesced<T>(key: string, read: () => Promise<T>): Promise<T> {
  const current = running.get(key);
  if (current) return current as Promise<T>;
  const promise = read().finally(() => running.delete(key));
  running.set(key, promise);
  return promise;
}

/** How many reads are running now (for tests). */
export function runningReads(): number {
  return running.size;
}
