/**
 * Entry module of the scoring threads (the piscina pool of `scoring-pool.ts`): loads
 * `scoring-thread.ts` through tsx's API and exports its task function.
 *
 * A plain `.mjs` file because a worker thread is a fresh Node instance: on Node 20 the
 * `--import tsx` of the worker process does not reach its threads, so the thread loads
 * TypeScript itself. Loading starts when the thread starts (piscina imports this file at
 * thread start), so a warm thread compiles the scorer once, not once per task.
 */
import { tsImport } from "tsx/esm/api";

const loading = tsImport("./scoring-thread.ts", import.meta.url);
// A load failure is reported by the first task that awaits it, not as an unhandled rejection.
loading.catch(() => undefined);

/**
 * @param {import("./scoring-thread.ts").ThreadInput} input
 * @returns {Promise<import("./scoring-thread.ts").ThreadResult>}
 */
export default async function scoreTask(input) {
  const thread = await loading;
  return thread.default(input);
}
