/**
 * Tests of the node-set view of the CorefUD CoNLL-U reader (`Document.corefud`, the view of
 * the CorefUD scorer and of udapi's `load_coref_from_misc`): node codes, sentences, mentions
 * over empty nodes, discontinuous mentions, heads, zeros and their DEPS; the quirks of udapi
 * it reproduces; hostile inputs, each a FormatError with its file, line and column; random
 * documents (fast-check); and the mentions of every CorefUD scorer test case (the conformance
 * fixtures) against the mentions the scorer itself read (`alignment` in expected.json).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError, type Corpus, type CorefUDDocument, type CorefUDMention, type NodeCode } from "../types.js";
import { readCorefUD } from "./conllu.js";
import { formatError } from "../test/format-error.js";
import { expectLinearTime } from "../test/linear-time.js";

/** A CoNLL-U token line: `misc` in column 10, `deps` in column 9. */
function row(id: string | number, form: string, misc = "_", deps = "_"): string {
  return [String(id), form, "_", "_", "_", "_", "_", "_", deps, misc].join("\t");
}

function read(lines: string[], file = "test.conllu"): Corpus {
  return readCorefUD(lines.join("\n") + "\n", file);
}

/** The node-set view of the only document of `lines`. */
function corefud(lines: string[]): CorefUDDocument {
  const corpus = read(lines);
  expect(corpus.documents).toHaveLength(1);
  return corpus.documents[0].corefud!;
}

/** `NodeCode` of ID `ord` (`sub` for an empty node) in a sentence with slot `slot`. */
function code(slot: number, ord: number, sub = 0): NodeCode {
  return (slot + ord) * 1024 + sub;
}

/** 1-based column of the `n`-th (0-based) occurrence of `text` in `line`. */
function columnOf(line: string, text: string, n = 0): number {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = line.indexOf(text, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(text)} not in ${JSON.stringify(line)}`);
  }
  return at + 1;
}

/** 1-based column of the DEPS column (column 9) of a token line. */
function depsColumn(line: string): number {
  return line.split("\t").slice(0, 8).join("\t").length + 2;
}

const HEADER = ["# newdoc id = d", "# global.Entity = eid-etype-head-other"];

describe("readCorefUD: the node-set view", () => {
  it("numbers nodes (words, empty nodes, the root) with NodeCodes over two sentences, and records the sentences", () => {
    const lines = [
      ...HEADER,
      "# sent_id = s1",
      "# text = A B C",
      row(1, "A", "Entity=(e1-x-2-"),
      row(2, "B", "_", "1:nsubj"),
      row("2.1", "E", "_", "0:root|2:conj"),
      row(3, "C", "Entity=e1)"),
      "",
      "# sent_id =  s2  ",
      row("0.1", "Z", "Entity=(e2-x-1-)", "1:nsubj:pass"),
      row("1-2", "DE"),
      row(1, "D", "Entity=(e2-x-1-)"),
      row(2, "E"),
    ];
    const doc = read(lines).documents[0];
    // slot(s1) = 0; slot(s2) = 3 words + 1 (its root) = 4.
    expect(doc.corefud!.sentences).toEqual([
      { sentId: "s1", forms: ["A", "B", "C"], wordLines: [5, 6, 8], line: 5, slot: 0 },
      { sentId: "s2", forms: ["D", "E"], wordLines: [13, 14], line: 11, slot: 4 },
    ]);
    const [e1, e2] = doc.corefud!.entities;
    // The mention holds the empty node 2.1 between its brackets; its head is its 2nd node, word B.
    expect(e1).toEqual([
      { nodes: [1024, 2048, 2049, 3072], head: 2048, zero: false, sentence: 0, headDeps: null, headDepsAt: null, line: 5, column: columnOf(lines[4], "(") },
    ]);
    expect(e1[0].nodes).toEqual([code(0, 1), code(0, 2), code(0, 2, 1), code(0, 3)]);
    // The empty node 0.1 comes before word 1 of s2 (code (4 + 0) * 1024 + 1 = 4097) and is a zero.
    expect(e2).toEqual([
      {
        nodes: [4097],
        head: 4097,
        zero: true,
        sentence: 1,
        headDeps: [{ parent: code(4, 1), deprel: "nsubj:pass" }],
        headDepsAt: { line: 11, column: depsColumn(lines[10]), lineText: lines[10] },
        line: 11,
        column: columnOf(lines[10], "("),
      },
      { nodes: [code(4, 1)], head: 5120, zero: false, sentence: 1, headDeps: null, headDepsAt: null, line: 13, column: columnOf(lines[12], "(") },
    ]);
    // The span view: words only; the mention of 0.1 alone has no span.
    expect(doc.tokens).toEqual(["A", "B", "C", "D", "E"]);
    expect(doc.sentenceStarts).toEqual([0, 3]);
    expect(doc.entities).toEqual([[[0, 2]], [[3, 3]]]);
  });

  it("gives the first example of conllu.test.ts its node sets and heads", () => {
    const lines = [
      ...HEADER,
      "# sent_id = 1",
      "# text = Mary saw her dog.",
      row(1, "Mary", "Entity=(1-person-1-)"),
      row(2, "saw"),
      row(3, "her", "Entity=(2-animal-2-(1-person-1-)"),
      row(4, "dog", "SpaceAfter=No|Entity=2)"),
      row(5, "."),
      "",
      "# sent_id = 2",
      row(1, "It", "Entity=(2-animal-1-)"),
      row(2, "barked"),
    ];
    const doc = corefud(lines);
    expect(doc.entities.map((e) => e.map((m) => [m.nodes, m.head, m.sentence, m.line, m.column]))).toEqual([
      [
        [[1024], 1024, 0, 5, columnOf(lines[4], "(")],
        [[3072], 3072, 0, 7, columnOf(lines[6], "(", 1)],
      ],
      [
        [[3072, 4096], 4096, 0, 7, columnOf(lines[6], "(")],
        [[7168], 7168, 1, 12, columnOf(lines[11], "(")],
      ],
    ]);
  });

  it("includes the empty nodes between a mention's brackets, also across a sentence boundary", () => {
    const doc = corefud([
      ...HEADER,
      row(1, "a", "Entity=(e1-x"),
      row("1.1", "z"),
      row("1.2", "z"),
      row(2, "b", "Entity=e1)"),
      row("2.1", "z", "Entity=(e2-x"),
      "",
      row("0.1", "z"),
      row(1, "c", "Entity=e2)"),
    ]);
    // slot(sentence 2) = 2 + 1 = 3.
    expect(doc.entities.map((e) => e.map((m) => m.nodes))).toEqual([
      [[code(0, 1), code(0, 1, 1), code(0, 1, 2), code(0, 2)]],
      [[code(0, 2, 1), code(3, 0, 1), code(3, 1)]],
    ]);
    // The cross-sentence mention's head is its first node, an empty node of sentence 1: a zero.
    expect(doc.entities[1][0]).toMatchObject({ head: code(0, 2, 1), zero: true, sentence: 0, headDeps: null });
  });

  it("keeps the parts of a discontinuous mention (words 1, 2 and 5) and joins them in the span view only", () => {
    const lines = [
      ...HEADER,
      row(1, "a", "Entity=(e1[1/2]-x-1-"),
      row(2, "b", "Entity=e1[1/2])"),
      row(3, "c", "Entity=(e2-y-1-)"),
      row(4, "d"),
      row(5, "e", "Entity=(e1[2/2]-x-3-)"),
    ];
    const corpus = read(lines);
    const doc = corpus.documents[0];
    expect(doc.corefud!.entities[0]).toEqual([
      { nodes: [1024, 2048, 5120], head: 5120, zero: false, sentence: 0, headDeps: null, headDepsAt: null, line: 3, column: columnOf(lines[2], "(") },
    ]);
    expect(doc.entities).toEqual([[[0, 4]], [[2, 2]]]);
    expect(corpus.warnings).toMatchObject([
      { code: "discontinuous-mention-joined", message: expect.stringMatching(/1 discontinuous mention\(s\) shown in the span view.*CorefUD scoring keeps the parts/) },
    ]);
  });

  it("counts a node shared by two parts once", () => {
    const doc = corefud([...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-"), row(2, "b", "Entity=e1[1/2])(e1[2/2]-x-3-"), row(3, "c", "Entity=e1[2/2])")]);
    expect(doc.entities[0].map((m) => [m.nodes, m.head])).toEqual([[[1024, 2048, 3072], 3072]]);
  });

  it("takes the head from the head field: the v-th node, over all parts from the last part's bracket, 0 or absent for the first node", () => {
    const head = (misc: string[], declared = HEADER[1]): NodeCode[][] =>
      corefud(["# newdoc id = d", declared, ...misc.map((m, i) => row(i + 1, `w${i + 1}`, m))]).entities.map((e) => e.map((m) => m.head));
    expect(head(["Entity=(e1-x-3-", "_", "Entity=e1)"])).toEqual([[3072]]);
    expect(head(["Entity=(e1-x-0-", "_", "Entity=e1)"])).toEqual([[1024]]);
    expect(head(["Entity=(e1-x", "_", "Entity=e1)"])).toEqual([[1024]]);
    // The head field 3 on the first part is ignored; the last part's 4 counts over words 1, 2, 4, 5.
    expect(head(["Entity=(e1[1/2]-x-3-", "Entity=e1[1/2])", "_", "Entity=(e1[2/2]-x-4-", "Entity=e1[2/2])"])).toEqual([[5120]]);
    expect(head(["Entity=(e1[1/2]-x-1-", "Entity=e1[1/2])", "_", "Entity=(e1[2/2]-x-0-", "Entity=e1[2/2])"])).toEqual([[1024]]);
    expect(head(["Entity=(e1[1/2]-x-2-", "Entity=e1[1/2])", "_", "Entity=(e1[2/2]-x", "Entity=e1[2/2])"])).toEqual([[1024]]);
    // No head in the declaration (GUM's GRP-etype-...): the first node, whatever the brackets hold.
    expect(head(["Entity=(e1-x-3", "_", "Entity=e1)"], "# global.Entity = eid-etype")).toEqual([[1024]]);
    expect(head(["Entity=(e1-x-3", "_", "Entity=e1)"], "# global.Entity = GRP-etype-infstat")).toEqual([[1024]]);
    // A repeated `head` in the declaration: the last one counts (udapi assigns them in turn).
    expect(head(["Entity=(e1-2-3", "_", "Entity=e1)"], "# global.Entity = eid-head-head")).toEqual([[3072]]);
    // With leading zeros the value is still a number (udapi's int()).
    expect(head(["Entity=(e1-x-02-", "_", "Entity=e1)"])).toEqual([[2048]]);
  });

  it("quirk: ignores the head field of a one-word mention, as udapi does", () => {
    const doc = corefud([...HEADER, row(1, "a", "Entity=(e1-x-7-)"), row(2, "b", "Entity=(e2[1/1]-x-9-)")]);
    expect(doc.entities.map((e) => e.map((m) => [m.nodes, m.head]))).toEqual([[[[1024], 1024]], [[[2048], 2048]]]);
  });

  it("quirk: a one-word last part takes its head value over all parts, 0 for the LAST node, none for the first", () => {
    const last = (value: string): CorefUDMention =>
      corefud([...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-"), row(2, "b", "Entity=e1[1/2])"), row(3, "c"), row(4, "d", `Entity=(e1[2/2]-x${value})`)]).entities[0][0];
    expect(last("-1-").head).toBe(1024);
    expect(last("-3-").head).toBe(4096);
    // udapi: `mention._words[head_idx - 1]` with head_idx 0 is the last node.
    expect(last("-0-").head).toBe(4096);
    // udapi crashes on `None - 1` here; our documented result is the first node.
    expect(last("").head).toBe(1024);
    expect(last("").nodes).toEqual([1024, 2048, 4096]);
  });

  it("marks zeros (head on an empty node) and parses their DEPS: empty-node parents, deprels with ':'", () => {
    const lines = [
      ...HEADER,
      row(1, "a", "Entity=(e1-x-2-"),
      row("1.1", "z", "Entity=e1)", "2.1:conj:and|0:root|3:nmod:poss:x"),
      row(2, "b"),
      row("2.1", "y", "Entity=(e2-x-1-)", "2:dep"),
      row(3, "c", "Entity=(e3-x-1-)"),
      row("3.1", "u", "Entity=(e4-x-1-)"),
    ];
    const doc = corefud(lines);
    const [e1, e2, e3, e4] = doc.entities.map((e) => e[0]);
    expect(e1).toMatchObject({ nodes: [1024, 1025], head: 1025, zero: true, sentence: 0 });
    expect(e1.headDeps).toEqual([
      { parent: code(0, 2, 1), deprel: "conj:and" },
      { parent: code(0, 0), deprel: "root" },
      { parent: code(0, 3), deprel: "nmod:poss:x" },
    ]);
    expect(e1.headDepsAt).toEqual({ line: 4, column: depsColumn(lines[3]), lineText: lines[3] });
    expect(e2).toMatchObject({ head: 2049, zero: true, headDeps: [{ parent: 2048, deprel: "dep" }] });
    expect(e3).toMatchObject({ head: 3072, zero: false, headDeps: null, headDepsAt: null });
    // An empty DEPS ('_') is read as null: the scorer decides where that is an error.
    expect(e4).toMatchObject({ head: 3073, zero: true, headDeps: null, headDepsAt: { line: 8, column: depsColumn(lines[7]) } });
  });

  it("reads an empty DEPS item's deprel as udapi splits it, at the first ':' (an empty deprel too)", () => {
    const doc = corefud([...HEADER, row(1, "a"), row("1.1", "z", "Entity=(e1-x-1-)", "1:")]);
    expect(doc.entities[0][0].headDeps).toEqual([{ parent: 1024, deprel: "" }]);
  });

  it("orders entities by first sight, mentions by completion, and keeps repeated mentions", () => {
    const doc = corefud([
      ...HEADER,
      row(1, "a", "Entity=(e2-x(e1-x-1-)"),
      row(2, "b", "Entity=(e1-x-1-)(e1-x-1-)"),
      row(3, "c", "Entity=e2)"),
    ]);
    expect(doc.entities.map((e) => e.map((m) => m.nodes))).toEqual([[[1024], [2048], [2048]], [[1024, 2048, 3072]]]);
  });

  it("takes sent_id as udapi does: the first word after '# sent_id', '=' and spaces, also inside the sentence", () => {
    const doc = corefud([
      "# newdoc id = d",
      "# sent_id = a b",
      row(1, "w"),
      "",
      "# sent_id=x",
      row(1, "w"),
      "",
      row(1, "w"),
      "# sent_id = late",
      "",
      "# sent_id = dropped",
      "",
      row(1, "w"),
      "",
      "# sent_id = ",
      row(1, "w"),
    ]);
    expect(doc.sentences.map((s) => s.sentId)).toEqual(["a", "x", "late", null, "="]);
  });

  it("reads '# sent_id' with a million spaces in linear time", { timeout: 60_000 }, () => {
    const doc = corefud(["# newdoc id = d", `# sent_id${" ".repeat(1_000_000)}`, row(1, "w")]);
    expect(doc.sentences[0].sentId).toBeNull();
    expectLinearTime((n) => {
      const lines = ["# newdoc id = d", `# sent_id${" ".repeat(n)}`, row(1, "w")];
      return () => corefud(lines);
    }, 1_000_000);
  });

  it("gives every document its own slots, sentences and entities", () => {
    const corpus = read(["# newdoc id = a", row(1, "w", "Entity=(e-x)"), "", "# newdoc id = b", "# sent_id = t", row(1, "v", "Entity=(e-x)")]);
    expect(corpus.documents.map((d) => [d.corefud!.sentences, d.corefud!.entities.map((e) => e.map((m) => m.nodes))])).toEqual([
      [[{ sentId: null, forms: ["w"], wordLines: [2], line: 2, slot: 0 }], [[[1024]]]],
      [[{ sentId: "t", forms: ["v"], wordLines: [6], line: 6, slot: 0 }], [[[1024]]]],
    ]);
  });
});

describe("readCorefUD: hostile CoNLL-U inputs give a FormatError with file, line and column", () => {
  /** The FormatError of reading `lines` (as file `h.conllu`), checked for its file, line and column. */
  function fails(lines: string[], line: number, column: number): FormatError {
    const e = formatError(() => read(lines, "h.conllu"));
    expect(e).toBeInstanceOf(FormatError);
    expect([e.file, e.line, e.column]).toEqual(["h.conllu", line, column]);
    expect(e.message.startsWith(`h.conllu:${line}:${column}: expected `)).toBe(true);
    return e;
  }

  it("a head outside its mention, pointing at the opening bracket with the head value", () => {
    const lines = [...HEADER, row(1, "a", "Entity=(e0-x-1-)(e1-x-3-"), row(2, "b", "Entity=e1)")];
    const e = fails(lines, 3, columnOf(lines[2], "(", 1));
    expect(e.expected).toBe("a head inside its mention (1..2)");
    expect(e.found).toBe("head 3 of a mention of 2 node(s)");
    // Discontinuous: the last part's bracket, counted over all parts (3 nodes).
    const parts = [...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-"), row(2, "b", "Entity=e1[1/2])"), row(3, "c", "Entity=(e1[2/2]-x-4-)")];
    expect(fails(parts, 5, columnOf(parts[4], "(")).expected).toBe("a head inside its mention (1..3)");
    const big = [...HEADER, row(1, "a", "Entity=(e1-x-99999999999999999999999-"), row(2, "b", "Entity=e1)")];
    expect(fails(big, 3, columnOf(big[2], "(")).expected).toBe("a head inside its mention (1..2)");
  });

  it("a head value that is not a whole number, also on a one-word mention (udapi's int() fails there too)", () => {
    for (const value of ["x", "", "+1", " 1", "1.5", "1e1", "١"]) {
      const lines = [...HEADER, row(1, "a", "Entity=(e0-x-1-)"), row(2, "b", `Entity=(e1-x-${value}-)`)];
      const e = fails(lines, 4, columnOf(lines[3], "("));
      expect([value, e.found]).toEqual([value, JSON.stringify(value)]);
      expect(e.expected).toMatch(/^a head \(attribute 3 of '\(e1-x-.*-'\) that is a whole number/);
    }
  });

  it("an unknown [i/n] part", () => {
    const noFirst = [...HEADER, row(1, "a", "Entity=(e1[2/2]-x-1-)")];
    expect(fails(noFirst, 3, columnOf(noFirst[2], "(")).found).toBe("'(e1[2/2]' with no such earlier part");
    const skipped = [...HEADER, row(1, "a", "Entity=(e1[1/3]-x-1-)"), row(2, "b", "Entity=(e1[3/3]-x-1-)")];
    expect(fails(skipped, 4, columnOf(skipped[3], "(")).expected).toBe("part 3/3 of entity e1 only after its part 2/3 is closed");
    const otherCount = [...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-)"), row(2, "b", "Entity=(e1[2/3]-x-1-)")];
    fails(otherCount, 4, columnOf(otherCount[3], "("));
    const beyond = [...HEADER, row(1, "a", "Entity=(e1[3/2]-x-1-)")];
    expect(fails(beyond, 3, columnOf(beyond[2], "(")).found).toBe('"(e1[3/2]-x-1-)"');
    const close = [...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-"), row(2, "b", "Entity=e1[2/2])")];
    expect(fails(close, 4, columnOf(close[3], "e1")).found).toBe("'e1[2/2])'");
  });

  it("unclosed brackets, a missing part, and a close without an open", () => {
    const open = [...HEADER, row(1, "a", "Entity=(e1-x-1-"), row(2, "b")];
    expect(fails(open, 3, columnOf(open[2], "(")).found).toBe("'(e1' that is never closed");
    const openPart = [...HEADER, row(1, "a", "Entity=(e0-x-1-)(e1[1/2]-x-1-"), row(2, "b"), "", "# newdoc id = next", row(1, "c")];
    expect(fails(openPart, 3, columnOf(openPart[2], "(", 1)).found).toBe("'(e1[1/2]' that is never closed");
    const missing = [...HEADER, row(1, "a", "Entity=(e1[1/2]-x-1-)"), row(2, "b")];
    expect(fails(missing, 3, columnOf(missing[2], "(")).found).toBe("a discontinuous mention with only 1 of its 2 parts");
    const onEmpty = [...HEADER, row(1, "a"), row("1.1", "z", "Entity=(e1-x-1-")];
    expect(fails(onEmpty, 4, columnOf(onEmpty[3], "(")).found).toBe("'(e1' that is never closed");
    const close = [...HEADER, row(1, "a"), row("1.1", "z", "Entity=e1)")];
    expect(fails(close, 4, columnOf(close[3], "e1")).found).toBe("'e1)' with no open mention of entity e1");
  });

  it("a malformed DEPS item on an empty node, pointing at the item", () => {
    const cases: [string, number][] = [
      ["1", 0],
      ["nsubj", 0],
      [":nsubj", 0],
      ["1:nsubj||2:obj", 8],
      ["1:nsubj|", 8],
      ["x:nsubj", 0],
      ["-1:nsubj", 0],
      ["1.5.1:dep", 0],
      ["3:nsubj", 0], // the sentence has 2 words
      ["99999999999999999999:dep", 0],
      ["", 0],
    ];
    for (const [deps, at] of cases) {
      const lines = [...HEADER, row(1, "a"), row("1.1", "z", "_", deps), row(2, "b")];
      const e = fails(lines, 4, depsColumn(lines[3]) + at);
      expect(e.expected).toMatch(/^a DEPS item PARENT:DEPREL of empty node 1\.1, PARENT a word of its sentence \(0 to 2, 0 the root\)/);
    }
    // Every empty node's DEPS is checked, not only a zero's; the error comes when the sentence ends.
    const late = [...HEADER, row(1, "a"), row("1.1", "z", "_", "1:dep|bad"), row(2, "b"), "", row(1, "c")];
    fails(late, 4, depsColumn(late[3]) + 6);
  });

  it("an unknown empty-node parent in DEPS (also one of another sentence)", () => {
    const lines = [...HEADER, row(1, "a"), row("1.1", "z", "_", "1:dep|1.2:conj"), row(2, "b")];
    expect(fails(lines, 4, depsColumn(lines[3]) + 6).found).toBe('"1.2:conj"');
    const other = [...HEADER, row(1, "a"), row("1.1", "z", "_", "1:dep"), "", row(1, "b"), row("1.2", "y", "_", "1.1:dep")];
    fails(other, 7, depsColumn(other[6]));
    // A parent empty node later in the same sentence is fine.
    expect(corefud([...HEADER, row(1, "a"), row("1.1", "z", "Entity=(e-x-1-)", "2.1:dep"), row(2, "b"), row("2.1", "y", "_", "0:root")]).entities[0][0].headDeps).toEqual([
      { parent: 2049, deprel: "dep" },
    ]);
  });

  it("an empty-node part above 1023, pointing at the part", () => {
    const lines = [...HEADER, row(1, "a"), row("1.1024", "z")];
    const e = fails(lines, 4, 3);
    expect(e.expected).toBe("an empty-node part of at most 1023 (N.1 to N.1023)");
    expect(corefud([...HEADER, row(1, "a"), row("1.1023", "z", "Entity=(e-x-1-)")]).entities[0][0].head).toBe(2047);
  });

  it("IDs out of order, and a sentence without words", () => {
    for (const ids of [
      ["1", "3"],
      ["2"],
      ["1", "1"],
      ["1", "2", "1.1"],
      ["1", "1.2", "1.1"],
      ["1", "1.1", "1.1"],
      ["1.1"],
    ]) {
      const lines = [...HEADER, ...ids.map((id) => row(id, "w"))];
      const e = fails(lines, 2 + ids.length, 1);
      expect(e.expected).toMatch(/^the next ID of the sentence: word \d+ or an empty node \d+\.\d+ or later$/);
    }
    const noWords = [...HEADER, row("0.1", "z"), "", row(1, "a")];
    expect(fails(noWords, 3, 1).expected).toBe("at least one word line in every sentence");
    const rangeOnly = [...HEADER, row(1, "a"), "", row("1-2", "ab")];
    expect(fails(rangeOnly, 5, 1).found).toBe("a sentence of empty nodes or multiword-token lines only");
  });

  it("counts empty nodes against the token limit", () => {
    const lines = [...HEADER, row(1, "a"), row("1.1", "z"), row(2, "b")];
    const e = formatError(() => readCorefUD(lines.join("\n"), "l.conllu", { maxTokensPerDocument: 2 }));
    expect([e.line, e.column, e.found]).toEqual([5, 1, 'word "2", node 3 of document "d"']);
    expect(readCorefUD(lines.join("\n"), "l.conllu", { maxTokensPerDocument: 3 }).documents[0].corefud!.sentences[0].forms).toEqual(["a", "b"]);
  });

  it("bounds the nodes held by nested mentions, so the work stays linear", { timeout: 20_000 }, () => {
    // 2,000 mentions over 2,000 words hold 4,000,000 nodes: past 1,000,000 + 64 per node read.
    const n = 2000;
    const lines = ["# newdoc id = d", "# global.Entity = eid-etype", row(1, "w", "Entity=" + "(e-x".repeat(n))];
    for (let w = 2; w < n; w++) lines.push(row(w, "w"));
    lines.push(row(n, "w", "Entity=" + "e)".repeat(n)));
    // The read stops at the budget, a constant plus a multiple of the nodes read: the work it
    // does is linear in its input, however the mentions nest.
    const e = formatError(() => read(lines));
    expect(e.line).toBe(n + 2);
    expect(e.expected).toBe("at most 1128000 nodes in all mentions of the document so far (1000000 + 64 per node read)");
  });

  it("returns a Corpus or throws a FormatError, never anything else, on random documents with empty nodes, parts and heads", () => {
    const bracket = fc.oneof(
      fc.tuple(fc.constantFrom("e1", "e2", "e1[1/2]", "e1[2/2]", "e2[1/3]", "e2[2/3]", "e2[3/3]"), fc.constantFrom("", "-x", "-x-0", "-x-1", "-x-2", "-x-5", "-x-y", "-x-")).chain(([id, rest]) =>
        fc.constantFrom(`(${id}${rest}`, `(${id}${rest})`, `${id})`),
      ),
    );
    const line = fc.tuple(
      fc.constantFrom("word", "word", "word", "empty", "empty2", "blank", "range"),
      fc.array(bracket, { maxLength: 3 }),
      fc.constantFrom("_", "1:dep", "0:root|1:conj:and", "1.1:dep", "2.1:x", "9:x", "x"),
    );
    const seen = { corpora: 0, errors: new Set<string>() };
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (spec) => {
        const lines = [...HEADER];
        let word = 0;
        let part = 0;
        for (const [kind, brackets, deps] of spec) {
          if (kind === "blank") {
            lines.push("");
            word = 0;
            continue;
          }
          const misc = brackets.length > 0 ? `Entity=${brackets.join("")}` : "_";
          if (kind === "word") {
            part = 0;
            lines.push(row(++word, "w", misc));
          } else if (kind === "range") {
            lines.push(row(`${word + 1}-${word + 2}`, "ww"));
          } else {
            part += kind === "empty2" ? 2 : 1;
            lines.push(row(`${word}.${part}`, "z", misc, deps));
          }
        }
        let corpus: Corpus;
        try {
          corpus = read(lines, "r.conllu");
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
          expect(err.file).toBe("r.conllu");
          expect(err.line >= 1 && err.line <= lines.length).toBe(true);
          expect(err.column).toBeGreaterThanOrEqual(1);
          seen.errors.add(err.expected.replace(/[0-9]+/g, "N").slice(0, 30));
          return;
        }
        seen.corpora++;
        for (const doc of corpus.documents) {
          const { sentences, entities } = doc.corefud!;
          for (const entity of entities) {
            expect(entity.length).toBeGreaterThan(0);
            for (const m of entity) {
              for (let i = 1; i < m.nodes.length; i++) expect(m.nodes[i]).toBeGreaterThan(m.nodes[i - 1]);
              expect(m.nodes).toContain(m.head);
              expect(m.zero).toBe(m.head % 1024 !== 0);
              const s = sentences[m.sentence];
              expect(Math.floor(m.head / 1024) - s.slot).toBeGreaterThanOrEqual(0);
              expect(Math.floor(m.head / 1024) - s.slot).toBeLessThanOrEqual(s.forms.length);
              expect(m.headDepsAt === null).toBe(!m.zero);
              if (m.headDeps) for (const d of m.headDeps) expect(Math.floor(d.parent / 1024) - s.slot).toBeLessThanOrEqual(s.forms.length);
            }
          }
        }
      }),
      { numRuns: 1000, seed: 9 },
    );
    // Mostly errors, of many kinds (the round trip below covers well-formed documents).
    expect(seen.corpora).toBeGreaterThan(10);
    expect(seen.errors.size).toBeGreaterThan(8);
  });
});

// ---------------------------------------------------------------------------------------
// Round trip: random documents written out, read back.

/** A generated sentence: its words and, after word `w` (0 = before the first), `empties[w]` empty nodes. */
interface GenSentence {
  words: number;
  empties: number[];
}

/** A generated mention over the document's nodes (indices in document order). */
interface GenMention {
  entity: string;
  /** One or two parts, each `[first, last]` node index; part 2 starts after part 1 ends. */
  parts: [number, number][];
  /** The head value written on the (last part's) opening bracket, or null for none. */
  head: number | null;
}

const genSentence = fc
  .integer({ min: 1, max: 4 })
  .chain((words) => fc.record({ words: fc.constant(words), empties: fc.array(fc.nat(2), { minLength: words + 1, maxLength: words + 1 }) }));

const genDocument = fc.array(genSentence, { minLength: 1, maxLength: 3 }).chain((sentences) => {
  const n = sentences.reduce((sum, s) => sum + s.words + s.empties.reduce((a, b) => a + b, 0), 0);
  const mention = fc
    .tuple(fc.array(fc.nat(n - 1), { minLength: 2, maxLength: 4 }), fc.nat(3), fc.option(fc.nat(6), { nil: null }), fc.boolean())
    .map(([at, e, head, split]): GenMention | null => {
      const p = [...new Set(at)].sort((a, b) => a - b);
      if (split && p.length === 4) return { entity: `d${e}`, parts: [[p[0], p[1]], [p[2], p[3]]], head };
      if (split && p.length === 3) return { entity: `d${e}`, parts: e % 2 === 0 ? [[p[0], p[0]], [p[1], p[2]]] : [[p[0], p[1]], [p[2], p[2]]], head };
      if (split && p.length === 2) return { entity: `d${e}`, parts: [[p[0], p[0]], [p[1], p[1]]], head };
      return { entity: `e${e}`, parts: [[p[0], p[p.length - 1]]], head };
    });
  return fc.tuple(fc.constant(sentences), fc.array(mention, { maxLength: 8 }), fc.array(fc.nat(), { minLength: n, maxLength: n }));
});

/** Keeps mentions the format writes unambiguously: no crossing mentions of one entity, one discontinuous mention per id. */
function writable(all: (GenMention | null)[]): GenMention[] {
  const kept: GenMention[] = [];
  let discontinuous = 0;
  for (const m of all) {
    if (m === null) continue;
    if (m.parts.length === 2) {
      kept.push({ ...m, entity: `d${discontinuous++}` });
      continue;
    }
    const [a, b] = m.parts[0];
    const crosses = kept.some((o) => {
      if (o.entity !== m.entity) return false;
      const [c, d] = o.parts[0];
      return (c < a && a <= d && d < b) || (a < c && c <= b && b < d);
    });
    if (!crosses) kept.push(m);
  }
  return kept;
}

describe("readCorefUD: random documents read back", () => {
  it("reads back the nodes, heads, zeros and DEPS of any written document", () => {
    let mentions = 0;
    let zeros = 0;
    fc.assert(
      fc.property(genDocument, ([sentences, generated, depsSeed]) => {
        // The nodes in document order: ID, code, sentence.
        const nodes: { id: string; code: NodeCode; sentence: number; empty: boolean }[] = [];
        let slot = 0;
        sentences.forEach((s, si) => {
          for (let w = 0; w <= s.words; w++) {
            if (w > 0) nodes.push({ id: String(w), code: code(slot, w), sentence: si, empty: false });
            for (let k = 1; k <= s.empties[w]; k++) nodes.push({ id: `${w}.${k}`, code: code(slot, w, k), sentence: si, empty: true });
          }
          slot += s.words + 1;
        });
        // DEPS of each empty node: a parent word (0 = root) or an empty node of its sentence.
        const deps = nodes.map((node, i) => {
          if (!node.empty) return null;
          const mates = nodes.filter((o) => o.sentence === node.sentence && o !== node);
          const pick = depsSeed[i] % (mates.length + 2);
          if (pick === mates.length + 1) return { text: "_", parsed: null };
          const parent = pick < mates.length ? mates[pick] : null;
          const slotOf = sentences.slice(0, node.sentence).reduce((sum, s) => sum + s.words + 1, 0);
          return parent === null
            ? { text: "0:root", parsed: [{ parent: code(slotOf, 0), deprel: "root" }] }
            : { text: `${parent.id}:nmod:poss|0:dep`, parsed: [{ parent: parent.code, deprel: "nmod:poss" }, { parent: code(slotOf, 0), deprel: "dep" }] };
        });
        const kept = writable(generated);
        // The brackets of each node: closes (innermost first), opens (outermost first), one-node mentions.
        const closes: { start: number; text: string }[][] = nodes.map(() => []);
        const opens: { end: number; text: string }[][] = nodes.map(() => []);
        const singles: string[][] = nodes.map(() => []);
        for (const m of kept) {
          m.parts.forEach(([a, b], p) => {
            const last = p === m.parts.length - 1;
            const id = m.parts.length === 2 ? `${m.entity}[${p + 1}/2]` : m.entity;
            const head = last && m.head !== null ? `-${m.head}` : "";
            if (a === b) singles[a].push(`(${id}-x${head})`);
            else {
              opens[a].push({ end: b, text: `(${id}-x${head}` });
              closes[b].push({ start: a, text: `${id})` });
            }
          });
        }
        const lines = ["# newdoc id = rt", "# global.Entity = eid-etype-head"];
        nodes.forEach((node, i) => {
          if (i > 0 && node.sentence !== nodes[i - 1].sentence) lines.push("");
          const brackets = [
            ...closes[i].sort((x, y) => y.start - x.start).map((c) => c.text),
            ...opens[i].sort((x, y) => y.end - x.end).map((o) => o.text),
            ...singles[i],
          ].join("");
          lines.push(row(node.id, node.empty ? "_" : `w${i}`, brackets ? `Entity=${brackets}` : "_", deps[i]?.text ?? "_"));
        });
        // What the reader must give: heads as udapi sets them, or a head outside its mention.
        const expected: string[] = [];
        let outside = false;
        for (const m of kept) {
          const indices = m.parts.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, k) => a + k));
          const codes = indices.map((i) => nodes[i].code);
          const oneNode = m.parts.length === 1 && codes.length === 1;
          const lastOneNode = m.parts.length === 2 && m.parts[1][0] === m.parts[1][1];
          let head: number;
          if (oneNode || m.head === null) head = 0;
          else if (m.head === 0) head = lastOneNode ? codes.length - 1 : 0;
          else if (m.head > codes.length) {
            outside = true;
            break;
          } else head = m.head - 1;
          const h = nodes[indices[head]];
          expected.push(JSON.stringify([m.entity, codes, h.code, h.empty, h.sentence, h.empty ? deps[indices[head]]!.parsed : null]));
        }
        if (outside) {
          expect(formatError(() => read(lines)).expected).toMatch(/^a head inside its mention/);
          return;
        }
        const doc = read(lines).documents[0];
        const eids = [...new Set(kept.map((m) => m.entity))];
        const got = doc.corefud!.entities.flatMap((entity, e) =>
          entity.map((m) => JSON.stringify([eids[e] ?? "?", m.nodes, m.head, m.zero, m.sentence, m.headDeps])),
        );
        // Entities are numbered by first sight, not in the generator's order: compare by written id.
        const byId = (list: string[]) => list.map((x) => JSON.parse(x) as unknown[]).map((x) => JSON.stringify(x.slice(1))).sort();
        expect(byId(got)).toEqual(byId(expected));
        expect(doc.corefud!.entities).toHaveLength(eids.length);
        mentions += got.length;
        zeros += doc.corefud!.entities.flat().filter((m) => m.zero).length;
        expect(doc.corefud!.sentences.map((s) => s.forms.length)).toEqual(sentences.map((s) => s.words));
      }),
      { numRuns: 600, seed: 10 },
    );
    expect(mentions).toBeGreaterThan(500);
    expect(zeros).toBeGreaterThan(100);
  });
});

// ---------------------------------------------------------------------------------------
// The mentions of the CorefUD scorer's test cases, as the scorer itself read them.

/** The repository root: this file is `<root>/scoring/formats/conllu-corefud.test.ts`. */
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The folder of the CorefUD scorer conformance suite (`expected.json`, `data/`):
 * `$COREFBOARD_CONFORMANCE_DIR/corefud-scorer` when that variable is set and not empty
 * (trusted as given), else the copy in the test fixtures, else `../shared/conformance/corefud-scorer`
 * next to the repository, else null.
 */
function conformanceDir(): string | null {
  const fromEnv = process.env.COREFBOARD_CONFORMANCE_DIR;
  if (fromEnv !== undefined && fromEnv.trim() !== "") return resolve(fromEnv, "corefud-scorer");
  for (const dir of [join(REPO_ROOT, "scoring", "test", "fixtures", "corefud-scorer"), resolve(REPO_ROOT, "..", "shared", "conformance", "corefud-scorer")]) {
    if (existsSync(join(dir, "expected.json"))) return dir;
  }
  return null;
}

interface AlignmentEntry {
  test: string;
  key: string;
  response: string;
  settings: { keep_singletons: boolean; keep_zeros: boolean };
  alignment: { key_entities: string[][]; response_entities: string[][] };
}

/**
 * The mentions of a file in the notation of expected.json's `alignment`: `[s:w,...]` with
 * `s` the 1-based sentence number in the file, `w` the CoNLL-U ID (`15.1` for an empty node)
 * and `*` after the head.
 */
function renderMentions(corpus: Corpus, keepZeros: boolean): string[] {
  const out: string[] = [];
  let sentencesBefore = 0;
  for (const doc of corpus.documents) {
    const { sentences, entities } = doc.corefud!;
    const id = (node: NodeCode): string => {
      const position = Math.floor(node / 1024);
      let s = sentences.length - 1;
      while (sentences[s].slot > position) s--;
      const ord = position - sentences[s].slot;
      const sub = node % 1024;
      return `${sentencesBefore + s + 1}:${ord}${sub === 0 ? "" : `.${sub}`}`;
    };
    for (const entity of entities) {
      for (const m of entity) {
        if (!keepZeros && m.zero) continue;
        out.push(`[${m.nodes.map((n) => id(n) + (n === m.head ? "*" : "")).join(",")}]`);
      }
    }
    sentencesBefore += sentences.length;
  }
  return out;
}

/** Distinct, sorted. */
function distinct(mentions: string[]): string[] {
  return [...new Set(mentions)].sort();
}

const suite = conformanceDir();
if (suite === null) console.log("skipping the CorefUD scorer mention test: no conformance folder (set COREFBOARD_CONFORMANCE_DIR)");

describe("readCorefUD: the mentions of the CorefUD scorer's 111 test cases", () => {
  it.skipIf(suite === null)("reads every key and response as the scorer read them (sets of nodes with their heads)", () => {
    const { entries } = JSON.parse(readFileSync(join(suite!, "expected.json"), "utf8")) as { entries: AlignmentEntry[] };
    expect(entries).toHaveLength(111);
    const cache = new Map<string, Corpus>();
    const load = (path: string): Corpus => {
      let corpus = cache.get(path);
      if (!corpus) cache.set(path, (corpus = readCorefUD(readFileSync(join(suite!, "data", path)), path)));
      return corpus;
    };
    const mismatches: string[] = [];
    let zeros = 0;
    for (const e of entries) {
      // Every entry keeps singletons; zeros are left out on both sides where keep_zeros is false.
      expect(e.settings.keep_singletons).toBe(true);
      for (const [path, expected] of [
        [e.key, e.alignment.key_entities],
        [e.response, e.alignment.response_entities],
      ] as const) {
        const got = distinct(renderMentions(load(path), e.settings.keep_zeros));
        const want = distinct(expected.flat());
        if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${e.test} ${path}: read ${got.join(" ")}; the scorer read ${want.join(" ")}`);
        zeros += got.filter((m) => /\.\d+\*/.test(m)).length;
      }
    }
    expect(mismatches).toEqual([]);
    // The suite has zeros, heads inside mentions and discontinuous mentions to compare.
    expect(zeros).toBeGreaterThan(20);
    // 127 files: all data files but the 6 no upstream test uses.
    expect(cache.size).toBe(127);
  });
});
