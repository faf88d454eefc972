/**
 * Spans annotated in several entities, against the CorefUD scorer's own numbers: the GUM repro
 * (`fixtures/corefud-duplicates/repro/`, in both bracket orders and de-duplicated) and 120
 * generated cases (`generate.ts` there: duplicates in the key, the response or both, both
 * bracket orders, one- and multi-word spans, zeros, singleton and non-singleton second
 * entities, eids whose string order is not their numeric order, files of two documents, eids
 * reused across documents), and files whose documents begin with a bare `# newdoc` (no id),
 * which udapi numbers by position.
 * Every metric's counts must equal what the CorefUD scorer v1.2 gave (`expected.json`, made
 * outside the repository by `make_expected.py`) within 1e-9 relative, in 12 settings: exact,
 * partial and head match, singletons kept and excluded, dependent and linear zeros.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate, type MentionMatch, type ZeroMatch } from "../evaluate.js";
import type { Corpus } from "../types.js";
import { BARE_NEWDOC_CASES, CASES, generateBareNewdocCase, generateCase, type CaseFiles } from "./fixtures/corefud-duplicates/generate.js";
import { FIXTURE_METRICS, scorerCounts, type ScorerCounts } from "./corefud-counts.js";

const root = fileURLToPath(new URL("./fixtures/corefud-duplicates/", import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel));
const json = (rel: string) => JSON.parse(read(rel).toString("utf8"));

type Counts = ScorerCounts;
const expected = json("expected.json") as {
  cases: Record<string, { key_sha256: string; response_sha256: string; settings: Record<string, Counts | { error: string }> }>;
};
const listed = json("cases.json") as { cases: (CaseFiles & { duplicates: string })[]; bareNewdoc: CaseFiles[] };
const generated = listed.cases;
const repro = (json("repro/cases.json") as { cases: CaseFiles[] }).cases;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A case's key and response, read once for all its settings. */
function readCase(c: CaseFiles): { key: Corpus; response: Corpus } {
  return { key: readCorefUD(read(c.key), c.key), response: readCorefUD(read(c.response), c.response) };
}

/** Our counts in the expected file's layout, for one setting (`match/singletons/zeros`). */
function ourCounts(files: { key: Corpus; response: Corpus }, setting: string): Counts {
  const [match, singletons, zeroMatch] = setting.split("/") as [MentionMatch, string, ZeroMatch];
  return scorerCounts(evaluate(files.key, files.response, { match, zeroMatch, removeSingletons: singletons === "no-singletons", metrics: FIXTURE_METRICS }).metrics);
}

/** The differences between the scorer's counts and ours, as readable lines. */
function differences(want: Counts, got: Counts): string[] {
  const out: string[] = [];
  for (const [metric, w] of Object.entries(want)) {
    const g = got[metric];
    w.forEach((x, i) => {
      if (!(Math.abs(g[i] - x) <= 1e-9 * Math.max(1, Math.abs(x)))) out.push(`${metric}[${["recall_num", "recall_den", "precision_num", "precision_den"][i]}]: scorer ${x}, ours ${g[i]}`);
    });
  }
  return out;
}

function check(c: CaseFiles): void {
  const want = expected.cases[c.name];
  expect(want, `${c.name} has no expected values: run make_expected.py`).toBeDefined();
  expect(sha256(read(c.key)), `${c.key} changed since make_expected.py ran`).toBe(want.key_sha256);
  expect(sha256(read(c.response)), `${c.response} changed since make_expected.py ran`).toBe(want.response_sha256);
  const settings = Object.keys(want.settings);
  expect(settings).toHaveLength(12);
  const problems: string[] = [];
  const files = readCase(c);
  for (const setting of settings) {
    const w = want.settings[setting];
    if ("error" in w) throw new Error(`${c.name} ${setting}: the scorer refused this case (${w.error}); the generator should not make it`);
    for (const d of differences(w as Counts, ourCounts(files, setting))) problems.push(`${setting} ${d}`);
  }
  expect(problems, `${c.name}`).toEqual([]);
}

describe("a span annotated in several entities, as the CorefUD scorer scores it", () => {
  describe("the GUM repro (GUM_bio_gordon)", () => {
    for (const c of repro) it(`${c.name}: every metric in 12 settings`, () => check(c));

    it("gives MUC recall 6/11 with the duplicate in either bracket order, and without it", () => {
      for (const c of repro) {
        const counts = ourCounts(readCase(c), "head/singletons/dependent");
        expect(counts.muc.slice(0, 2), c.name).toEqual([6, 11]);
      }
    });

    it("warns about the span in two entities, naming the CorefUD scorer's rule", () => {
      const [c] = repro;
      const warnings = readCorefUD(read(c.response), c.response).warnings.filter((w) => w.code === "repeated-span-other-entity");
      expect(warnings).toHaveLength(1);
      expect(warnings[0].line).toBe(18);
      expect(warnings[0].message).toMatch(/looked up in the last of its entities in udapi's entity order .*as the CorefUD scorer does$/);
      expect(warnings[0].message).not.toMatch(/reference scorer/);
    });
  });

  describe("generated cases", () => {
    it(`the committed files are what generate.ts makes (${CASES} cases)`, () => {
      expect(generated).toHaveLength(CASES);
      for (let i = 0; i < CASES; i += 7) {
        const g = generateCase(i);
        expect(read(g.info.key).toString("utf8"), g.info.key).toBe(g.key);
        expect(read(g.info.response).toString("utf8"), g.info.response).toBe(g.response);
      }
    });

    it("cover every kind of duplicate the issue names", () => {
      const kinds = new Map<string, number>();
      const count = (kind: string) => kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      for (const c of generated) {
        for (const [side, file] of [["key", c.key], ["response", c.response]] as const) {
          for (const doc of readCorefUD(read(file), file).documents) {
            const { entities, eids, carried } = doc.corefud!;
            if (carried) count("eid reused from an earlier document");
            const holders = new Map<string, { entity: number; line: number; column: number; zero: boolean; size: number }[]>();
            entities.forEach((mentions, e) => {
              for (const m of mentions) {
                const k = m.nodes.join(",");
                const list = holders.get(k) ?? [];
                list.push({ entity: e, line: m.line, column: m.column, zero: m.zero, size: m.nodes.length });
                holders.set(k, list);
              }
            });
            for (const list of holders.values()) {
              const others = new Set(list.map((h) => h.entity));
              if (others.size < 2) continue;
              count(`in the ${side}`);
              count(list[0].zero ? "a zero" : list[0].size === 1 ? "one word" : "several words");
              // Bracket order against eid order: the first bracket written has the larger eid, or the smaller.
              const [a, b] = [...list].sort((x, y) => x.line - y.line || x.column - y.column);
              if (a.entity !== b.entity) count(eids[a.entity] > eids[b.entity] ? "larger eid written first" : "smaller eid written first");
              if (list.some((h) => entities[h.entity].length === 1)) count("second entity a singleton");
              if (list.every((h) => entities[h.entity].length > 1)) count("every holder has other mentions");
              if ([...list].some((h, i) => list.findIndex((o) => o.entity === h.entity) !== i)) count("repeated in the same entity too");
            }
          }
        }
      }
      const wanted = [
        "in the key",
        "in the response",
        "a zero",
        "one word",
        "several words",
        "larger eid written first",
        "smaller eid written first",
        "second entity a singleton",
        "every holder has other mentions",
        "repeated in the same entity too",
        "eid reused from an earlier document",
      ];
      if (process.env.SHOW_DUPLICATE_KINDS) console.log(Object.fromEntries(kinds));
      for (const kind of wanted) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(3);
      expect(new Set(generated.map((c) => c.duplicates))).toEqual(new Set(["key", "response", "both"]));
    });

    for (const c of generated) it(`case ${c.name}: every metric in 12 settings`, () => check(c));
  });

  describe("documents begun by '# newdoc' without an id", () => {
    it("the committed files are what generate.ts makes", () => {
      expect(listed.bareNewdoc).toHaveLength(BARE_NEWDOC_CASES.length);
      for (const [documents, named] of BARE_NEWDOC_CASES) {
        const g = generateBareNewdocCase(documents, named);
        expect(read(g.info.key).toString("utf8"), g.info.key).toBe(g.key);
        expect(read(g.info.response).toString("utf8"), g.info.response).toBe(g.response);
      }
    });

    for (const c of listed.bareNewdoc) it(`${c.name}: every metric in 12 settings, document for document`, () => check(c));

    it("names them by position, as udapi numbers them, with one warning naming the lines", () => {
      const c = listed.bareNewdoc.find((b) => b.name === "bare-4-mixed")!;
      const corpus = readCorefUD(read(c.key), c.key);
      expect(corpus.documents.map((d) => d.id)).toEqual(["named1", "unnamed document 2", "named3", "unnamed document 4"]);
      const lines = read(c.key).toString("utf8").split("\n");
      const bareLines = lines.flatMap((l, i) => (l === "# newdoc" ? [i + 1] : []));
      expect(bareLines).toHaveLength(2);
      expect(corpus.documents.map((d) => d.line)).toEqual([1, bareLines[0], lines.indexOf("# newdoc id = named3") + 1, bareLines[1]]);
      const unnamed = corpus.warnings.filter((w) => w.code === "unnamed-document");
      expect(unnamed).toHaveLength(1);
      expect(unnamed[0].line).toBe(bareLines[0]);
      expect(unnamed[0].message).toContain(`line ${bareLines[0]}: "unnamed document 2", line ${bareLines[1]}: "unnamed document 4"`);

      const single = listed.bareNewdoc.find((b) => b.name === "bare-1")!;
      const one = readCorefUD(read(single.key), single.key);
      expect(one.documents.map((d) => d.id)).toEqual(["unnamed document 1"]);
      expect(one.warnings.filter((w) => w.code === "unnamed-document")).toMatchObject([{ line: 1, document: "unnamed document 1" }]);
    });

    it("refuses a bare '# newdoc' whose position names a document of the file already", () => {
      const text = "# newdoc id = unnamed document 2\n# global.Entity = eid-etype\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n# newdoc\n1\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n";
      expect(() => readCorefUD(text, "clash.conllu")).toThrow(/clash\.conllu:5:1: .*'# newdoc' without an id, which makes this document "unnamed document 2".*line 1/);
    });
  });
});
