/**
 * Tests of the CorefUD CoNLL-U reader: hand-written inputs with exact entities, every
 * error with its exact line and column, random bytes and random well-formed documents
 * (fast-check), and the 108 GUM CorefUD files against the counts in their README.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError, type Corpus, type Entity } from "../types.js";
import { readConll2012 } from "./conll2012.js";
import { readCorefUD } from "./conllu.js";
import { dataDir } from "../test/data-dir.js";
import { formatError } from "../test/format-error.js";
import { expectLinearTime } from "../test/linear-time.js";

/** A CoNLL-U word (or range / empty node) line with `misc` in column 10. */
function row(id: string | number, form: string, misc = "_"): string {
  return [String(id), form, "_", "_", "_", "_", "_", "_", "_", misc].join("\t");
}

function read(lines: string[], file = "test.conllu"): Corpus {
  return readCorefUD(lines.join("\n") + "\n", file);
}

/** The character a FormatError's column points at in `lines`. */
function charAt(lines: string[], e: FormatError): string {
  return lines[e.line - 1].charAt(e.column - 1);
}

describe("readCorefUD: reading", () => {
  it("reads words, sentences, nested and one-word mentions", () => {
    const lines = [
      "# newdoc id = doc1",
      "# global.Entity = eid-etype-head-other",
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
      "",
    ];
    const corpus = read(lines);
    expect(corpus.file).toBe("test.conllu");
    expect(corpus.warnings).toEqual([]);
    // The span view here; the node-set view (`corefud`) of this document is checked in conllu-corefud.test.ts.
    expect(corpus.documents[0].corefud).toBeDefined();
    expect(corpus.documents.map((d) => ({ ...d, corefud: undefined }))).toEqual([
      {
        id: "doc1",
        name: "doc1",
        part: null,
        tokens: ["Mary", "saw", "her", "dog", ".", "It", "barked"],
        sentenceStarts: [0, 5],
        // entity 1 is seen first (token 0); on token 2 the one-word (1 comes before the open (2.
        entities: [
          [
            [0, 0],
            [2, 2],
          ],
          [
            [2, 3],
            [5, 5],
          ],
        ],
        line: 1,
      },
    ]);
  });

  it("numbers entities by first sight, one-word items before opening items on a word", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(7-x(9-y)"),
      row(2, "b", "Entity=7)"),
      row(3, "c", "Entity=(8-z)"),
    ]);
    expect(corpus.documents[0].entities).toEqual([[[0, 0]], [[0, 1]], [[2, 2]]]);
  });

  it("closes the most recent open mention of the same entity and pairs brackets in written order", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(1-x"),
      row(2, "b", "Entity=(1-x"),
      row(3, "c", "Entity=1)"),
      row(4, "d", "Entity=1)(1-x"),
      row(5, "e", "Entity=1)"),
    ]);
    // Mentions in the order they are closed.
    expect(corpus.documents[0].entities).toEqual([
      [
        [1, 2],
        [0, 3],
        [3, 4],
      ],
    ]);
  });

  it("reads mentions that cross a sentence boundary", () => {
    const corpus = read(["# newdoc id = d", row(1, "a", "Entity=(1-x"), "", row(1, "b", "Entity=1)")]);
    expect(corpus.documents[0].entities).toEqual([[[0, 1]]]);
    expect(corpus.documents[0].sentenceStarts).toEqual([0, 1]);
  });

  it("counts words only: multiword-token ranges and empty nodes are not tokens", () => {
    const corpus = read([
      "# newdoc id = d",
      row("1-2", "don't"),
      row(1, "do", "Entity=(1-x"),
      row(2, "n't", "Entity=1)"),
      row(3, "go"),
      row("3.1", "went"),
      row(4, "home", "Entity=(2-place)"),
    ]);
    const doc = corpus.documents[0];
    expect(doc.tokens).toEqual(["do", "n't", "go", "home"]);
    expect(doc.entities).toEqual([[[0, 1]], [[3, 3]]]);
    expect(corpus.warnings).toEqual([]);
  });

  it("reads Entity brackets on empty nodes (a mention of empty nodes only has no span) and ignores those on multiword-token lines, with a warning", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(1-x)"),
      row("1.1", "e", "Entity=(2-x)"),
      row("1.2", "e", "Entity=(3-x)"),
      row("2-3", "bc", "Entity=(4-x)"),
      row(2, "b"),
      row(3, "c", "Entity=(1-x)"),
    ]);
    expect(corpus.documents[0].entities).toEqual([
      [
        [0, 0],
        [2, 2],
      ],
    ]);
    // Entities 2 and 3 (on the empty nodes 1.1 and 1.2 only) are in the node-set view alone.
    expect(corpus.documents[0].corefud!.entities.map((e) => e.map((m) => m.nodes))).toEqual([[[1024], [3072]], [[1025]], [[1026]]]);
    expect(corpus.warnings.map((w) => [w.code, w.message])).toEqual([
      ["multiword-token-mention-ignored", expect.stringContaining("on 1 multiword-token line(s)")],
    ]);
  });

  it("ignores Bridge= and SplitAnte= and reads Entity= anywhere in MISC", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "John", "Entity=(1-person)"),
      row(2, "Mary", "SpaceAfter=No|Entity=(2-person)"),
      row(3, "they", "Bridge=1<3|Entity=(3-person)|SplitAnte=1<3,2<3"),
    ]);
    expect(corpus.documents[0].entities).toEqual([[[0, 0]], [[1, 1]], [[2, 2]]]);
    expect(corpus.warnings).toEqual([]);
  });

  it("takes the entity id from the position global.Entity declares for eid (or GRP)", () => {
    const corpus = read([
      "# newdoc id = d",
      "# global.Entity = etype-eid-head",
      row(1, "a", "Entity=(person-e1-1)"),
      row(2, "b", "Entity=(person-e2-1)"),
      row(3, "c", "Entity=(thing-e1-1)"),
      "",
      "# newdoc id = g",
      "# global.Entity = GRP-etype",
      row(1, "a", "Entity=(5-person)"),
      row(2, "b", "Entity=(5-thing)"),
    ]);
    expect(corpus.documents[0].entities).toEqual([
      [
        [0, 0],
        [2, 2],
      ],
      [[1, 1]],
    ]);
    expect(corpus.documents[1].entities).toEqual([
      [
        [0, 0],
        [1, 1],
      ],
    ]);
  });

  it("reads several documents, each with its own token indices and entity ids", () => {
    const corpus = read([
      "# newdoc id = first",
      row(1, "a", "Entity=(1-x)"),
      "",
      "# newdoc id = second",
      "# sent_id = s1",
      row(1, "b"),
      row(2, "c", "Entity=(1-x)"),
    ]);
    expect(corpus.documents.map((d) => [d.id, d.line, d.tokens, d.entities])).toEqual([
      ["first", 1, ["a"], [[[0, 0]]]],
      ["second", 4, ["b", "c"], [[[1, 1]]]],
    ]);
  });

  it("names a single document without '# newdoc id' after the file, with a warning", () => {
    const corpus = read([row(1, "a", "Entity=(1-x)")], "some/dir/GUM_news_x.conllu");
    expect(corpus.documents.map((d) => [d.id, d.name, d.line])).toEqual([["GUM_news_x", "GUM_news_x", 1]]);
    expect(corpus.warnings).toMatchObject([{ code: "unnamed-document", document: "GUM_news_x", line: 1 }]);
    // A bare '# newdoc' (no id): named by its position, as udapi numbers it.
    const bare = read(["# newdoc", row(1, "a")], "plain.conllu");
    expect(bare.documents[0].id).toBe("unnamed document 1");
    expect(bare.warnings).toMatchObject([{ code: "unnamed-document", line: 1, document: "unnamed document 1" }]);
  });

  it("joins the parts of a discontinuous mention into one span, with one warning per document", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(e5[1/2]-x"),
      row(2, "b", "Entity=e5[1/2])"),
      row(3, "c", "Entity=(e6-y)"),
      row(4, "d", "Entity=(e5[2/2]-x)"),
      row(5, "e", "Entity=(e5[1/3]-x)"),
      row(6, "f", "Entity=(e5[2/3]-x"),
      row(7, "g", "Entity=e5)"),
      row(8, "h", "Entity=(e5[3/3]-x)(e7[1/1]-z)"),
    ]);
    expect(corpus.documents[0].entities).toEqual([
      [
        [0, 3],
        [4, 7],
      ],
      [[2, 2]],
      [[7, 7]],
    ]);
    expect(corpus.warnings).toMatchObject([
      { code: "discontinuous-mention-joined", document: "d", message: expect.stringContaining(": 2 discontinuous") },
    ]);
  });

  it("warns once per document and kind about a span annotated twice", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(1-x)(1-x)"),
      row(2, "b", "Entity=(2-x)(3-x)"),
      row(3, "c", "Entity=(2-x)(3-x)"),
      row(4, "d", "Entity=(1-x)(1-x)"),
    ]);
    expect(corpus.documents[0].entities).toEqual([
      [
        [0, 0],
        [0, 0],
        [3, 3],
        [3, 3],
      ],
      [
        [1, 1],
        [2, 2],
      ],
      [
        [1, 1],
        [2, 2],
      ],
    ]);
    expect(corpus.warnings).toMatchObject([
      { code: "repeated-span-same-entity", line: 2, message: expect.stringContaining(": 2 span(s)") },
      { code: "repeated-span-other-entity", line: 3, message: expect.stringContaining(": 2 span(s)") },
    ]);
  });

  it("accepts raw bytes, a byte-order mark and CRLF line ends", () => {
    const text = "\uFEFF# newdoc id = d\r\n" + row(1, "a", "Entity=(1-x") + "\r\n" + row(2, "b", "Entity=1)") + "\r\n";
    const corpus = readCorefUD(new TextEncoder().encode(text), "crlf.conllu");
    expect(corpus.documents[0].tokens).toEqual(["a", "b"]);
    expect(corpus.documents[0].entities).toEqual([[[0, 1]]]);
  });
});

describe("readCorefUD: errors", () => {
  it("points at the opening bracket of a mention left open at the end of its document", () => {
    const lines = ["# newdoc id = d", row(1, "a", "Entity=(1-x)(2-y"), row(2, "b"), "", "# newdoc id = e", row(1, "c")];
    const e = formatError(() => read(lines));
    expect([e.line, e.column, charAt(lines, e)]).toEqual([2, 31, "("]);
    expect(e.expected).toContain("'2)'");
    expect(e.found).toBe("'(2' that is never closed");
    expect(e.excerpt.split("\n")[1].indexOf("^")).toBe(2 + 30);
    // The same at the end of the file.
    const last = ["# newdoc id = d", row(1, "a"), row(2, "b", "Entity=(1-x(2-y"), row(3, "c", "Entity=2)")];
    const e2 = formatError(() => read(last));
    expect([e2.line, e2.column, charAt(last, e2)]).toEqual([3, 26, "("]);
  });

  it("points at a close with no open mention", () => {
    const lines = ["# newdoc id = d", row(1, "a", "Entity=(1-x)"), row(2, "b", "SpaceAfter=No|Entity=1)2)")];
    const e = formatError(() => read(lines));
    expect([e.line, e.column, charAt(lines, e)]).toEqual([3, 40, "1"]);
    expect(e.found).toBe("'1)' with no open mention of entity 1");
  });

  it("points at a malformed bracket", () => {
    const cases: [string, number][] = [
      ["Entity=abc", 0],
      ["Entity=(1-x)abc", 5],
      ["Entity=(", 0],
      ["Entity=(-x)", 0],
      ["Entity=(1-x)-x)", 5],
      ["Entity=(e1[2/1]-x)", 0],
      ["Entity=(e1[1/2-x)", 0],
      ["Entity=(1 2-x)", 0],
      ["Entity=_", 0],
    ];
    for (const [misc, at] of cases) {
      const lines = ["# newdoc id = d", row(1, "a", misc)];
      const e = formatError(() => read(lines));
      const valueColumn = lines[1].indexOf("Entity=") + 8;
      expect([misc, e.line, e.column]).toEqual([misc, 2, valueColumn + at]);
    }
  });

  it("rejects a token line with other than 10 columns", () => {
    const short = ["# newdoc id = d", "1\ta\t_\t_"];
    const e = formatError(() => read(short));
    expect([e.line, e.column, e.found]).toEqual([2, 8, "4 column(s)"]);
    const long = ["# newdoc id = d", row(1, "a") + "\textra"];
    const e2 = formatError(() => read(long));
    expect([e2.line, e2.column, e2.found, charAt(long, e2)]).toEqual([2, 21, "11 column(s)", "e"]);
    const spaces = ["# newdoc id = d", "1 a _ _ _ _ _ _ _ _"];
    expect(formatError(() => read(spaces)).found).toBe("1 column(s)");
  });

  it("rejects an ID that is not a word, a range or an empty node", () => {
    for (const id of ["x", "0", "1.0", "1-", "-1", "01", "1.2.3", "1 "]) {
      const e = formatError(() => read(["# newdoc id = d", row(id, "a")]));
      expect([id, e.line, e.column, e.found]).toEqual([id, 2, 1, JSON.stringify(id)]);
    }
  });

  it("rejects a file without words, and empty or binary input", () => {
    const e = formatError(() => read(["# newdoc id = d", "# text = nothing", ""]));
    expect([e.line, e.column, e.found]).toEqual([3, 1, "no word in the whole file"]);
    expect(formatError(() => readCorefUD("", "e.conllu")).found).toBe("an empty file");
    const bin = formatError(() => readCorefUD(new Uint8Array([35, 10, 0, 1]), "b.conllu"));
    expect([bin.line, bin.column]).toEqual([2, 1]);
    const latin1 = formatError(() => readCorefUD(new Uint8Array([49, 9, 0xe9]), "l.conllu"));
    expect([latin1.line, latin1.column, latin1.expected]).toEqual([1, 3, "UTF-8 text"]);
  });

  it("rejects a repeated newdoc id, and a document without '# newdoc' in a file of several", () => {
    const dup = formatError(() => read(["# newdoc id = d", row(1, "a"), "", "# newdoc id = d", row(1, "b")]));
    expect([dup.line, dup.column, dup.found]).toEqual([4, 1, '"d" again (first at line 1)']);
    const lines = ["# sent_id = 1", row(1, "a"), "", "# newdoc id = d", row(1, "b")];
    const e = formatError(() => read(lines));
    expect([e.line, e.column, e.found]).toEqual([2, 1, "a word line before any '# newdoc'"]);
    // A bare '# newdoc' in a file of several is read (udapi numbers it), with a warning.
    const bare = read(["# newdoc id = a", row(1, "a"), "", "# newdoc", row(1, "b")]);
    expect(bare.documents.map((d) => [d.id, d.line])).toEqual([
      ["a", 1],
      ["unnamed document 2", 4],
    ]);
    expect(bare.warnings).toMatchObject([{ code: "unnamed-document", line: 4, document: "unnamed document 2" }]);
  });

  it("rejects a malformed '# newdoc' line and a global.Entity without eid", () => {
    const e = formatError(() => read(["# newdoc name = x", row(1, "a")]));
    expect([e.line, e.column, e.found]).toEqual([1, 10, '"name = x"']);
    const g = formatError(() => read(["# newdoc id = d", "# global.Entity = etype-head", row(1, "a")]));
    expect([g.line, g.column, g.found]).toEqual([2, 19, '"etype-head"']);
  });

  it("rejects a second Entity= attribute in one MISC cell", () => {
    const lines = ["# newdoc id = d", row(1, "a", "Entity=(1-x)|Entity=(2-x)")];
    const e = formatError(() => read(lines));
    expect([e.line, e.column]).toEqual([2, lines[1].lastIndexOf("Entity=") + 1]);
  });

  it("rejects discontinuous parts that do not fit together", () => {
    const wrongClose = ["# newdoc id = d", row(1, "a", "Entity=(e1[1/2]-x"), row(2, "b", "Entity=e1[2/2])")];
    const e = formatError(() => read(wrongClose));
    expect([e.line, e.column, e.found]).toEqual([3, 26, "'e1[2/2])'"]);
    const noFirst = ["# newdoc id = d", row(1, "a", "Entity=(e1[2/2]-x)")];
    const e2 = formatError(() => read(noFirst));
    expect([e2.line, e2.column, charAt(noFirst, e2)]).toEqual([2, 26, "("]);
    const missing = ["# newdoc id = d", row(1, "a", "Entity=(e1[1/3]-x)"), row(2, "b", "Entity=(e1[2/3]-x)"), row(3, "c")];
    const e3 = formatError(() => read(missing));
    expect([e3.line, e3.column, e3.found]).toEqual([2, 26, "a discontinuous mention with only 2 of its 3 parts"]);
  });

  it("stops at the document, token and mention limits", () => {
    const lines = ["# newdoc id = a", row(1, "a", "Entity=(1-x)(2-x)"), row(2, "b"), "", "# newdoc id = b", row(1, "c")];
    const text = lines.join("\n");
    const docs = formatError(() => readCorefUD(text, "l.conllu", { maxDocuments: 1 }));
    expect([docs.line, docs.column, docs.expected]).toEqual([5, 1, "at most 1 documents in one file"]);
    const tokens = formatError(() => readCorefUD(text, "l.conllu", { maxTokensPerDocument: 1 }));
    expect([tokens.line, tokens.column, tokens.expected]).toEqual([3, 1, "at most 1 tokens (words and empty nodes) in one document"]);
    const mentions = formatError(() => readCorefUD(text, "l.conllu", { maxMentionsPerDocument: 1 }));
    expect([mentions.line, mentions.column, charAt(lines, mentions)]).toEqual([2, 31, "("]);
    expect(readCorefUD(text, "l.conllu", { maxDocuments: 2, maxTokensPerDocument: 2, maxMentionsPerDocument: 2 }).documents).toHaveLength(2);
  });
});

describe("readCorefUD: hostile inputs stay linear", () => {
  it("joins a discontinuous part to the mention of its entity begun most recently that waits for it", () => {
    const corpus = read([
      "# newdoc id = d",
      row(1, "a", "Entity=(e[1/2]-x)"),
      row(2, "b", "Entity=(e[1/2]-x)(e[1/3]-x)"),
      row(3, "c", "Entity=(e[2/2]-x)"),
      row(4, "d", "Entity=(e[2/2]-x)(e[2/3]-x)"),
      row(5, "e", "Entity=(e[3/3]-x)"),
    ]);
    // Word 3 takes the [1/2] of word 2 (the later one), word 4 the one of word 1; the [1/3]
    // waits for [2/3] only.
    expect(corpus.documents[0].entities).toEqual([
      [
        [1, 2],
        [0, 3],
        [1, 4],
      ],
    ]);
  });

  it("reads discontinuous mentions of one entity in linear time", { timeout: 60_000 }, () => {
    // All first parts open and close on word 1; all second parts open on word 2 and close on
    // word 3: every second part waits among n candidates (quadratic before: 20,000 took 1.8 s).
    expectLinearTime((n) => {
      const lines = [
        "# newdoc id = d",
        row(1, "a", "Entity=" + "(e[1/2]-x".repeat(n) + "e[1/2])".repeat(n)),
        row(2, "b", "Entity=" + "(e[2/2]-x".repeat(n)),
        row(3, "c", "Entity=" + "e[2/2])".repeat(n)),
      ];
      return () => {
        const corpus = read(lines);
        expect(corpus.documents[0].entities[0]).toHaveLength(n);
        expect(corpus.documents[0].entities[0][0]).toEqual([0, 2]);
      };
    }, 40_000);
  });

  it("reads '# newdoc id' and '# global.Entity' lines with a million spaces in linear time", { timeout: 60_000 }, () => {
    const spaces = " ".repeat(1_000_000);
    const corpus = read([`# newdoc id =${spaces}d${spaces}`, `# global.Entity =${spaces}etype-eid${spaces}`, row(1, "a", "Entity=(x-1)")]);
    expect(corpus.documents[0].id).toBe("d");
    expect(corpus.documents[0].entities).toEqual([[[0, 0]]]);
    const bad = formatError(() => read([`# newdoc id = d${spaces}x`, `# global.Entity = etype${spaces}x`, row(1, "a")]));
    expect([bad.line, bad.column, bad.found]).toEqual([2, 19, `"etype${" ".repeat(35)}…"`]);
    // Quadratic before: 40,000 spaces took 2 s.
    expectLinearTime((n) => {
      const gap = " ".repeat(n);
      const lines = [`# newdoc id =${gap}d${gap}`, `# global.Entity =${gap}etype-eid${gap}`, row(1, "a", "Entity=(x-1)")];
      return () => read(lines);
    }, 1_000_000);
  });

  it("counts open mentions against the mention limit, so `(e-x(e-x...` stops at the limit", () => {
    const lines = ["# newdoc id = d", row(1, "a", "Entity=" + "(e-x".repeat(250_000))];
    const e = formatError(() => readCorefUD(lines.join("\n"), "l.conllu", { maxMentionsPerDocument: 1000 }));
    expect([e.line, e.column, e.found]).toEqual([2, lines[1].indexOf("Entity=") + 8 + 4 * 1000, 'mention 1001 of document "d"']);
    // A discontinuous mention counts once, from its first part to its last.
    const parts = ["# newdoc id = d", row(1, "a", "Entity=(e[1/3]-x)(f[1/2]-x)"), row(2, "b", "Entity=(e[2/3]-x)(g-x)")];
    const p = formatError(() => readCorefUD(parts.join("\n"), "l.conllu", { maxMentionsPerDocument: 2 }));
    expect([p.line, charAt(parts, p), p.found]).toEqual([3, "(", 'mention 3 of document "d"']);
    expect(p.column).toBe(parts[2].indexOf("(g") + 1);
    // An error earlier on the line still comes first, and a syntax error anywhere on it before that.
    const close = ["# newdoc id = d", row(1, "a", "Entity=x)" + "(e-x".repeat(10))];
    expect(formatError(() => readCorefUD(close.join("\n"), "l.conllu", { maxMentionsPerDocument: 5 })).found).toBe("'x)' with no open mention of entity x");
    const syntax = ["# newdoc id = d", row(1, "a", "Entity=" + "(e-x".repeat(10) + "e)x")];
    expect(formatError(() => readCorefUD(syntax.join("\n"), "l.conllu", { maxMentionsPerDocument: 5 })).expected).toMatch(/^a bracket/);
  });
});

describe("readCorefUD: properties", () => {
  it("returns a Corpus or throws a FormatError on any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        try {
          const corpus = readCorefUD(bytes, "random.conllu");
          expect(Array.isArray(corpus.documents)).toBe(true);
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("returns a Corpus or throws a FormatError on random CoNLL-U-like text", () => {
    const piece = fc.constantFrom("(", ")", "1", "2", "e3", "-", "x", "[1/2]", "[2/2]", "|", "Entity=", "\t", "\n", "#", " newdoc id = a", "1.1", "2-3", "_");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), (parts) => {
        try {
          readCorefUD(parts.join(""), "random.conllu");
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
          expect(err.line).toBeGreaterThanOrEqual(1);
          expect(err.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reads back the entities of any written document (no crossing mentions of one entity)", () => {
    const mention = (n: number) =>
      fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(4)).map(([a, b, e]) => ({ start: Math.min(a, b), end: Math.max(a, b), eid: `e${e}` }));
    const document = fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.constant(n), fc.array(mention(n), { maxLength: 12 })));
    fc.assert(
      fc.property(document, ([n, all]) => {
        // Crossing mentions of one entity are ambiguous in the format: keep the first.
        const mentions: typeof all = [];
        for (const m of all) {
          const crosses = mentions.some(
            (o) => o.eid === m.eid && ((o.start < m.start && m.start <= o.end && o.end < m.end) || (m.start < o.start && o.start <= m.end && m.end < o.end)),
          );
          if (!crosses) mentions.push(m);
        }
        const lines = ["# newdoc id = p", ...Array.from({ length: n }, (_, t) => row(t + 1, `w${t}`, misc(mentions, t)))];
        const doc = readCorefUD(lines.join("\n"), "p.conllu").documents[0];
        expect(doc.tokens).toHaveLength(n);
        const eids = [...new Set(mentions.map((m) => m.eid))];
        const expected = eids.map((eid) => sortSpans(mentions.filter((m) => m.eid === eid).map((m) => [m.start, m.end] as const)));
        const got = doc.entities.map(sortSpans);
        expect(sortEntities(got)).toEqual(sortEntities(expected));
      }),
      { numRuns: 300 },
    );
  });
});

type Written = { start: number; end: number; eid: string };

/** The Entity= brackets for word `t`: closes (innermost first), opens (outermost first), one-word mentions. */
function misc(mentions: Written[], t: number): string {
  const closes = mentions.filter((m) => m.end === t && m.start < t).sort((a, b) => b.start - a.start);
  const opens = mentions.filter((m) => m.start === t && m.end > t).sort((a, b) => b.end - a.end);
  const singles = mentions.filter((m) => m.start === t && m.end === t);
  const value = [...closes.map((m) => `${m.eid})`), ...opens.map((m) => `(${m.eid}-t`), ...singles.map((m) => `(${m.eid}-t)`)].join("");
  return value === "" ? "_" : `Entity=${value}`;
}

function sortSpans(entity: readonly (readonly [number, number])[]): Entity {
  return [...entity].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function sortEntities(entities: Entity[]): string[] {
  return entities.map((e) => JSON.stringify(e)).sort();
}

const root = dataDir();
const gumDir = root === null ? null : join(root, "gum", "corefud-conllu");
// Skipped only without a data folder: a configured folder without the files fails the tests.
const haveGum = gumDir !== null;
if (!haveGum) console.log(`skipping the GUM CorefUD tests: dataDir() found no data folder (set COREFBOARD_DATA_DIR)`);

describe("readCorefUD: GUM CorefUD 1.x (108 files)", () => {
  it.skipIf(!haveGum)("matches the counts in gum/README.md", () => {
    const files = readdirSync(gumDir!).filter((f) => f.endsWith(".conllu")).sort();
    const totals = { docs: 0, words: 0, mentions: 0, entities: 0, singletons: 0, nested: 0, twoEntities: 0, sentences: 0 };
    const warnings: string[] = [];
    for (const f of files) {
      const corpus = readCorefUD(readFileSync(join(gumDir!, f)), f);
      warnings.push(...corpus.warnings.map((w) => `${f}: ${w.code}`));
      expect(corpus.documents.map((d) => d.id)).toEqual([f.replace(/\.conllu$/, "")]);
      for (const doc of corpus.documents) {
        totals.docs++;
        totals.words += doc.tokens.length;
        totals.sentences += doc.sentenceStarts.length;
        totals.entities += doc.entities.length;
        const owner = new Map<string, number>();
        const spans: (readonly [number, number])[] = [];
        doc.entities.forEach((entity, e) => {
          totals.mentions += entity.length;
          if (entity.length === 1) totals.singletons++;
          for (const [s, t] of entity) {
            const prior = owner.get(`${s},${t}`);
            if (prior !== undefined && prior !== e) totals.twoEntities++;
            owner.set(`${s},${t}`, e);
            spans.push([s, t]);
            expect(0 <= s && s <= t && t < doc.tokens.length).toBe(true);
          }
        });
        // README "nested": mentions inside another mention with a different span.
        for (const [s, t] of spans) {
          if (spans.some(([a, b]) => a <= s && t <= b && (a !== s || b !== t))) totals.nested++;
        }
      }
    }
    expect(files).toHaveLength(108);
    expect(totals).toEqual({
      docs: 108,
      words: 98_363,
      mentions: 28_465,
      entities: 16_064,
      singletons: 11_990,
      nested: 12_194,
      twoEntities: 0,
      sentences: 4_636, // the number of '# sent_id' lines in the files
    });
    expect(warnings).toEqual([]);
  });

  it.skipIf(!haveGum)("reads a file's bytes (line by line, InputLines) exactly as its decoded text", () => {
    let nonAscii = 0;
    for (const f of readdirSync(gumDir!).filter((f) => f.endsWith(".conllu"))) {
      const bytes = readFileSync(join(gumDir!, f));
      const text = new TextDecoder().decode(bytes);
      if (/[^\x00-\x7f]/.test(text)) nonAscii++;
      expect(readCorefUD(bytes, f)).toEqual(readCorefUD(text, f));
    }
    expect(nonAscii).toBeGreaterThan(50); // the byte path's decoded lines are exercised
  });

  it.skipIf(!haveGum)("has the same tokens as the OntoGUM CoNLL files of the same documents", () => {
    const ontogum = join(root!, "gum", "ontogum-conll");
    const differences: string[] = [];
    for (const f of readdirSync(gumDir!).filter((f) => f.endsWith(".conllu"))) {
      const ud = readCorefUD(readFileSync(join(gumDir!, f)), f).documents[0].tokens;
      const conll = readConll2012(readFileSync(join(ontogum, f.replace(/\.conllu$/, ".conll"))), f).documents[0].tokens;
      expect(ud).toHaveLength(conll.length);
      ud.forEach((t, i) => {
        if (t !== conll[i]) differences.push(`${f}:${i}:${JSON.stringify(t)}/${JSON.stringify(conll[i])}`);
      });
    }
    // The one known difference: OntoGUM leaves the token '|' empty.
    expect(differences).toEqual(['GUM_news_iodine.conllu:379:"|"/""']);
  });
});
