import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CommanderError } from "commander";
import { needsBuild, parseServeArgs, persistentSecret } from "./serve";

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
    expect(parseServeArgs([])).toEqual({ demo: true, dev: false, build: false, workers: 1, port: undefined, hostname: undefined, freshDataDir: false });
  });

  it("parses every option", () => {
    expect(parseServeArgs(["--no-demo", "--dev", "--build", "--workers", "3", "--port", "3100", "--hostname", "127.0.0.1", "--fresh-data-dir"])).toEqual({
      demo: false,
      dev: true,
      build: true,
      workers: 3,
      port: 3100,
      hostname: "127.0.0.1",
      freshDataDir: true,
    });
  });

  it.each([["--workers", "x"], ["--workers", "-1"], ["--port", "0"], ["--bogus"], ["extra"]])("rejects %j", (...argv) => {
    expect(() => parseServeArgs(argv)).toThrow(CommanderError);
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
