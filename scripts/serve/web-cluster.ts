/**
 * Several web processes behind one port (issue 26 §4): a `node:cluster` primary that runs
 * `count` copies of a server script (Next's `next start`), each a process of its own. They share
 * the listening socket: the primary accepts the connections and hands them round-robin to its
 * processes (Node's default scheduling on Linux), so every core serves requests.
 *
 *   node --import tsx scripts/serve/web-cluster.ts --processes <n> [--stop-timeout <ms>] -- <script> [args…]
 *
 * A process that dies while no shutdown is under way is started again after the backoff the
 * workers get (scripts/serve/backoff.ts), and logged; the others keep serving meanwhile. On
 * SIGTERM, SIGINT or SIGHUP the primary passes SIGTERM on (the processes finish their requests
 * and exit: Next's own handling), SIGKILLs what still runs after the stop timeout, and exits 0.
 *
 * serve (scripts/serve/web.ts) starts this as its web server when `--web-processes` is over 1;
 * with one process it starts `next start` itself, as before.
 */
import cluster, { type Worker } from "node:cluster";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { RESTART_BACKOFF, RestartBackoff, type BackoffPolicy } from "./backoff";
import { log } from "./log";

/** What the primary runs. */
export interface WebClusterOptions {
  /** how many processes (≥ 1) */
  processes: number;
  /** the server script every process runs, and its arguments */
  script: string;
  args: string[];
  /** time between SIGTERM and SIGKILL on shutdown, in ms */
  stopTimeoutMs: number;
  /** restart spacing of a process that keeps dying */
  backoff?: BackoffPolicy;
}

/** One place in the cluster: its process now, and how its restarts are spaced. */
interface Slot {
  number: number;
  worker: Worker;
  startedAt: number;
  backoff: RestartBackoff;
}

/**
 * The running primary: forks the processes and keeps their number up until {@link stop}.
 * Only one per process (node:cluster's settings are global).
 */
export class WebCluster {
  private readonly slots: Slot[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: WebClusterOptions) {}

  /** Forks every process. The script runs with no extra node arguments: NODE_OPTIONS carries the preloads. */
  start(): void {
    cluster.setupPrimary({ exec: this.options.script, args: this.options.args, execArgv: [] });
    for (let number = 1; number <= this.options.processes; number++) {
      this.slots.push(this.fork(number, new RestartBackoff(this.options.backoff ?? RESTART_BACKOFF), 0));
    }
  }

  /** The pids of the processes running now, by place. */
  pids(): (number | undefined)[] {
    return this.slots.map((slot) => (slot.worker.isDead() ? undefined : slot.worker.process.pid));
  }

  /** Starts the process of place `number` and watches for its unexpected exit. */
  private fork(number: number, backoff: RestartBackoff, restart: number): Slot {
    const worker = cluster.fork({ COREFBOARD_WEB_PROCESS: String(number) });
    const slot: Slot = { number, worker, startedAt: Date.now(), backoff };
    worker.once("online", () => log.info(`web process ${number} started (pid ${worker.process.pid}${restart ? `, restart ${restart}` : ""})`));
    worker.once("exit", (code, signal) => {
      if (this.stopping) return;
      const ranMs = Date.now() - slot.startedAt;
      const { attempt, delayMs } = backoff.next(ranMs);
      log.error(
        `web process ${number} (pid ${worker.process.pid}) exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}) after ` +
          `${(ranMs / 1000).toFixed(1)} s; restarting in ${delayMs / 1000} s`,
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopping) return;
        this.slots[number - 1] = this.fork(number, backoff, attempt);
      }, delayMs);
      this.timers.add(timer);
    });
    return slot;
  }

  /**
   * Stops every process: SIGTERM, then SIGKILL for those still running after the stop
   * timeout; pending restarts are cancelled. Resolves once all have exited.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      await Promise.all(
        this.slots.map(async ({ worker }) => {
          if (worker.isDead()) return;
          const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
          worker.process.kill("SIGTERM");
          const timer = setTimeout(() => worker.process.kill("SIGKILL"), this.options.stopTimeoutMs);
          await exited;
          clearTimeout(timer);
        }),
      );
    })();
    return this.stopping;
  }
}

/**
 * Parses the primary's command line (see the file's comment).
 *
 * @throws CommanderError on unknown options or bad values
 */
export function parseWebClusterArgs(argv: string[]): WebClusterOptions {
  const whole = (min: number) => (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min) throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return n;
  };
  const program = new Command()
    .name("web-cluster")
    .exitOverride()
    .requiredOption("--processes <n>", "web processes", whole(1))
    .option("--stop-timeout <ms>", "SIGKILL this long after SIGTERM", whole(0), 10_000)
    .argument("<script>", "the server script each process runs")
    .argument("[args...]", "its arguments")
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<{ processes: number; stopTimeout: number }>();
  const [script, args] = program.processedArgs as [string, string[]];
  return { processes: o.processes, stopTimeoutMs: o.stopTimeout, script, args: args ?? [] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const webCluster = new WebCluster(parseWebClusterArgs(process.argv.slice(2)));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => void webCluster.stop().then(() => process.exit(0)));
  }
  webCluster.start();
}
