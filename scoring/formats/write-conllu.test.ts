/**
 * writeCorefUD is the inverse of readCorefUD on what the CorefUD scorer uses: the sentences
 * stay, and the entities read back are the ones written (node sets and heads), discontinuous
 * mentions and empty nodes included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "../evaluate.js";
import { CRAC_PRESET, presetOptions } from "../presets.js";
import type { Corpus } from "../types.js";
import { readCorefUD } from "./conllu.js";
import { corefudNodeLines, writeCorefUD, type WrittenMention } from "./write-conllu.js";

const row = (id: string, form: string, misc = "_") => [id, form, "_", "_", "_", "_", id.includes(".") ? "_" : "0", id.includes(".") ? "_" : "dep", id.includes(".") ? "2:nsubj" : "_", misc].join("\t");

/** Two documents; the first has a multiword token, empty nodes (one before word 1) and key entities. */
const KEY = [
  "# newdoc id = d1",
  "# global.Entity = GRP-etype-infstat",
  "# sent_id = 1",
  "# text = Mary saw the old dog.",
  row("1", "Mary", "Entity=(1-person-new)"),
  row("2", "saw"),
  row("2.1", "∅", "Entity=(1-person-giv)"),
  row("3", "the", "Entity=(2-animal-new"),
  row("4", "old"),
  row("5", "dog", "SpaceAfter=No|Entity=2)|Bridge=1<2"),
  row("6", "."),
  "",
  "# sent_id = 2",
  row("0.1", "∅"),
  row("1-2", "Don't"),
  row("1", "Do"),
  row("2", "n't"),
  row("3", "bark", "Discourse=x|Entity=(2-animal-giv)|SpaceAfter=No"),
  row("4", "."),
  "",
  "# newdoc id = d2",
  "# global.Entity = GRP-etype-infstat",
  "# sent_id = 3",
  row("1", "It", "Entity=(3-abstract-new)"),
  row("2", "rains"),
  "",
].join("\n") + "\n";

/** A corpus's CorefUD entities, order-free: each mention as "nodes|head". */
const view = (corpus: Corpus) =>
  Object.fromEntries(
    corpus.documents.map((d) => [
      d.id,
      d
        .corefud!.entities.map((e) => e.map((m) => `${m.nodes.join(",")}|${m.head}`).sort())
        .filter((e) => e.length > 0)
        .sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1)),
    ]),
  );

const nodesOf = (id: string) => corefudNodeLines(KEY, "key.conllu").find((d) => d.id === id)!.nodes.map((n) => n.code);

describe("corefudNodeLines", () => {
  it("gives every word and empty node of each document the reader's NodeCode, and leaves multiword tokens out", () => {
    const docs = corefudNodeLines(KEY, "key.conllu");
    expect(docs.map((d) => d.id)).toEqual(["d1", "d2"]);
    expect(docs[0].nodes.map((n) => n.columns[0])).toEqual(["1", "2", "2.1", "3", "4", "5", "6", "0.1", "1", "2", "3", "4"]);
    // sentence 2 starts at slot 7 (6 words + 1): 0.1 -> 7*1024+1, word 3 -> 10*1024
    expect(docs[0].nodes[7].code).toBe(7 * 1024 + 1);
    expect(docs[0].nodes[11].code).toBe(11 * 1024);
    const read = readCorefUD(KEY, "key.conllu").documents[0].corefud!;
    expect(read.entities[1].map((m) => m.nodes)).toEqual([[3 * 1024, 4 * 1024, 5 * 1024], [10 * 1024]]);
  });
});

describe("writeCorefUD", () => {
  it("writes the key's own entities so that they read back the same, and the crac scores are 100 %", () => {
    const key = readCorefUD(KEY, "key.conllu");
    const text = writeCorefUD(KEY, new Map(key.documents.map((d) => [d.id, d.corefud!.entities])));
    const back = readCorefUD(text, "response.conllu");
    expect(view(back)).toEqual(view(key));
    expect(back.documents.map((d) => d.corefud!.sentences)).toEqual(key.documents.map((d) => d.corefud!.sentences));
    const report = evaluate(key, back, presetOptions(CRAC_PRESET, { removeSingletons: false }));
    expect(report.metrics.conll!.f1).toBe(1);
    expect(report.metrics.muc!.recallDen).toBeGreaterThan(0);
  });

  it("keeps every other line and MISC item, drops the key's Entity, Bridge and SplitAnte, and declares its own attributes", () => {
    const text = writeCorefUD(KEY, new Map([["d1", [[{ nodes: [3 * 1024, 4 * 1024, 5 * 1024], head: 5 * 1024 }]]]]));
    const lines = text.split("\n");
    expect(lines).toHaveLength(KEY.split("\n").length);
    expect(lines[1]).toBe("# global.Entity = eid-etype-head-other");
    expect(lines[7]).toBe(row("3", "the", "Entity=(e1--3"));
    expect(lines[9]).toBe(row("5", "dog", "SpaceAfter=No|Entity=e1)"));
    expect(lines[17]).toBe(row("3", "bark", "Discourse=x|SpaceAfter=No"));
    // d2 has no entry: written without mentions.
    expect(lines[23]).toBe(row("1", "It"));
    expect(KEY.split("\n").filter((l, i) => !/Entity|^#/.test(l) && l !== lines[i])).toEqual([]);
  });

  it("puts eid and head where the declaration says, and reads back the heads", () => {
    const entities = [[{ nodes: [3 * 1024, 4 * 1024, 5 * 1024], head: 4 * 1024 }, { nodes: [1024], head: 1024 }]];
    const text = writeCorefUD(KEY, new Map([["d1", entities]]), { declaration: "head-x-eid" });
    expect(text).toContain("Entity=(2--e1");
    expect(text).toContain("Entity=(1--e1)");
    expect(view(readCorefUD(text, "r.conllu")).d1).toEqual([[`1024|1024`, `3072,4096,5120|4096`]]);
    expect(() => writeCorefUD(KEY, new Map(), { declaration: "eid-etype" })).toThrow(RangeError);
  });

  it("writes discontinuous mentions as [i/n] parts (the head on the last part) and zeros on empty nodes", () => {
    const d1 = nodesOf("d1");
    // "Mary ... old dog" without "saw ∅ the"; a zero (the empty node 2.1) with "dog" (head: the zero).
    const entities: WrittenMention[][] = [
      [{ nodes: [d1[0], d1[4], d1[5]], head: d1[5] }],
      [{ nodes: [d1[2], d1[5]], head: d1[2] }, { nodes: [d1[7]], head: d1[7] }],
    ];
    const text = writeCorefUD(KEY, new Map([["d1", entities]]));
    expect(text).toContain("Entity=(e1[1/2])");
    expect(text).toContain("Entity=(e1[2/2]--3");
    const back = readCorefUD(text, "r.conllu").documents[0].corefud!;
    expect(back.entities.map((e) => e.map((m) => [m.nodes, m.head, m.zero]))).toEqual([
      [[[d1[0], d1[4], d1[5]], d1[5], false]],
      [
        [[d1[2], d1[5]], d1[2], true],
        [[d1[7]], d1[7], true],
      ],
    ]);
  });

  it("refuses what brackets cannot say: crossing mentions of one entity, unknown nodes and documents, a head outside its mention", () => {
    const d1 = nodesOf("d1");
    const crossing = [[{ nodes: [d1[0], d1[1], d1[2]], head: d1[0] }, { nodes: [d1[1], d1[2], d1[3]], head: d1[1] }]];
    expect(() => writeCorefUD(KEY, new Map([["d1", crossing]]))).toThrow(/cross/);
    // The same spans in two entities are fine.
    expect(() => writeCorefUD(KEY, new Map([["d1", [crossing[0].slice(0, 1), crossing[0].slice(1)]]]))).not.toThrow();
    // Interleaved discontinuous mentions of one entity: the reader would join the wrong parts.
    const interleaved = [[{ nodes: [d1[0], d1[3]], head: d1[0] }, { nodes: [d1[1], d1[4]], head: d1[1] }]];
    expect(() => writeCorefUD(KEY, new Map([["d1", interleaved]]))).toThrow(/cross/);
    expect(() => writeCorefUD(KEY, new Map([["d1", [[{ nodes: [99 * 1024], head: 99 * 1024 }]]]]))).toThrow(/lacks/);
    expect(() => writeCorefUD(KEY, new Map([["d1", [[{ nodes: [d1[0]], head: d1[1] }]]]]))).toThrow(/head/);
    expect(() => writeCorefUD(KEY, new Map([["d3", []]]))).toThrow(/not in the key/);
  });

  it("round-trips random entities (nested, discontinuous, with empty nodes) or refuses them as crossing", () => {
    const d1 = nodesOf("d1");
    const n = d1.length;
    const mention = fc
      .uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 5 })
      .chain((idx) => fc.constantFrom(...idx).map((h) => ({ nodes: [...idx].sort((a, b) => a - b).map((i) => d1[i]), head: d1[h] })));
    const entities = fc.array(fc.array(mention, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });
    let written = 0;
    fc.assert(
      fc.property(entities, (list) => {
        // One mention per node set (the reader keeps repeats, the comparison would not).
        const seen = new Set<string>();
        const unique = list.map((e) => e.filter((m) => !seen.has(m.nodes.join()) && seen.add(m.nodes.join()))).filter((e) => e.length > 0);
        let text: string;
        try {
          text = writeCorefUD(KEY, new Map([["d1", unique]]));
        } catch (error) {
          expect(String(error)).toMatch(/cross/);
          return;
        }
        written++;
        const expected = unique.map((e) => e.map((m) => `${m.nodes.join(",")}|${m.nodes.length === 1 ? m.nodes[0] : m.head}`).sort()).sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1));
        expect(view(readCorefUD(text, "r.conllu")).d1).toEqual(expected);
      }),
      { numRuns: 500 },
    );
    expect(written).toBeGreaterThan(100);
  });
});
