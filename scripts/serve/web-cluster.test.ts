/**
 * The web processes behind one port (scripts/serve/web-cluster.ts), with a small HTTP server
 * in place of Next: both processes answer on the one port; a killed one is restarted while the
 * other serves; SIGTERM stops them all.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../lib/db/embedded";
import { parseWebClusterArgs } from "./web-cluster";

const dir = mkdtempSync(path.join(tmpdir(), "corefboard-web-cluster-"));
const server = path.join(dir, "server.mjs");
writeFileSync(
  server,
  'import http from "node:http";\n' +
    'http.createServer((req, res) => res.end(`${process.pid} ${process.env.COREFBOARD_WEB_PROCESS}`)).listen(Number(process.argv[2]), "127.0.0.1");\n',
);
const primaries: ChildProcess[] = [];
afterAll(() => {
  for (const primary of primaries) if (primary.exitCode === null) primary.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** One request on a new connection (no keep-alive, so the primary deals each one out): the answering process's pid and place. */
function ask(port: number): Promise<{ pid: number; place: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/", agent: false, timeout: 5000 }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => {
        const [pid, place] = body.split(" ");
        resolve({ pid: Number(pid), place });
      });
    });
    request.on("error", reject);
    request.on("timeout", () => request.destroy(new Error("no answer within 5 s")));
  });
}

/** Asks until `done` holds of the answers so far, or fails after `ms`. */
async function askUntil(port: number, done: (pids: Set<number>) => boolean, ms = 20_000): Promise<Set<number>> {
  const pids = new Set<number>();
  const until = Date.now() + ms;
  while (!done(pids)) {
    if (Date.now() > until) throw new Error(`gave up; answering pids: ${[...pids].join(", ")}`);
    try {
      pids.add((await ask(port)).pid);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return pids;
}

describe("web cluster", () => {
  it("reads its command line", () => {
    expect(parseWebClusterArgs(["--processes", "3", "--", "next", "start", "-p", "80"])).toEqual({ processes: 3, stopTimeoutMs: 10_000, script: "next", args: ["start", "-p", "80"] });
    expect(() => parseWebClusterArgs(["--processes", "0", "--", "x"])).toThrow();
  });

  it("serves one port from two processes, restarts a killed one while the other serves, and stops on SIGTERM", async () => {
    const port = await freePort();
    const primary = spawn(process.execPath, ["--import", "tsx", "scripts/serve/web-cluster.ts", "--processes", "2", "--", server, String(port)], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    primaries.push(primary);
    let output = "";
    primary.stdout!.on("data", (chunk) => (output += chunk));
    primary.stderr!.on("data", (chunk) => (output += chunk));

    const first = await askUntil(port, (pids) => pids.size === 2);
    const [victim, survivor] = [...first];
    process.kill(victim, "SIGKILL");
    const noticed = new RegExp(`web process \\d \\(pid ${victim}\\) exited unexpectedly \\(signal SIGKILL\\).*restarting in 1 s`);
    for (const until = Date.now() + 10_000; !noticed.test(output); ) {
      if (Date.now() > until) throw new Error(`the primary did not notice the kill; its output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Until the restart (1 s later), every request is answered, by the survivor.
    const during = await Promise.all(Array.from({ length: 10 }, () => ask(port)));
    expect(during.map((answer) => answer.pid)).toEqual(Array(10).fill(survivor));
    const after = await askUntil(port, (pids) => [...pids].some((pid) => !first.has(pid)));
    expect(after.has(victim)).toBe(false);
    const restarted = [...after].find((pid) => !first.has(pid))!;

    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of [survivor, restarted]) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
