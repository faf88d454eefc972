/**
 * The one fact both thread pools (`lib/upload-pool/`, `lib/worker/scoring-pool.ts`) need
 * about their memory caps: a process-wide V8 heap flag (`--max-old-space-size`, or
 * `--max-semi-space-size`…, given on the command line or in NODE_OPTIONS) overrides every
 * thread's `resourceLimits.maxOldGenerationSizeMb` (V8 prefers its flag to the per-isolate
 * constraint), so the caps would silently stop holding. The pools warn once when that is so.
 */

/** The V8 flag that sets the old generation's size for every isolate of the process. */
const HEAP_FLAG = /(?:^|\s)--max[-_]old[-_]space[-_]size(?:=|\s|$)/;

/**
 * The process-wide heap flag that overrides per-thread heap caps, if one is set.
 *
 * @param execArgv the process's Node options (default `process.execArgv`)
 * @param nodeOptions NODE_OPTIONS (default `process.env.NODE_OPTIONS`)
 * @returns the option as written (e.g. `--max-old-space-size=4096`), or null when none is set
 */
export function heapFlagOverridingThreadCaps(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): string | null {
  for (const arg of [...execArgv, ...(nodeOptions ?? "").split(/\s+/)]) {
    if (HEAP_FLAG.test(arg)) return arg;
  }
  return null;
}

const warned = new Set<string>();

/**
 * Logs once per pool name that its threads' memory cap cannot hold in this process.
 *
 * @param pool the pool's name for the message, e.g. "upload pool"
 * @param log where the warning goes (default `console.warn`)
 */
export function warnIfThreadCapsOverridden(pool: string, log: (line: string) => void = console.warn): void {
  const flag = heapFlagOverridingThreadCaps();
  if (!flag || warned.has(pool)) return;
  warned.add(pool);
  log(`${pool}: ${flag} is set for the whole process (command line or NODE_OPTIONS) and overrides the threads' memory cap; remove it so that the cap holds`);
}
