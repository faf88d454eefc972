/**
 * Page-latency probes: while an attack runs, cheap pages are fetched again and again, and
 * their latencies summarised (p50, p95, max).
 *
 * The probing runs in a child process of its own (this file, forked), so that the test
 * process's own work (sending 50 MB bodies, firing 200 sign-ins) never delays the clock
 * that measures the site. Each of `concurrency` loops fetches the next path of `paths` in
 * turn, reads the whole body, and records the time from request to last byte, the status,
 * and when it was sent. A request that takes longer than `timeoutMs` counts as an error
 * (status 0) with its full duration.
 *
 *   const probe = await startProbe(site.baseUrl, ["/", "/tasks"]);
 *   ... the attack ...
 *   const report = await probe.stop();   // { count, p50, p95, max, errors, samples }
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One probe request. */
export interface ProbeSample {
  path: string;
  /** epoch ms when it was sent */
  at: number;
  /** milliseconds from sending to the end of the body */
  ms: number;
  /** HTTP status; 0 for a network error or a timeout */
  status: number;
  /** the network error or timeout, when status is 0 */
  error?: string;
}

/** What a probe measured. */
export interface ProbeReport {
  count: number;
  /** latency percentiles (nearest rank) and maximum, in ms, over every request */
  p50: number;
  p95: number;
  max: number;
  /** requests answered with a status other than 200, or not answered */
  errors: ProbeSample[];
  samples: ProbeSample[];
}

/** Options of {@link startProbe}. */
export interface ProbeOptions {
  /** Loops fetching at once. Default 2. */
  concurrency?: number;
  /** Per-request limit in ms. Default 10 000. */
  timeoutMs?: number;
  /** Pause between two requests of one loop, in ms. Default 20. */
  pauseMs?: number;
}

/** A running probe. */
export interface Probe {
  /** Stops the loops (after their current request) and returns what they measured. */
  stop(): Promise<ProbeReport>;
}

interface StartMessage {
  baseUrl: string;
  paths: string[];
  concurrency: number;
  timeoutMs: number;
  pauseMs: number;
}

/**
 * Starts probing `paths` of the site at `baseUrl` in a child process.
 *
 * @returns the probe, once its first request has been answered (or has failed)
 */
export async function startProbe(baseUrl: string, paths: string[], options: ProbeOptions = {}): Promise<Probe> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--probe-child"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const message = (type: string) =>
    new Promise<unknown>((resolve, reject) => {
      const onMessage = (m: { type: string; report?: ProbeReport }) => {
        if (m.type !== type) return;
        child.off("message", onMessage);
        resolve(m);
      };
      child.on("message", onMessage);
      void exited.then(() => reject(new Error(`the probe process exited before sending "${type}"`)));
    });
  const started: StartMessage = { baseUrl, paths, concurrency: options.concurrency ?? 2, timeoutMs: options.timeoutMs ?? 10_000, pauseMs: options.pauseMs ?? 20 };
  const ready = message("ready");
  child.send({ type: "start", ...started });
  await ready;
  let stopped: Promise<ProbeReport> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        const done = message("report") as Promise<{ report: ProbeReport }>;
        child.send({ type: "stop" });
        const { report } = await done;
        await exited;
        return report;
      })()),
  };
}

/**
 * Summarises samples: nearest-rank p50 and p95 and the maximum of the latencies, and the
 * samples that were not answered with 200.
 */
export function summarise(samples: ProbeSample[]): ProbeReport {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const rank = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
  return {
    count: samples.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
    errors: samples.filter((s) => s.status !== 200),
    samples,
  };
}

/** A one-line summary for test output: `n=… p50=… p95=… max=… errors=…`. */
export function formatReport(name: string, report: ProbeReport): string {
  return `${name}: n=${report.count} p50=${report.p50}ms p95=${report.p95}ms max=${report.max}ms errors=${report.errors.length}`;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The child side: probe until told to stop, then send the report. */
async function runChild(): Promise<void> {
  const start = await new Promise<StartMessage>((resolve) => process.once("message", (m: StartMessage) => resolve(m)));
  let running = true;
  process.on("message", (m: { type: string }) => {
    if (m.type === "stop") running = false;
  });
  const samples: ProbeSample[] = [];
  let next = 0;
  const once = async (): Promise<void> => {
    const path = start.paths[next++ % start.paths.length]!;
    const at = Date.now();
    const t0 = performance.now();
    try {
      const response = await fetch(`${start.baseUrl}${path}`, { redirect: "manual", signal: AbortSignal.timeout(start.timeoutMs) });
      await response.arrayBuffer();
      samples.push({ path, at, ms: performance.now() - t0, status: response.status });
    } catch (error) {
      samples.push({ path, at, ms: performance.now() - t0, status: 0, error: error instanceof Error ? error.message : String(error) });
    }
  };
  await once();
  process.send!({ type: "ready" });
  const loop = async () => {
    while (running) {
      await once();
      await new Promise((r) => setTimeout(r, start.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: start.concurrency }, loop));
  process.send!({ type: "report", report: summarise(samples) }, () => process.exit(0));
}

if (process.argv.includes("--probe-child") && process.argv[1] === fileURLToPath(import.meta.url)) {
  void runChild();
}

/** Cheap pages the probes fetch: the home page (the task list) and a task's page. */
export const pages = (slug: string): string[] => ["/", `/tasks/${slug}`];

/** Fetches each page a few times, so that the probes measure a warm server. */
export async function warmUp(baseUrl: string, paths: string[]): Promise<void> {
  for (let i = 0; i < 3; i++) for (const p of paths) await fetch(`${baseUrl}${p}`).then((r) => r.arrayBuffer());
}
