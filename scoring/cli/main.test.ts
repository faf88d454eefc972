/**
 * The `corefboard score` command: output shapes, options and exit codes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT_FORMAT, EXIT_OK, EXIT_USAGE, main } from "./main.js";

/** A new temp folder, removed after the tests. */
const tempDirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "corefboard-cli-"));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const here = dirname(fileURLToPath(import.meta.url));
const data = join(here, "..", "test", "fixtures", "reference-scorer", "data");
const KEY = join(data, "TC-A.key");
const RESPONSE = join(data, "TC-A-4.response");

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe("corefboard score", () => {
  it("prints a table with every metric, its counts and the CoNLL F1", async () => {
    const r = await run("score", KEY, RESPONSE);
    expect(r.code).toBe(EXIT_OK);
    for (const label of ["Mentions", "MUC", "B³", "CEAFm", "CEAFe", "LEA", "BLANC", "CoNLL F1"]) expect(r.stdout).toContain(label);
    expect(r.stdout).toMatch(/MUC\s+33\.33%\s+\(1 \/ 3\)\s+33\.33%\s+\(1 \/ 3\)\s+33\.33%/);
    expect(r.stdout).toMatch(/non-coref links\s+45\.45%\s+\(5 \/ 11\)/);
  });

  it("--format json prints the documented object with fractions in [0, 1]", async () => {
    const r = await run("score", KEY, RESPONSE, "--format", "json");
    expect(r.code).toBe(EXIT_OK);
    const out = JSON.parse(r.stdout);
    expect(out.documents).toBe(1);
    expect(Object.keys(out.metrics).sort()).toEqual(["bcub", "blanc", "ceafe", "ceafm", "conll", "lea", "mentions", "muc"]);
    for (const m of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"]) {
      expect(Object.keys(out.metrics[m]).sort()).toEqual(["f1", "precision", "precision_den", "precision_num", "recall", "recall_den", "recall_num"]);
      for (const f of ["recall", "precision", "f1"]) {
        expect(out.metrics[m][f]).toBeGreaterThanOrEqual(0);
        expect(out.metrics[m][f]).toBeLessThanOrEqual(1);
      }
    }
    expect(out.metrics.muc).toMatchObject({ recall_num: 1, recall_den: 3, precision_num: 1, precision_den: 3 });
    expect(out.metrics.ceafe.recall_num).toBeCloseTo(2.2, 12);
    expect(out.metrics.blanc.f1).toBeCloseTo(0.30357142857142855, 12);
    expect(out.metrics.conll.f1).toBeCloseTo((out.metrics.muc.f1 + out.metrics.bcub.f1 + out.metrics.ceafe.f1) / 3, 15);
    expect(out.warnings).toEqual([]);
    expect(out.per_document).toBeUndefined();
  });

  it("--metrics selects metrics; conll expands to muc, bcub, ceafe", async () => {
    const r = await run("score", KEY, RESPONSE, "--format", "json", "--metrics", "lea,conll");
    expect(Object.keys(JSON.parse(r.stdout).metrics).sort()).toEqual(["bcub", "ceafe", "conll", "lea", "muc"]);
    const only = await run("score", KEY, RESPONSE, "--format", "json", "--metrics", "muc");
    expect(Object.keys(JSON.parse(only.stdout).metrics)).toEqual(["muc"]);
  });

  it("--per-document adds each document's scores", async () => {
    const r = await run("score", KEY, RESPONSE, "--format", "json", "--per-document");
    const out = JSON.parse(r.stdout);
    expect(out.per_document).toHaveLength(1);
    expect(out.per_document[0].document).toBe("LuoTestCase");
    expect(out.per_document[0].metrics.muc).toEqual(out.metrics.muc);
  });

  it("--remove-singletons drops singleton entities before scoring", async () => {
    const kept = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json")).stdout);
    const removed = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json", "--remove-singletons")).stdout);
    // TC-A key {a} {bc} {def}: without singletons 5 key mentions remain instead of 6.
    expect(kept.metrics.mentions.recall_den).toBe(6);
    expect(removed.metrics.mentions.recall_den).toBe(5);
    // MUC has no links in singletons, so it does not change; B³ does.
    expect(removed.metrics.muc).toEqual(kept.metrics.muc);
    expect(removed.metrics.bcub.recall_den).toBe(5);
    expect(removed.metrics.bcub.f1).not.toBeCloseTo(kept.metrics.bcub.f1, 6);
  });

  it("--mapped-cluster-f [threshold] adds a Mapped F row and an mcf object", async () => {
    // TC-A key {a} {b c} {d e f}, response {a} {b c x} {d y} {x'}: F = 1, 4/5 and 2/5 with
    // the matching key entities, all above 0.2, so YES-YES = 1 + 2 + 1 = 4 of 6 key spans
    // and 7 response spans. With threshold 0.5 the {d y} pair (2/5) no longer maps: 3.
    const table = await run("score", KEY, RESPONSE, "--mapped-cluster-f");
    expect(table.code).toBe(EXIT_OK);
    expect(table.stdout).toMatch(/Mapped F\s+66\.67%\s+\(4 \/ 6\)\s+57\.14%\s+\(4 \/ 7\)\s+61\.54%/);
    expect(table.stdout.indexOf("Mapped F")).toBeGreaterThan(table.stdout.indexOf("LEA"));
    expect(table.stdout.indexOf("Mapped F")).toBeLessThan(table.stdout.indexOf("BLANC"));
    expect((await run("score", KEY, RESPONSE)).stdout).not.toContain("Mapped F");

    const json = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json", "--mapped-cluster-f", "--per-document")).stdout);
    expect(json.metrics.mcf).toMatchObject({ recall_num: 4, recall_den: 6, precision_num: 4, precision_den: 7 });
    expect(json.metrics.mcf.recall).toBeCloseTo(4 / 6, 15);
    expect(json.per_document[0].metrics.mcf).toEqual(json.metrics.mcf);
    const strict = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json", "--metrics", "muc", "--mapped-cluster-f", "0.5")).stdout);
    expect(Object.keys(strict.metrics)).toEqual(["muc", "mcf"]);
    expect(strict.metrics.mcf).toMatchObject({ recall_num: 3, recall_den: 6, precision_num: 3, precision_den: 7 });

    for (const bad of ["1.5", "-0.1", "abc", "0x1", ""]) {
      const r = await run("score", KEY, RESPONSE, `--mapped-cluster-f=${bad}`);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stderr).toContain("--mapped-cluster-f threshold must be a number in [0, 1]");
    }
  });

  it("warns about key documents missing from the response and response-only documents", async () => {
    const dir = tempDir();
    const key = join(dir, "key.conll");
    const response = join(dir, "response.conll");
    writeFileSync(key, "#begin document (a); part 0\nx\t(1)\ny\t(1)\n#end document\n#begin document (b); part 0\nz\t(2)\n#end document\n");
    writeFileSync(response, "#begin document (a); part 000\nx\t(1)\ny\t(1)\n#end document\n#begin document (c); part 0\nz\t(2)\n#end document\n");
    const r = await run("score", key, response, "--format", "json");
    const out = JSON.parse(r.stdout);
    expect(out.documents).toBe(2);
    const codes = out.warnings.map((w: { code: string }) => w.code).sort();
    expect(codes).toEqual(["missing-document", "response-only-document"]);
    // Document a is perfect, b is empty in the response: 2 of 3 key mentions found.
    expect(out.metrics.mentions).toMatchObject({ recall_num: 2, recall_den: 3, precision_num: 2, precision_den: 2 });
    const table = await run("score", key, response);
    expect(table.stderr).toContain('key document "b/part 0" is not in the response');
  });

  it("exits 2 on bad usage and 3 on a format error, with the location", async () => {
    expect((await run()).code).toBe(EXIT_USAGE);
    expect((await run("score", KEY)).code).toBe(EXIT_USAGE);
    expect((await run("score", KEY, RESPONSE, "--metrics", "nope")).code).toBe(EXIT_USAGE);
    expect((await run("score", KEY, RESPONSE, "--format", "xml")).code).toBe(EXIT_USAGE);
    expect((await run("score", KEY, RESPONSE, "--bogus")).code).toBe(EXIT_USAGE);
    const missing = await run("score", KEY, "/no/such/file.conll");
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.stderr).toContain("cannot read /no/such/file.conll");

    const dir = tempDir();
    const bad = join(dir, "bad.conll");
    writeFileSync(bad, "#begin document (a); part 0\nx\t(1\ny\t2)\n#end document\n");
    const r = await run("score", KEY, bad);
    expect(r.code).toBe(EXIT_FORMAT);
    expect(r.stderr).toContain(`${bad}:3:`);
    expect(r.stderr).toContain("^");
    const json = await run("score", KEY, bad, "--format", "json");
    expect(json.code).toBe(EXIT_FORMAT);
    expect(JSON.parse(json.stdout).error).toMatchObject({ file: bad, line: 3 });
  });

  it("runs as `corefboard` through its bin script", () => {
    const bin = join(here, "bin.mjs");
    const r = spawnSync(process.execPath, [bin, "score", KEY, RESPONSE, "--format", "json", "--metrics", "muc"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).metrics.muc.recall_den).toBe(3);
    const bad = spawnSync(process.execPath, [bin, "score", KEY], { encoding: "utf8" });
    expect(bad.status).toBe(EXIT_USAGE);
  });
});
