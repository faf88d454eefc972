import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommanderError } from "commander";
import { PassThrough, Writable } from "node:stream";
import { serve } from "./serve";
import { RESTART_BACKOFF, RestartBackoff, restartDelay } from "./serve/backoff";
import { needsBuild } from "./serve/build";
import { persistentSecret } from "./serve/environment";
import { LOG_LINE_MAX, LogLines, appendToLogFile, cleanLogLine, cleanLogText, pipeLogLines } from "./serve/log";
import { parseServeArgs } from "./serve/options";
import { ROOT } from "./serve/root";
import { Supervisor } from "./serve/supervisor";
import { defaultPublicUrl, probeUrl } from "./serve/urls";

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
    expect(parseServeArgs([])).toEqual({ demo: true, dev: false, build: false, buildOnly: false, workers: 1, webProcesses: availableParallelism(), port: undefined, hostname: "127.0.0.1", freshDataDir: false });
  });

  it("parses every option", () => {
    expect(parseServeArgs(["--no-demo", "--dev", "--build", "--workers", "3", "--port", "3100", "--hostname", "127.0.0.1", "--fresh-data-dir"])).toEqual({
      demo: false,
      dev: true,
      build: true,
      buildOnly: false,
      workers: 3,
      webProcesses: 1,
      port: 3100,
      hostname: "127.0.0.1",
      freshDataDir: true,
    });
    expect(parseServeArgs(["--hostname", "0.0.0.0"]).hostname).toBe("0.0.0.0");
    expect(parseServeArgs(["--build-only"]).buildOnly).toBe(true);
    expect(parseServeArgs(["--web-processes", "4"]).webProcesses).toBe(4);
  });

  it.each([["--workers", "x"], ["--workers", "-1"], ["--web-processes", "0"], ["--port", "0"], ["--bogus"], ["extra"]])("rejects %j", (...argv) => {
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

describe("the log stays plain text", () => {
  /** Lines that `LogLines` writes for `chunks`, then the end of the output. */
  const linesOf = (chunks: (string | Buffer)[], max = LOG_LINE_MAX) => {
    const lines: string[] = [];
    const splitter = new LogLines((line) => lines.push(line), max);
    for (const chunk of chunks) splitter.push(chunk);
    splitter.end();
    return lines;
  };

  it("writes control characters as \\xHH, a run of one as \\xHH×N, drops ANSI escapes, keeps tabs and text", () => {
    expect(cleanLogLine("ready\tin 1004ms")).toBe("ready\tin 1004ms");
    expect(cleanLogLine("a\u0000b")).toBe("a\\x00b");
    expect(cleanLogLine(`pad${"\u0000".repeat(65536)}end`)).toBe("pad\\x00×65536end");
    expect(cleanLogLine("bell\u0007 del\u007f c1\u009b form\u000c")).toBe("bell\\x07 del\\x7f c1\\x9b form\\x0c");
    expect(cleanLogLine("\u001b[32m✓\u001b[39m Ready \u001b[2K\u001b[1Gdone \u001b]0;title\u0007ok")).toBe("✓ Ready done ok");
    expect(cleanLogLine("lone \u001b escape")).toBe("lone \\x1b escape");
    expect(cleanLogLine("ünïcödé ▲ ✓ — fine")).toBe("ünïcödé ▲ ✓ — fine");
  });

  it("cuts a line longer than the limit and says how much it left out, never between a surrogate pair", () => {
    expect(cleanLogLine("x".repeat(10), 10)).toBe("x".repeat(10));
    expect(cleanLogLine("x".repeat(25), 10)).toBe(`${"x".repeat(10)} … [15 more characters not logged]`);
    expect(cleanLogLine(`${"x".repeat(9)}😀tail`, 10)).toBe(`${"x".repeat(9)} … [6 more characters not logged]`);
    expect(cleanLogLine("x".repeat(LOG_LINE_MAX + 1)).length).toBeLessThan(LOG_LINE_MAX + 50);
    expect(cleanLogText("first\nsecond\u0000\r\nthird")).toBe("first\nsecond\\x00\nthird");
  });

  it("splits a child's output into lines wherever its chunks end", () => {
    const output = "▲ Next.js 16.4.5\r\n  Generating static pages (4/16) \r\n✓ Ready\n\nworker ready\rprogress 50%\rprogress 100%\nlast line without a break";
    const expected = ["▲ Next.js 16.4.5", "  Generating static pages (4/16) ", "✓ Ready", "", "worker ready", "progress 50%", "progress 100%", "last line without a break"];
    expect(linesOf([output])).toEqual(expected);
    // Byte by byte: multi-byte characters and \r\n pairs split across chunks.
    const bytes = Buffer.from(output, "utf8");
    expect(linesOf([...bytes].map((b) => Buffer.from([b])))).toEqual(expected);
    // At every split point into two chunks.
    for (let i = 0; i <= bytes.length; i++) expect(linesOf([bytes.subarray(0, i), bytes.subarray(i)]), `split at byte ${i}`).toEqual(expected);
  });

  it("turns bytes that are not UTF-8 into U+FFFD, so the log stays valid UTF-8", () => {
    expect(linesOf([Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a])])).toEqual(["a\ufffd\ufffdb"]);
    expect(linesOf([Buffer.from([0x61, 0xe2, 0x96])])).toEqual(["a\ufffd"]); // a character cut off by the end
  });

  it("holds at most the limit of an endless line, and writes it cut, with the count, when it ends", () => {
    const lines = linesOf(["start ", ..."x".repeat(200).split(""), "\u0000".repeat(1000), " end\nnext\n"], 50);
    expect(lines).toEqual([`start ${"x".repeat(44)} … [${200 - 44 + 1000 + 4} more characters not logged]`, "next"]);
    // A NUL-padded block inside the limit is one short escape.
    expect(linesOf([`a${"\u0000".repeat(40)}b\n`], 50)).toEqual(["a\\x00×40b"]);
  });

  it("writes a log file through an appending descriptor, so emptying the file meanwhile leaves no NUL bytes", async () => {
    const dir = await tempDir();
    const nuls = (file: string) => [...readFileSync(file)].filter((b) => b === 0).length;
    // The trouble: a descriptor opened without O_APPEND (`> serve.log`) writes on at its own
    // offset after the file was emptied, and the gap reads back as NUL bytes.
    const plainFile = path.join(dir, "plain.log");
    const plain = openSync(plainFile, "w");
    writeSync(plain, "before the file was emptied\n");
    truncateSync(plainFile, 0);
    writeSync(plain, "after\n");
    closeSync(plain);
    expect(nuls(plainFile)).toBe("before the file was emptied\n".length);

    const logFile = path.join(dir, "serve.log");
    const fd = openSync(logFile, "w");
    const stream = { write: (() => true) as NodeJS.WriteStream["write"] };
    expect(appendToLogFile(stream, fd)).toBe(true);
    stream.write("before the file was emptied\n");
    truncateSync(logFile, 0);
    const written = new Promise<Error | null | undefined>((resolve) => stream.write(Buffer.from("after ✓\n"), resolve));
    stream.write("and a string in latin1: é\n", "latin1");
    await expect(written).resolves.toBeNull();
    closeSync(fd);
    expect(nuls(logFile)).toBe(0);
    expect(readFileSync(logFile, "latin1")).toBe(Buffer.from("after ✓\n").toString("latin1") + "and a string in latin1: é\n");

    // Not a regular file (a terminal, a pipe, /dev/null): left as it is.
    const devNull = openSync("/dev/null", "w");
    const untouched = stream.write;
    const other = { write: untouched };
    expect(appendToLogFile(other, devNull)).toBe(false);
    expect(other.write).toBe(untouched);
    closeSync(devNull);
  });

  it("copies a stream's lines to the output, waiting while the output is full", async () => {
    const from = new PassThrough();
    const written: string[] = [];
    let release: (() => void) | undefined;
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString("utf8"));
        release = done; // full until released
      },
    });
    pipeLogLines(from, out);
    from.write("one\u0000\ntwo\n");
    await new Promise((r) => setImmediate(r));
    expect(from.isPaused()).toBe(true);
    release!();
    await new Promise((r) => setImmediate(r));
    release!();
    from.end("three");
    await new Promise((r) => setImmediate(r));
    release!();
    await new Promise((r) => setImmediate(r));
    expect(written.join("")).toBe("one\\x00\ntwo\nthree\n");
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

  it("passes a child's stdout and stderr on as plain-text log lines", async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const text = { stdout: "", stderr: "" };
    stdout.on("data", (chunk: Buffer) => (text.stdout += chunk.toString("utf8")));
    stderr.on("data", (chunk: Buffer) => (text.stderr += chunk.toString("utf8")));
    const supervisor = new Supervisor(RESTART_BACKOFF, { stdout, stderr });
    supervisors.push(supervisor);
    const child = supervisor.spawn("noisy", process.execPath, [
      "-e",
      "process.stdout.write('ready\\u0000\\u0000\\u0000 ' + '\\u0000'.repeat(100000) + '\\r\\n\\u001b[32mgreen\\u001b[39m\\n'); process.stderr.write('oops\\u0007\\n' + 'x'.repeat(20000) + '\\n');",
    ], process.env);
    expect(await child.exited).toBe(0);
    expect(await until(() => text.stdout.endsWith("green\n") && text.stderr.split("\n").length === 3, 5000)).toBe(true);
    // The line is held up to the limit (4,096 characters: "ready", 3 NULs, a space, 4,087 NULs), the rest counted.
    expect(text.stdout).toBe(`ready\\x00×3 \\x00×${LOG_LINE_MAX - 9} … [${100_009 - LOG_LINE_MAX} more characters not logged]\ngreen\n`);
    const [oops, long] = text.stderr.split("\n");
    expect(oops).toBe("oops\\x07");
    expect(long).toBe(`${"x".repeat(LOG_LINE_MAX)} … [${20000 - LOG_LINE_MAX} more characters not logged]`);
    expect(text.stdout + text.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  }, 10_000);
});
