/**
 * Entry module of the upload-checking threads (the piscina pool of `pool.ts`): loads
 * `thread.ts` through tsx's API and exports its task function.
 *
 * A plain `.mjs` file on disk, found at run time (see `uploadPoolEntry` in `pool.ts`), because
 * the pool runs inside the Next.js server, whose webpack bundle has no TypeScript loader and
 * whose `new URL(..., import.meta.url)` assets would be copied away from `thread.ts`; a worker
 * thread is a fresh Node instance, so it loads TypeScript itself (tsx is a runtime dependency).
 *
 * The top-level await makes the thread "ready" for piscina only once the readers are
 * compiled, so a warm thread compiles them once; the pool waits for that (a warm-up task)
 * before it starts a file's time limit.
 */
import { tsImport } from "tsx/esm/api";

const thread = await tsImport("./thread.ts", import.meta.url);

/**
 * @param {import("./thread.ts").CheckInput | null} input a file, or null to warm up
 * @returns {import("./thread.ts").CheckOutcome}
 */
export default function checkUpload(input) {
  return thread.default(input);
}
