/**
 * The `corefboard score` command: output shapes, options and exit codes.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { perturbCorefUD } from "../bench/perturb-conllu.js";
import { METRICS, SELECTABLE_METRICS } from "../metrics/registry.js";
import { PARALLEL_MIN_CHARS } from "../parallel.js";
import { CRAC_PRESET } from "../presets.js";
import { EXIT_FORMAT, EXIT_OK, EXIT_USAGE, evaluateOptionsFrom, main, parseMetrics } from "./main.js";

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

/** The compiled CLI: the bundle folder, and how its build went. */
interface CompiledCli {
  dist: string;
  build: SpawnSyncReturns<string>;
}

let compiled: CompiledCli | undefined;
afterAll(() => {
  compiled = undefined; // its folder is removed with the other temp folders
});

/**
 * Builds the CLI (`scripts/build-cli.mjs`) into a temp folder once, for every test that runs
 * the bundle: the build is the same each time (it takes about a second), and no test changes
 * the folder. Each caller still checks the build's outcome.
 */
function compiledCli(): CompiledCli {
  if (!compiled) {
    const dist = tempDir();
    compiled = { dist, build: spawnSync(process.execPath, [join(here, "..", "..", "scripts", "build-cli.mjs"), dist], { encoding: "utf8" }) };
  }
  return compiled;
}

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe("score options", () => {
  const base = { bcubWeighting: "mention" as const };

  it("default to exact match, dependent zeros, singletons and zeros kept, the default metrics", () => {
    expect(evaluateOptionsFrom(base)).toEqual({
      match: "exact",
      zeroMatch: "dependent",
      removeSingletons: false,
      removeZeros: false,
      metrics: [...METRICS],
      bcubWeighting: "mention",
    });
  });

  it("--preset crac expands to CRAC_PRESET: head match, dependent zeros, no singletons, the CorefUD scorer's metrics", () => {
    expect(CRAC_PRESET).toEqual({
      match: "head",
      zeroMatch: "dependent",
      removeSingletons: true,
      removeZeros: false,
      metrics: ["muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero"],
    });
    const o = evaluateOptionsFrom({ ...base, preset: "crac" });
    expect(o).toMatchObject({ match: "head", zeroMatch: "dependent", removeSingletons: true, removeZeros: false });
    expect(o.metrics).toEqual([...CRAC_PRESET.metrics]);
  });

  it("explicit options win over the preset, one by one", () => {
    expect(evaluateOptionsFrom({ ...base, preset: "crac", match: "partial" })).toMatchObject({ match: "partial", removeSingletons: true, zeroMatch: "dependent" });
    expect(evaluateOptionsFrom({ ...base, preset: "crac", removeSingletons: false })).toMatchObject({ match: "head", removeSingletons: false });
    expect(evaluateOptionsFrom({ ...base, preset: "crac", zeroMatch: "linear", removeZeros: true })).toMatchObject({ match: "head", zeroMatch: "linear", removeZeros: true });
    expect(evaluateOptionsFrom({ ...base, preset: "crac", metrics: "conll,mor" }).metrics).toEqual(["muc", "bcub", "ceafe", "mor"]);
    expect(evaluateOptionsFrom({ ...base, match: "head", removeSingletons: true })).toMatchObject({ match: "head", removeSingletons: true, metrics: [...METRICS] });
  });

  it("--metrics accepts every selectable metric of the registry, and conll", () => {
    expect(parseMetrics(SELECTABLE_METRICS.join(","))).toEqual([...SELECTABLE_METRICS]);
    for (const m of SELECTABLE_METRICS) expect(parseMetrics(` ${m.toUpperCase()} `)).toEqual([m]);
    expect(parseMetrics("mor,conll,mor")).toEqual(["mor", "muc", "bcub", "ceafe"]);
    expect(() => parseMetrics("mcf")).toThrow(`unknown metric "mcf"; choose from ${SELECTABLE_METRICS.join(", ")}, conll`);
    expect(() => parseMetrics(" , ")).toThrow("--metrics names no metric");
  });

  it("parses the flags from the command line", async () => {
    // Flags reach evaluate: on CoNLL-2012 input, --preset crac asks for head match, which
    // needs heads, and --match exact on top of it scores with the preset's other settings.
    const crac = await run("score", KEY, RESPONSE, "--preset", "crac");
    expect(crac.code).toBe(EXIT_USAGE);
    expect(crac.stderr).toContain("head match needs mention heads, which only CorefUD CoNLL-U input has");
    expect(crac.stdout).toBe("");
    for (const match of ["partial", "head"]) {
      const r = await run("score", KEY, RESPONSE, "--match", match, "--format", "json");
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stderr).toContain(`${match} match needs mention heads`);
    }
    for (const bad of [["--match", "fuzzy"], ["--zero-match", "nearest"], ["--preset", "conll"]]) {
      const r = await run("score", KEY, RESPONSE, ...bad);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stderr).toContain(`argument '${bad[1]}' is invalid`);
    }
  });
});

describe("corefboard score with matching modes and presets", () => {
  it("prints the settings line before the table", async () => {
    const r = await run("score", KEY, RESPONSE);
    expect(r.stdout.split("\n")[0]).toBe("Scored as CoNLL-2012 (reference scorer v8.01): exact match, singletons kept");
    const removed = await run("score", KEY, RESPONSE, "--remove-singletons");
    expect(removed.stdout.split("\n")[0]).toBe("Scored as CoNLL-2012 (reference scorer v8.01): exact match, singletons excluded");
  });

  it("--preset crac --match exact scores CoNLL-2012 input with the CRAC metrics, MOR and Zeros rows included", async () => {
    const json = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json", "--preset", "crac", "--match", "exact")).stdout);
    expect(Object.keys(json.metrics)).toEqual(["muc", "bcub", "ceafm", "ceafe", "lea", "mor", "zero", "blanc", "conll"]);
    // Singletons excluded: TC-A's key {a} {bc} {def} keeps 5 of its 6 mentions.
    expect(json.metrics.bcub.recall_den).toBe(5);
    // No empty nodes in CoNLL-2012 input: no zeros on either side.
    expect(json.metrics.zero).toMatchObject({ recall_num: 0, recall_den: 0, precision_num: 0, precision_den: 0 });
    const kept = JSON.parse((await run("score", KEY, RESPONSE, "--format", "json", "--preset", "crac", "--match", "exact", "--no-remove-singletons")).stdout);
    expect(kept.metrics.bcub.recall_den).toBe(6);

    const table = await run("score", KEY, RESPONSE, "--preset", "crac", "--match", "exact");
    expect(table.code).toBe(EXIT_OK);
    expect(table.stdout.split("\n")[0]).toBe("Scored as CoNLL-2012 (reference scorer v8.01): exact match, singletons excluded");
    expect(table.stdout).toMatch(/\nMOR\s+\d+\.\d\d%\s+\(\d+ \/ \d+\)/);
    expect(table.stdout).toMatch(/\nZeros\s+0\.00%\s+\(0 \/ 0\)/);
    expect(table.stdout).not.toContain("Mentions");
  });
});

describe("corefboard score on CorefUD CoNLL-U", () => {
  const fixtures = join(here, "..", "test", "fixtures", "corefud-scorer");
  const expected = JSON.parse(readFileSync(join(fixtures, "expected.json"), "utf8")) as {
    entries: { test: string; key: string; response: string; metrics: Record<string, Record<string, number>>; conll: { f1: number } }[];
  };
  const entry = (test: string) => expected.entries.find((e) => e.test === test)!;

  it("--format json gives the CorefUD scorer's numbers, mor and zero included, in each zero mode", async () => {
    for (const [test, extra] of [
      ["test_ZF4", []],
      ["test_ZF4_linear", ["--zero-match", "linear"]],
    ] as const) {
      const e = entry(test);
      const r = await run("score", join(fixtures, "data", e.key), join(fixtures, "data", e.response), "--input-format", "conllu", "--format", "json", "--preset", "crac", "--no-remove-singletons", ...extra);
      expect(r.code, r.stderr).toBe(EXIT_OK);
      const got = JSON.parse(r.stdout).metrics;
      expect(Object.keys(got)).toEqual(["muc", "bcub", "ceafm", "ceafe", "lea", "mor", "zero", "blanc", "conll"]);
      for (const [metric, want] of Object.entries(e.metrics)) {
        for (const field of ["recall", "precision", "f1"]) expect(got[metric][field], `${test} ${metric} ${field}`).toBeCloseTo(want[field], 9);
        if (metric !== "blanc") {
          for (const field of ["recall_num", "recall_den", "precision_num", "precision_den"]) expect(got[metric][field], `${test} ${metric} ${field}`).toBeCloseTo(want[field], 9);
        }
      }
      expect(got.conll.f1).toBeCloseTo(e.conll.f1, 9);
    }
  });

  it("partial and head match work on CorefUD input; key and response in two formats are a usage error", async () => {
    const e = entry("test_HMA5");
    const key = join(fixtures, "data", e.key);
    const response = join(fixtures, "data", e.response);
    const head = JSON.parse((await run("score", key, response, "--input-format", "conllu", "--format", "json", "--match", "head")).stdout);
    expect(head.metrics.conll.f1).toBeCloseTo(e.conll.f1, 12);
    const conllu = join(tempDir(), "key.conllu");
    writeFileSync(conllu, readFileSync(join(fixtures, "data", "exact-match", "TC-A.key")));
    const crossed = await run("score", conllu, RESPONSE);
    expect(crossed.code).toBe(EXIT_USAGE);
    expect(crossed.stderr).toContain("both must be in the same format");
    const table = await run("score", key, response, "--input-format", "conllu", "--preset", "crac", "--match", "partial");
    expect(table.stdout.split("\n")[0]).toBe("Scored as CorefUD (CorefUD scorer v1.2): partial match, singletons excluded, zeros kept, dependent zero matching");
  });
});

describe("the README's CorefUD examples", () => {
  // Each block "$ npx corefboard score ARGS" then lines of its output (header rows left out).
  const readme = readFileSync(join(here, "..", "..", "README.md"), "utf8");
  const examples = [...readme.matchAll(/```\n\$ npx corefboard score ([^\n]*)\n([^`]*)```/g)].map((m) => ({
    args: m[1].split(" ").map((a) => a.replace("$D", join(here, "..", "test", "fixtures", "corefud-scorer", "data"))),
    lines: m[2].trimEnd().split("\n"),
  }));

  it("has one example per mode, each printing what the README shows", async () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const e of examples) {
      const r = await run("score", ...e.args);
      expect(r.code, r.stderr).toBe(EXIT_OK);
      const printed = r.stdout.split("\n");
      for (const line of e.lines) expect(printed, `README line of "${e.args.join(" ")}"`).toContain(line);
    }
  });
});

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

  it("the compiled CLI (scripts/build-cli.mjs) prints what the TypeScript CLI prints", async () => {
    const { dist, build } = compiledCli();
    expect(build.status, build.stderr).toBe(0);
    const inputs = JSON.parse(readFileSync(join(dist, "inputs.json"), "utf8"));
    expect(inputs).toContain("scoring/cli/main.ts");
    expect(inputs).toContain("scoring/evaluate.ts");
    expect(inputs.every((p: string) => p.startsWith("scoring/"))).toBe(true);
    for (const args of [
      ["score", KEY, RESPONSE],
      ["score", KEY, RESPONSE, "--format", "json", "--per-document", "--mapped-cluster-f"],
      ["score", KEY, RESPONSE, "--preset", "crac"],
    ]) {
      const expected = await run(...args);
      const r = spawnSync(process.execPath, [join(here, "bin.mjs"), ...args], { encoding: "utf8", env: { ...process.env, COREFBOARD_CLI_DIST: dist } });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual(expected);
    }
  });

  it("the compiled CLI on several threads (--threads 2, 3) prints exactly what one thread prints", () => {
    const { dist, build } = compiledCli();
    expect(build.status, build.stderr).toBe(0);
    const dir = tempDir();
    // The 12 GUM documents shipped with the demo, and a perturbed response (warnings included).
    const folder = join(here, "..", "..", "lib", "demo", "data", "gum");
    // Once each: key and response together are over the 2 MiB below which one thread is used
    // (checked below). Every run here reads and scores them whole, nine times over three
    // thread counts, so they are no larger than that needs.
    const docs = readdirSync(folder)
      .filter((f) => f.endsWith(".conllu.gz"))
      .sort()
      .map((f) => `${gunzipSync(readFileSync(join(folder, f))).toString("utf8").trimEnd()}\n\n`);
    const key = join(dir, "gum.key.conllu");
    const response = join(dir, "gum.response.conllu");
    writeFileSync(key, docs.join(""));
    writeFileSync(response, docs.map((d, i) => perturbCorefUD(d, { seed: 40 + i }).text).join(""));
    // A format error in the last document: the whole files are scored and give it.
    const broken = join(dir, "broken.conllu");
    const last = docs.length - 1;
    writeFileSync(broken, [...docs.slice(0, last), docs[last].replace(/\n(\d+)\t([^\t\n]*)\t/, "\n$1\t$2\t\t")].join(""));
    // Large enough for several threads (`threadsFor`), or the comparisons below would compare one thread with itself.
    for (const other of [response, broken]) expect(statSync(key).size + statSync(other).size).toBeGreaterThanOrEqual(PARALLEL_MIN_CHARS);
    const bin = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(here, "bin.mjs"), ...args], { encoding: "utf8", env: { ...process.env, COREFBOARD_CLI_DIST: dist } });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    for (const args of [
      ["score", key, response, "--preset", "crac", "--format", "json", "--per-document"],
      ["score", key, response, "--match", "partial"],
      ["score", key, broken, "--preset", "crac"],
    ]) {
      const one = bin(...args, "--threads", "1");
      expect(one.stdout.length + one.stderr.length).toBeGreaterThan(0);
      for (const threads of ["2", "3"]) expect(bin(...args, "--threads", threads), args.join(" ")).toEqual(one);
    }
    expect(bin("score", key, broken, "--threads", "2").code).toBe(EXIT_FORMAT);
    expect(bin("score", key, response, "--threads", "9").code).toBe(EXIT_USAGE);
    expect(bin("score", key, response, "--threads", "0").stderr).toContain("an integer from 1 to 4");
  });

  it("bin.mjs runs the bundle only while no source it lists is newer, else the sources through tsx", () => {
    const dist = tempDir();
    writeFileSync(join(dist, "corefboard.mjs"), 'export async function main(argv, io) { io.stdout("bundle\\n"); return 0; }\n');
    writeFileSync(join(dist, "inputs.json"), JSON.stringify(["scoring/cli/main.ts", "scoring/evaluate.ts"]));
    const bin = (dir: string) =>
      spawnSync(process.execPath, [join(here, "bin.mjs"), "score", KEY, RESPONSE, "--metrics", "muc"], { encoding: "utf8", env: { ...process.env, COREFBOARD_CLI_DIST: dir } });
    const later = Date.now() / 1000 + 3600;
    utimesSync(join(dist, "corefboard.mjs"), later, later);
    expect(bin(dist).stdout).toBe("bundle\n");
    // Older than the sources: the TypeScript CLI runs.
    utimesSync(join(dist, "corefboard.mjs"), 1, 1);
    expect(bin(dist).stdout).toContain("MUC");
    // A listed source that no longer exists, or no list: the TypeScript CLI runs.
    utimesSync(join(dist, "corefboard.mjs"), later, later);
    writeFileSync(join(dist, "inputs.json"), JSON.stringify(["scoring/cli/no-such-file.ts"]));
    expect(bin(dist).stdout).toContain("MUC");
    rmSync(join(dist, "inputs.json"));
    expect(bin(dist).stdout).toContain("MUC");
  });

  it("reads UTF-8 with or without a byte-order mark, and locates a malformed byte", async () => {
    const dir = tempDir();
    const text = "#begin document (a); part 0\nx\t(1)\nÿ\t(1)\n#end document\n";
    const plain = join(dir, "plain.conll");
    const bom = join(dir, "bom.conll");
    const bad = join(dir, "bad.conll");
    writeFileSync(plain, text);
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    writeFileSync(bad, Buffer.concat([Buffer.from("#begin document (a); part 0\nx\t(1)\n"), Buffer.from([0x79, 0xc3, 0x28]), Buffer.from("\t(1)\n#end document\n")]));
    const a = await run("score", plain, bom, "--format", "json");
    expect(a.code).toBe(EXIT_OK);
    expect(JSON.parse(a.stdout).metrics.muc.f1).toBe(1);
    const r = await run("score", plain, bad);
    expect(r.code).toBe(EXIT_FORMAT);
    expect(r.stderr).toContain(`${bad}:3:2`);
    expect(r.stderr.toLowerCase()).toContain("utf-8");
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
