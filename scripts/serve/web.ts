/**
 * The web server (scripts/serve.ts, step 6): `next start` (or `next dev`), supervised, and
 * the wait until it answers.
 */
import { exitDescription, type Child, type ChildEnv } from "./child";
import { preload, tsxArgs } from "./environment";
import { log } from "./log";
import type { ServeOptions } from "./options";
import type { Supervisor } from "./supervisor";
import { probeUrl } from "./urls";

/** Waits for the web server to answer any HTTP request; false if `child` exits first. */
export async function waitForServer(url: string, child: Child, supervisor: Supervisor): Promise<boolean> {
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (!exited && !supervisor.isStopping) {
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return false;
}

/**
 * The web server's environment: the children's (`childEnv`) without its NODE_ENV, plus
 * NODE_ENV=production for `next start`, and scripts/forwarded-for.mjs and
 * scripts/body-guard.mjs preloaded.
 *
 * @param dev whether it is `next dev`
 */
export function webServerEnv(childEnv: ChildEnv, dev: boolean): ChildEnv {
  const { NODE_ENV: _inherited, ...withoutNodeEnv } = childEnv;
  // next start runs in production mode, next dev in development mode, whatever NODE_ENV says.
  // The socket's address is appended to X-Forwarded-For (scripts/forwarded-for.mjs), so that
  // sign-in limits per address cannot be dodged with a forged header; a body declared too
  // large for its path is answered 413 and its connection closed unread, before Next reads
  // it (scripts/body-guard.mjs). NODE_OPTIONS, not an argument: `next dev` runs its server in
  // a child process.
  const nodeOptions = [withoutNodeEnv.NODE_OPTIONS, preload("forwarded-for.mjs"), preload("body-guard.mjs")].filter(Boolean).join(" ");
  return dev ? { ...withoutNodeEnv, NODE_OPTIONS: nodeOptions } : { ...withoutNodeEnv, NODE_OPTIONS: nodeOptions, NODE_ENV: "production" };
}

/** How long a web process may take to finish its requests after SIGTERM, in ms. */
const WEB_STOP_MS = 10_000;

/**
 * What serve runs as its web server: `next dev --webpack` with --dev; `next start` for one
 * web process; for several, the cluster primary (scripts/serve/web-cluster.ts) running that
 * many `next start` processes behind the one port, given 5 s more than its processes to stop.
 *
 * @returns the name in the log, node's arguments and the SIGKILL timeout
 */
export function webServerCommand(nextBin: string, options: Pick<ServeOptions, "dev" | "webProcesses" | "hostname">, port: number): { name: string; args: string[]; stopTimeoutMs: number } {
  const listen = ["-p", String(port), "-H", options.hostname];
  if (options.dev) return { name: "next dev", args: [nextBin, "dev", "--webpack", ...listen], stopTimeoutMs: WEB_STOP_MS };
  if (options.webProcesses <= 1) return { name: "next start", args: [nextBin, "start", ...listen], stopTimeoutMs: WEB_STOP_MS };
  const cluster = [...tsxArgs("scripts/serve/web-cluster.ts"), "--processes", String(options.webProcesses), "--stop-timeout", String(WEB_STOP_MS)];
  return { name: `next start ×${options.webProcesses}`, args: [...cluster, "--", nextBin, "start", ...listen], stopTimeoutMs: WEB_STOP_MS + 5000 };
}

/** The supervised web server. */
export interface WebServer {
  /** `next start` or `next dev`, as in the log */
  name: string;
  /** the URL polled to see that it answers ({@link probeUrl}) */
  url: string;
  /** the first process */
  child: Child;
  /**
   * Waits until the first process answers; from then on an exit of the server means a
   * restart.
   *
   * @returns false when a shutdown began first
   * @throws Error `<name> exited before it answered at <url> (<how>); see its messages above`
   *   (e.g. the port is taken): a start-up failure, and no restart
   */
  firstAnswer(): Promise<boolean>;
}

/**
 * Starts the web server under `supervisor`: `next start` (or `next dev --webpack` with --dev;
 * webpack, not Turbopack: see next.config.js; or several `next start` processes, see
 * {@link webServerCommand}) on `port` and `--hostname`, stopped 10 s after SIGTERM at the latest. Once it has answered, it is restarted with backoff when it dies, and
 * each restart is followed by a wait that logs when it answers again.
 *
 * @param nextBin Next's command-line script
 * @param childEnv the children's environment ({@link webServerEnv} adapts it)
 */
export function superviseWebServer(supervisor: Supervisor, nextBin: string, options: ServeOptions, port: number, childEnv: ChildEnv): WebServer {
  const url = probeUrl(options.hostname, port);
  const { name, args, stopTimeoutMs } = webServerCommand(nextBin, options, port);
  let answered = false;
  const child = supervisor.supervise({
    name,
    restartable: () => answered,
    command: process.execPath,
    args,
    env: webServerEnv(childEnv, options.dev),
    stopTimeoutMs,
    onRestart: (restarted) => {
      const since = Date.now();
      void waitForServer(url, restarted, supervisor).then((up) => {
        if (up) log.info(`${name} answers again (${((Date.now() - since) / 1000).toFixed(1)} s after its restart)`);
      });
    },
  });
  const firstAnswer = async (): Promise<boolean> => {
    // A web server that never answers is a start-up failure (e.g. the port is taken).
    if (!(await waitForServer(url, child, supervisor))) {
      if (supervisor.isStopping) return false;
      throw new Error(`${name} exited before it answered at ${url} (${exitDescription(child.process)}); see its messages above`);
    }
    answered = true;
    return true;
  };
  return { name, url, child, firstAnswer };
}
