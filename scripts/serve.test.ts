import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommanderError } from "commander";
import {
  RESTART_BACKOFF,
  RestartBackoff,
  ROOT,
  Supervisor,
  defaultPublicUrl,
  needsBuild,
  parseServeArgs,
  persistentSecret,
  probeUrl,
  restartDelay,
  serve,
} from "./serve";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "corefboard-serve-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("parseServeArgs", () => {
  it("has the documented defaults", () => {
    expect(parseServeArgs([])).toEqual({ demo: true, dev: false, build: false, buildOnly: false, workers: 1, port: undefined, hostname: "127.0.0.1", freshDataDir: false });
  });

  it("parses every option", () => {
    expect(parseServeArgs(["--no-demo", "--dev", "--build", "--workers", "3", "--port", "3100", "--hostname", "127.0.0.1", "--fresh-data-dir"])).toEqual({
      demo: false,
      dev: true,
      build: true,
      buildOnly: false,
      workers: 3,
      port: 3100,
      hostname: "127.0.0.1",
      freshDataDir: true,
    });
    expect(parseServeArgs(["--hostname", "0.0.0.0"]).hostname).toBe("0.0.0.0");
    expect(parseServeArgs(["--build-only"]).buildOnly).toBe(true);
  });

  it.each([["--workers", "x"], ["--workers", "-1"], ["--port", "0"], ["--bogus"], ["extra"]])("rejects %j", (...argv) => {
    expect(() => parseServeArgs(argv)).toThrow(CommanderError);
  });
});

describe("serve", () => {
  it("refuses --build-only with --dev (exit code 2), before it starts anything", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((message: string) => void errors.push(message));
    try {
      expect(await serve(["--build-only", "--dev"])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors).toEqual(["error: --build-only and --dev exclude each other"]);
  });
});

describe("needsBuild", () => {
  it("builds when BUILD_ID is missing or older than a source, not when it is newer", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, "app"), { recursive: true });
    await writeFile(path.join(root, "app", "page.tsx"), "x");
    expect(needsBuild(root)).toBe(true);

    await mkdir(path.join(root, ".next"));
    const buildId = path.join(root, ".next", "BUILD_ID");
    await writeFile(buildId, "id");
    const later = new Date(Date.now() + 60_000);
    await utimes(buildId, later, later);
    expect(needsBuild(root)).toBe(false);

    // Tests do not count as sources.
    const test = path.join(root, "app", "page.test.ts");
    await writeFile(test, "x");
    const evenLater = new Date(Date.now() + 120_000);
    await utimes(test, evenLater, evenLater);
    expect(needsBuild(root)).toBe(false);

    await utimes(path.join(root, "app", "page.tsx"), evenLater, evenLater);
    expect(needsBuild(root)).toBe(true);
  });
});

describe("persistentSecret", () => {
  it("generates a private secret once and reuses it", async () => {
    const file = path.join(await tempDir(), "sub", "nextauth-secret");
    const first = await persistentSecret(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(persistentSecret(file)).resolves.toBe(first);
    expect((await readFile(file, "utf8")).trim()).toBe(first);
  });
});

describe("restart backoff", () => {
  it("waits 1 s, doubling to at most 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((attempt) => restartDelay(attempt))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("grows with quick failures in a row and starts again after a stable run of a minute", () => {
    const backoff = new RestartBackoff();
    expect([0, 500, 3000, 59_999].map((ran) => backoff.next(ran))).toEqual([
      { attempt: 1, delayMs: 1000 },
      { attempt: 2, delayMs: 2000 },
      { attempt: 3, delayMs: 4000 },
      { attempt: 4, delayMs: 8000 },
    ]);
    expect(backoff.next(RESTART_BACKOFF.stableMs)).toEqual({ attempt: 1, delayMs: 1000 });
    expect(backoff.next(10)).toEqual({ attempt: 2, delayMs: 2000 });
  });
});

describe("addresses", () => {
  it("prints localhost for loopback and every-interface binds, else the host", () => {
    expect(defaultPublicUrl("127.0.0.1", 3000)).toBe("http://localhost:3000");
    expect(defaultPublicUrl("0.0.0.0", 8080)).toBe("http://localhost:8080");
    expect(defaultPublicUrl("::", 8080)).toBe("http://localhost:8080");
    expect(defaultPublicUrl("192.168.1.5", 3000)).toBe("http://192.168.1.5:3000");
    expect(defaultPublicUrl("fd00::5", 3000)).toBe("http://[fd00::5]:3000");
  });

  it("probes the listening address, or 127.0.0.1 for every interface", () => {
    expect(probeUrl("127.0.0.1", 3000)).toBe("http://127.0.0.1:3000/");
    expect(probeUrl("0.0.0.0", 3000)).toBe("http://127.0.0.1:3000/");
    expect(probeUrl("::1", 3000)).toBe("http://[::1]:3000/");
  });
});

describe("npm scripts", () => {
  it("exec node, so that a signal sent to npm reaches serve.ts and the worker (not only the shell)", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    for (const name of ["serve", "dev", "worker"]) expect(pkg.scripts[name]).toMatch(/^exec node /);
  });
});

describe("Supervisor", () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const zombie = (pid: number) => {
    try {
      return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
    } catch {
      return false;
    }
  };
  const until = async (check: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    return check();
  };
  // A child that runs until stopped, with a grandchild in its process group (as `next dev`
  // has); it writes the grandchild's pid to the file named by its first argument.
  const sleeper = (pidFile: string) => [
    "-e",
    "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });" +
      "const fs = require('node:fs'); fs.writeFileSync(process.argv[1] + '.tmp', String(c.pid));" +
      "fs.renameSync(process.argv[1] + '.tmp', process.argv[1]); setInterval(() => {}, 1000);",
    pidFile,
  ];
  const grandchildOf = async (pidFile: string): Promise<number> => {
    expect(await until(() => existsSync(pidFile), 5000)).toBe(true);
    const pid = Number(await readFile(pidFile, "utf8"));
    await rm(pidFile);
    expect(pid).toBeGreaterThan(0);
    return pid;
  };

  // Stopped even when a test fails half-way, so that no process outlives the tests.
  const supervisors: Supervisor[] = [];
  afterEach(async () => {
    for (const s of supervisors.splice(0)) await s.shutdown(0);
  });

  it("restarts a killed child after the backoff delay, sweeps what it left behind, and stops everything on shutdown", async () => {
    const pidFile = path.join(await tempDir(), "grandchild.pid");
    const supervisor = new Supervisor({ initialMs: 50, maxMs: 200, stableMs: 60_000 });
    supervisors.push(supervisor);
    const restarted: number[] = [];
    const first = supervisor.supervise({
      name: "sleeper",
      command: process.execPath,
      args: sleeper(pidFile),
      env: process.env,
      stopTimeoutMs: 2000,
      onRestart: (child) => restarted.push(child.process.pid!),
    });
    const grandchild = await grandchildOf(pidFile);
    expect(alive(grandchild)).toBe(true);
    process.kill(first.process.pid!, "SIGKILL");
    expect(await until(() => restarted.length === 1, 5000)).toBe(true);
    expect(alive(restarted[0])).toBe(true);
    // The killed child's grandchild went with its process group (a zombie until reaped at most).
    expect(await until(() => !alive(grandchild) || zombie(grandchild), 2000)).toBe(true);

    const secondGrandchild = await grandchildOf(pidFile);
    await supervisor.shutdown(0);
    await expect(supervisor.done).resolves.toBe(0);
    expect(alive(restarted[0])).toBe(false);
    expect(await until(() => !alive(secondGrandchild) || zombie(secondGrandchild), 2000)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(restarted).toHaveLength(1); // no restart after a requested stop
  }, 20_000);

  it("SIGKILLs a child that ignores SIGTERM after its stop timeout", async () => {
    const supervisor = new Supervisor();
    supervisors.push(supervisor);
    const ready = path.join(await tempDir(), "ready");
    const stubborn = supervisor.spawn(
      "stubborn",
      process.execPath,
      ["-e", "process.on('SIGTERM', () => {}); require('node:fs').writeFileSync(process.argv[1], ''); setInterval(() => {}, 1000);", ready],
      process.env,
      300,
    );
    expect(await until(() => existsSync(ready), 5000)).toBe(true); // its SIGTERM handler is installed
    const started = Date.now();
    await supervisor.shutdown(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(stubborn.process.signalCode).toBe("SIGKILL");
  }, 10_000);
});
