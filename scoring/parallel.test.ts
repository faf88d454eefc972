import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { generatePair } from "./bench/generate.js";
import { perturbCorefUD } from "./bench/perturb-conllu.js";
import { evaluate, type EvaluateOptions, type Report } from "./evaluate.js";
import { readCorpus } from "./formats/index.js";
import { writeConll2012 } from "./formats/write-conll2012.js";
import { combineParts, scorePart, splitForThreads, threadsAvailable, type PartSettings, type SplittableFormat } from "./parallel.js";
import { CRAC_PRESET } from "./presets.js";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The report of the whole files, as the CLI computes it in one thread. */
function whole(key: string, response: string, settings: PartSettings): Report {
  const read = { format: settings.format, words: false };
  return evaluate(readCorpus(key, settings.keyFile, read), readCorpus(response, settings.responseFile, read), settings.options);
}

/** The report from `parts` parts scored apart (in this thread), or null when they do not stand for the whole. */
function inParts(key: string, response: string, settings: PartSettings, parts: number): Report | null | "no split" {
  const split = splitForThreads(key, response, settings.format, parts);
  if (!split) return "no split";
  return combineParts(
    split.map((p) => scorePart(p, settings)),
    settings,
  );
}

function settingsFor(format: SplittableFormat, options: EvaluateOptions): PartSettings {
  return { format, keyFile: `key.${format}`, responseFile: `response.${format}`, options };
}

/** The GUM documents shipped with the demo (real CorefUD, 12 documents), one file. */
function gumKey(): string {
  const folder = join(here, "..", "lib", "demo", "data", "gum");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".conllu.gz"))
    .sort()
    .map((f) => `${gunzipSync(readFileSync(join(folder, f))).toString("utf8").trimEnd()}\n\n`)
    .join("");
}

/** Perturbs each document of a CoNLL-U file on its own (as the benchmark does). */
function perturbEach(key: string, seed: number): string {
  return key
    .split(/(?=^# newdoc id)/m)
    .map((doc, i) => perturbCorefUD(doc, { seed: seed + i }).text)
    .join("");
}

/**
 * CorefUD documents whose `# global.Entity` puts the eid second and declares a head: only the
 * file's first document declares it, so a part read without the declaration in force reads
 * other entities. Each document has eids of its own, unless `reuseEids` (then every document
 * numbers its entities e1, e2, e3, which udapi joins across documents).
 */
function declaredOnce(documents: number, reuseEids = false): string {
  let out = "# global.Entity = etype-eid-head\n";
  for (let d = 0; d < documents; d++) {
    out += `# newdoc id = doc${d}\n`;
    const e = (n: number) => (reuseEids ? `e${n}` : `d${d}e${n}`);
    for (let s = 0; s < 3; s++) {
      out += `# sent_id = doc${d}-s${s}\n# text = a b c d\n`;
      const misc = [`Entity=(person-${e(1)}-1)`, `Entity=(thing-${e(2 + (s % 2))}-2`, `Entity=${e(2 + (s % 2))})`, s === 2 ? `Entity=(person-${e(1)}-1)` : "_"];
      misc.forEach((m, w) => (out += `${w + 1}\tw${w}\tw\tX\t_\t_\t${w === 0 ? 0 : 1}\t${w === 0 ? "root" : "dep"}\t_\t${m}\n`));
      out += "\n";
    }
  }
  return out;
}

describe("scoring in parts (scoring/parallel.ts) equals scoring the whole files", () => {
  const crac: EvaluateOptions = { match: CRAC_PRESET.match, zeroMatch: CRAC_PRESET.zeroMatch, removeSingletons: true, metrics: CRAC_PRESET.metrics };

  it("CorefUD: 12 real GUM documents against a perturbed response, every setting, 2 to 4 parts", () => {
    const key = gumKey();
    const response = perturbEach(key, 7);
    for (const options of [crac, { match: "exact" as const }, { match: "partial" as const, metrics: [...CRAC_PRESET.metrics] }]) {
      const settings = settingsFor("conllu", options);
      const expected = whole(key, response, settings);
      for (const parts of [2, 3, 4]) {
        const got = inParts(key, response, settings, parts);
        expect(got, `${parts} parts`).toEqual(expected);
      }
    }
  });

  it("CorefUD: the `# global.Entity` declaration in force carries into later parts", () => {
    const key = declaredOnce(8);
    // The response merges entity e3 into e2 (in each document).
    const response = key.replace(/(d\d+)e3/g, "$1e2");
    const settings = settingsFor("conllu", { match: "head" });
    const expected = whole(key, response, settings);
    expect(expected.metrics.muc!.precision).toBeLessThan(1);
    expect(inParts(key, response, settings, 4)).toEqual(expected);
    const split = splitForThreads(key, response, "conllu", 2)!;
    expect(split[1].key).toContain("# global.Entity = etype-eid-head\n# newdoc id = doc4");
    // Read without the declaration, `person` and `thing` would be the eids: not even readable.
    const undeclared = (text: string) => text.replace("# global.Entity = etype-eid-head\n", "");
    expect(() => whole(undeclared(key), undeclared(response), settings)).toThrow(/no open mention of entity d0e2/);
  });

  it("keeps every line number: warnings from a later part name the lines of the whole file", () => {
    // A span annotated twice (a reader warning with its line) in the last document.
    const key = declaredOnce(6);
    const response = key.replace(/(doc5-s1\n# text = a b c d\n1\tw0\tw\tX\t_\t_\t0\troot\t_\t)Entity=\(person-d5e1-1\)/, "$1Entity=(person-d5e1-1)(person-d5e1-1)");
    expect(response).not.toBe(key);
    const settings = settingsFor("conllu", { match: "exact" });
    const expected = whole(key, response, settings);
    expect(expected.warnings.length).toBeGreaterThan(0);
    expect(inParts(key, response, settings, 3)).toEqual(expected);
  });

  it("CoNLL-2012: generated corpora, with and without singletons, 2 to 4 parts", () => {
    const pairs = Array.from({ length: 30 }, (_, i) =>
      generatePair({ name: `doc${i}`, tokens: 300 + i * 7, keyEntities: 20, keyMentions: 60, responseEntities: 24 }, 500 + i),
    );
    const key = writeConll2012(pairs.map((p) => p.key));
    // A span annotated twice in the last document: a reader warning with its line.
    const written = writeConll2012(pairs.map((p) => p.response));
    const last = written.lastIndexOf(")\n");
    const open = written.lastIndexOf("(", last);
    const response = `${written.slice(0, last + 1)}|${written.slice(open, last + 1)}${written.slice(last + 1)}`;
    for (const options of [{}, { removeSingletons: true }, { mappedClusterF: true }] as EvaluateOptions[]) {
      const settings = settingsFor("conll2012", options);
      const expected = whole(key, response, settings);
      expect(expected.warnings.map((w) => w.line)).toContainEqual(expect.any(Number));
      for (const parts of [2, 3, 4]) expect(inParts(key, response, settings, parts)).toEqual(expected);
    }
  });

  it("gives up (null: the whole files are scored) wherever parts could differ from the whole", () => {
    const key = declaredOnce(6);
    const settings = settingsFor("conllu", { match: "head" });
    // A format error in a later part.
    const broken = key.replace("doc5-s1\n# text = a b c d\n1\tw0", "doc5-s1\n# text = a b c d\n1\tw0\textra");
    expect(() => whole(key, broken, settings)).toThrow(/response\.conllu:\d+:/);
    expect(inParts(key, broken, settings, 2)).toBeNull();
    // The same document id in two parts (the whole file is an error).
    const repeated = key.replace("# newdoc id = doc5", "# newdoc id = doc0");
    expect(inParts(repeated, repeated, settings, 2)).toBeNull();
    // A response document that is not in the key (the whole files warn about it).
    const extra = `${key}# newdoc id = other\n# sent_id = x\n1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n`;
    expect(inParts(key, extra, settings, 2)).toBeNull();
    // Response documents in another order (the same scores): no split, or parts that give up.
    const docs = key.split(/(?=^# newdoc id)/m);
    const reordered = [docs[0], ...docs.slice(1).reverse()].join("");
    expect(whole(key, reordered, settings).metrics).toEqual(whole(key, key, settings).metrics);
    for (const parts of [2, 3, 4]) expect(["no split", null]).toContain(inParts(key, reordered, settings, parts));
    // Documents that reuse eids (one entity across documents for udapi): a part cannot see
    // where an entity of an earlier part first appeared.
    const reused = declaredOnce(6, true);
    expect(whole(reused, reused, settings).documents).toBe(6);
    for (const parts of [2, 3]) expect(inParts(reused, reused, settings, parts)).toBeNull();
    // One document: nothing to cut.
    expect(splitForThreads(declaredOnce(1), declaredOnce(1), "conllu", 2)).toBeNull();
    // CoNLL-2012 documents without a name are never cut at, and a part with one gives up.
    const unnamed = "#begin document (a); part 0\nx\t(1)\n#end document\n#begin document\ny\t(2)\n#end document\n#begin document (c); part 0\nz\t(3)\n#end document\n";
    const unnamedSettings = settingsFor("conll2012", {});
    expect(inParts(unnamed, unnamed, unnamedSettings, 3)).toBeNull();
  });

  it("runs its worker threads only from the compiled module, where the parts are scored in them", async () => {
    expect(threadsAvailable()).toBe(false);
    // A driver bundled as the CLI is (esbuild): worker threads load the bundle itself.
    const dir = mkdtempSync(join(tmpdir(), "corefboard-parallel-"));
    try {
      const key = join(dir, "key.conllu");
      const response = join(dir, "response.conllu");
      writeFileSync(key, gumKey());
      writeFileSync(response, perturbEach(gumKey(), 3));
      writeFileSync(
        join(dir, "driver.ts"),
        `import { isMainThread } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { evaluateInParts, ScoringThreads, threadsAvailable } from ${JSON.stringify(join(here, "parallel.ts"))};
if (isMainThread) {
  const settings = JSON.parse(process.argv[2]);
  const threads = new ScoringThreads(2);
  const report = await evaluateInParts(readFileSync(settings.keyFile, "utf8"), readFileSync(settings.responseFile, "utf8"), settings, threads);
  process.stdout.write(JSON.stringify({ threadsAvailable: threadsAvailable(), report }));
}
`,
      );
      await build({ entryPoints: [join(dir, "driver.ts")], outfile: join(dir, "driver.mjs"), bundle: true, platform: "node", format: "esm", logLevel: "silent" });
      const settings = { ...settingsFor("conllu", crac), keyFile: key, responseFile: response };
      const run = spawnSync(process.execPath, [join(dir, "driver.mjs"), JSON.stringify(settings)], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.threadsAvailable).toBe(true);
      // Not null: three parts were scored (two in worker threads) and stood for the whole.
      expect(out.report).toEqual(JSON.parse(JSON.stringify(whole(readFileSync(key, "utf8"), readFileSync(response, "utf8"), settings))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
