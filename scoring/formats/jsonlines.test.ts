/**
 * Tests of the JSON-lines reader: hand-written inputs with exact entities, every error
 * with its exact line and column, random input (fast-check), and a round trip through the
 * LitBank demo files read by the CoNLL-2012 reader.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError, type Document } from "../types.js";
import { readConll2012 } from "./conll2012.js";
import { detectFormat, readCorpus } from "./index.js";
import { MAX_JSON_DEPTH, readJsonLines } from "./jsonlines.js";
import { dataDir } from "../test/data-dir.js";
import { formatError } from "../test/format-error.js";

/** Reads a single line and returns the error's [line, column, found]. */
function errorOn(line: string): [number, number, string] {
  const e = formatError(() => readJsonLines(line, "t.jsonl"));
  return [e.line, e.column, e.found];
}

/** A document line as systems write it. */
function docLine(docKey: string, sentences: string[][], clusters: number[][][]): string {
  return JSON.stringify({ doc_key: docKey, sentences, clusters });
}

describe("readJsonLines: reading", () => {
  it("reads documents, tokens over concatenated sentences and inclusive spans", () => {
    const text = [
      docLine("a", [["Mary", "saw", "her", "dog", "."], ["It", "barked"]], [[[0, 0], [2, 2]], [[2, 3], [5, 5]]]),
      "",
      JSON.stringify({ doc_key: "b", speakers: [["s"]], sentences: [[], ["x"], [], ["y", "z"]], clusters: [[[1, 2]]], extra: { clusters: 5 } }),
    ].join("\n");
    const corpus = readJsonLines(text, "sys.jsonlines");
    expect(corpus).toEqual({
      file: "sys.jsonlines",
      warnings: [],
      documents: [
        {
          id: "a",
          name: "a",
          part: null,
          tokens: ["Mary", "saw", "her", "dog", ".", "It", "barked"],
          sentenceStarts: [0, 5],
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
        { id: "b", name: "b", part: null, tokens: ["x", "y", "z"], sentenceStarts: [0, 1], entities: [[[1, 2]]], line: 3 },
      ],
    });
  });

  it("reads a document without tokens or clusters, raw bytes and CRLF line ends", () => {
    const bytes = new TextEncoder().encode(docLine("e", [], []) + "\r\n" + docLine("f", [["a"]], [[[0, 0]]]) + "\r\n");
    const corpus = readJsonLines(bytes, "t.jsonl");
    expect(corpus.documents.map((d) => [d.id, d.tokens, d.entities])).toEqual([
      ["e", [], []],
      ["f", ["a"], [[[0, 0]]]],
    ]);
  });

  it("drops empty clusters with a warning", () => {
    const corpus = readJsonLines(docLine("d", [["a", "b"]], [[], [[1, 1]], []]), "t.jsonl");
    expect(corpus.documents[0].entities).toEqual([[[1, 1]]]);
    expect(corpus.warnings).toMatchObject([{ code: "empty-cluster-dropped", line: 1, document: "d", message: expect.stringContaining(": 2 empty") }]);
  });

  it("warns once per document and kind about a span annotated twice", () => {
    const corpus = readJsonLines(docLine("d", [["a", "b", "c"]], [[[0, 0], [0, 0], [1, 2]], [[1, 2], [0, 1]], [[1, 2]]]), "t.jsonl");
    expect(corpus.documents[0].entities).toEqual([
      [
        [0, 0],
        [0, 0],
        [1, 2],
      ],
      [
        [1, 2],
        [0, 1],
      ],
      [[1, 2]],
    ]);
    expect(corpus.warnings).toMatchObject([
      { code: "repeated-span-same-entity", message: expect.stringContaining(": 1 span(s) annotated twice in the same entity (first: tokens 0, line 1)") },
      { code: "repeated-span-other-entity", message: expect.stringContaining(": 2 span(s) annotated in two entities (first: tokens 1-2, line 1)") },
    ]);
  });
});

describe("readJsonLines: errors", () => {
  it("reports invalid JSON with the column JSON.parse gives, else 1 (end of input: end of line)", () => {
    expect(errorOn('{"doc_key": "a",}')).toEqual([1, 17, "invalid JSON (Expected double-quoted property name)"]);
    expect(errorOn('{"doc_key": "a" "x"}')).toEqual([1, 17, "invalid JSON (Expected ',' or '}' after property value)"]);
    expect(errorOn('{"doc_key": tru}')).toEqual([1, 1, "invalid JSON (Unexpected token '}')"]);
    expect(errorOn('{"doc_key": "a"')).toEqual([1, 16, "invalid JSON (Expected ',' or '}' after property value)"]);
    expect(errorOn('{"doc_key": ')).toEqual([1, 13, "invalid JSON (Unexpected end of JSON input)"]);
    const e = formatError(() => readJsonLines(docLine("a", [], []) + "\n\n" + '{"doc_key": 1 2}', "t.jsonl"));
    expect([e.line, e.column, e.expected]).toEqual([3, 15, "one valid JSON object per line"]);
  });

  it("rejects a line that is not an object, or an object without the three fields", () => {
    expect(errorOn("  [1, 2]")).toEqual([1, 3, "an array of 2"]);
    expect(errorOn("42")).toEqual([1, 1, "the number 42"]);
    expect(errorOn("null")).toEqual([1, 1, "null"]);
    const e = formatError(() => readJsonLines(' {"doc_key": "a", "sentences": []}', "t.jsonl"));
    expect([e.line, e.column, e.expected, e.found]).toEqual([1, 2, 'a "clusters" field', "an object without it"]);
  });

  it("points at an ill-typed doc_key, sentences, sentence or token", () => {
    expect(errorOn('{"sentences": [], "clusters": [], "doc_key": 7}')).toEqual([1, 46, "the number 7"]);
    expect(errorOn('{"doc_key": "", "sentences": [], "clusters": []}')).toEqual([1, 13, 'the string ""']);
    expect(errorOn('{"doc_key": "a", "sentences": "x y", "clusters": []}')).toEqual([1, 31, 'the string "x y"']);
    expect(errorOn('{"doc_key": "a", "sentences": [["a"], "b"], "clusters": []}')).toEqual([1, 39, 'the string "b"']);
    expect(errorOn('{"doc_key": "a", "sentences": [["a\\"]", null]], "clusters": []}')).toEqual([1, 41, "null"]);
    // JSON.parse keeps the last of repeated keys; so does the column.
    expect(errorOn('{"doc_key": "a", "doc_key": 1, "sentences": [], "clusters": []}')).toEqual([1, 29, "the number 1"]);
  });

  it("points at an ill-typed cluster or mention", () => {
    const head = '{"doc_key": "a", "sentences": [["a", "b", "c"]], "clusters": ';
    const col = (rest: string, needle: string) => head.length + rest.indexOf(needle) + 1;
    const cases: [string, string, string][] = [
      ['{"x": 1}}', '{"x"', "an object"],
      ['[[[0, 0]], 5]}', "5]}", "the number 5"],
      ['[[[0, 0], [1]]]}', "[1]", "[1]"],
      ['[[[0, 0], [1, 2, 3]]]}', "[1, 2, 3]", "[1,2,3]"],
      ['[[[0, -1]]]}', "[0, -1]", "[0,-1]"],
      ['[[[0, 1.5]]]}', "[0, 1.5]", "[0,1.5]"],
      ['[[[0, "1"]]]}', '[0, "1"]', '[0,"1"]'],
      ['[[[0, 0], {"0": 1}]]}', '{"0"', '{"0":1}'],
      ['[[[0, 0], [' + "1, ".repeat(20) + "1]]]}", "[1, 1", "[" + "1,".repeat(19) + "1…"],
      ['[[[0, 0]], [[ 2 , 1 ]]]}', "[ 2 , 1 ]", "[2, 1]"],
      ['[[[0, 0]], [[1, 3]]]}', "[1, 3]", "[1, 3]"],
    ];
    for (const [rest, needle, found] of cases) {
      expect([rest, ...errorOn(head + rest)]).toEqual([rest, 1, col(rest, needle), found]);
    }
  });

  it("names the rule a mention breaks", () => {
    const line = docLine("a", [["a", "b"]], [[[0, 0]], [[1, 0]]]);
    expect(formatError(() => readJsonLines(line, "t.jsonl")).expected).toBe("mention 0 of cluster 1 with start <= end");
    const out = docLine("a", [["a", "b"]], [[[0, 2]]]);
    expect(formatError(() => readJsonLines(out, "t.jsonl")).expected).toBe(
      "mention 0 of cluster 0 inside the document's 2 token(s) (indices 0 to 1)",
    );
    const none = docLine("a", [], [[[0, 0]]]);
    expect(formatError(() => readJsonLines(none, "t.jsonl")).expected).toBe(
      "mention 0 of cluster 0 inside the document's 0 token(s) (but the document has no tokens)",
    );
  });

  it("rejects a repeated doc_key", () => {
    const text = [docLine("a", [], []), docLine("b", [], []), docLine("a", [], [])].join("\n");
    const e = formatError(() => readJsonLines(text, "t.jsonl"));
    expect([e.line, e.column, e.found]).toEqual([3, 12, '"a" again (first at line 1)']);
  });

  it("stops at the document, token and mention limits", () => {
    const text = [docLine("a", [["x"], ["y", "z"]], [[[0, 0], [1, 2]], [[2, 2]]]), docLine("b", [], [])].join("\n");
    const docs = formatError(() => readJsonLines(text, "t.jsonl", { maxDocuments: 1 }));
    expect([docs.line, docs.column, docs.expected]).toEqual([2, 1, "at most 1 documents in one file"]);
    const tokens = formatError(() => readJsonLines(text, "t.jsonl", { maxTokensPerDocument: 2 }));
    expect([tokens.line, tokens.column, tokens.expected]).toEqual([1, 40, "at most 2 tokens in one document"]);
    const mentions = formatError(() => readJsonLines(text, "t.jsonl", { maxMentionsPerDocument: 2 }));
    expect([mentions.line, mentions.column, mentions.found]).toEqual([1, 73, "mention 3"]);
    expect(readJsonLines(text, "t.jsonl", { maxDocuments: 2, maxTokensPerDocument: 3, maxMentionsPerDocument: 3 }).documents).toHaveLength(2);
  });

  it("rejects empty and binary input", () => {
    expect(formatError(() => readJsonLines(" \n", "t.jsonl")).found).toBe("a file holding only white space");
    const e = formatError(() => readJsonLines(new Uint8Array([123, 0]), "t.jsonl"));
    expect([e.line, e.column, e.expected]).toEqual([1, 2, "a text file"]);
  });
});

describe("readJsonLines: deep nesting", () => {
  const nested = (depth: number, open = "[", close = "]") => open.repeat(depth) + close.repeat(depth);

  it(`accepts values nested ${MAX_JSON_DEPTH} levels deep and rejects the first bracket one level deeper`, () => {
    // The document object is level 1, so an extra field holds MAX_JSON_DEPTH - 1 more levels.
    const ok = `{"doc_key":"a","sentences":[],"clusters":[],"extra":${nested(MAX_JSON_DEPTH - 1)}}`;
    expect(readJsonLines(ok, "t.jsonl").documents).toHaveLength(1);
    const deep = `{"doc_key":"a","sentences":[],"clusters":[],"extra":${nested(MAX_JSON_DEPTH)}}`;
    const e = formatError(() => readJsonLines(deep, "t.jsonl"));
    const extra = deep.indexOf("[", deep.indexOf('"extra"')); // 0-based offset of its first '[' (level 2)
    expect([e.line, e.column, e.found]).toEqual([1, extra + MAX_JSON_DEPTH, `'[' at level ${MAX_JSON_DEPTH + 1}`]);
    const [shown, caret] = e.excerpt.split("\n");
    expect(shown[caret.indexOf("^")]).toBe("[");
    // Objects count as levels too.
    const objects = formatError(() => readJsonLines(nested(MAX_JSON_DEPTH + 1, '{"a":', "}"), "t.jsonl"));
    expect([objects.column, objects.found]).toEqual([5 * MAX_JSON_DEPTH + 1, `'{' at level ${MAX_JSON_DEPTH + 1}`]);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const brackets = `[[[{{{\\"${"[".repeat(1000)}`;
    const line = `{"doc_key":${JSON.stringify(brackets)},"sentences":[["${"{".repeat(100)}"]],"clusters":[[[0,0]]]}`;
    expect(readJsonLines(line, "t.jsonl").documents[0].name).toBe(brackets);
  });

  it("rejects nesting 10,000 and 1,000,000 levels deep with a FormatError, never a RangeError", () => {
    for (const depth of [10_000, 1_000_000]) {
      // The crash of issue 8: a mention nested deeply (JSON.stringify of it overflowed the stack).
      const mention = `{"doc_key":"a","sentences":[["w"]],"clusters":[[${nested(depth)}]]}`;
      const e = formatError(() => readJsonLines(`${docLine("ok", [], [])}\n${mention}\n`, "t.jsonl"));
      // Level 1 is the object and levels 2-3 are `clusters` and its cluster: column = their 2 + 62 nested + 1.
      expect([e.line, e.column]).toEqual([2, mention.indexOf("[[[") + MAX_JSON_DEPTH]);
      // Deep in an ignored field, unterminated, and at the top level.
      for (const text of [`{"doc_key":"a","x":${nested(depth, '{"k":', "}")}}`, "[".repeat(depth), nested(depth)]) {
        expect(formatError(() => readJsonLines(text, "t.jsonl")).expected).toBe(`arrays and objects nested at most ${MAX_JSON_DEPTH} levels deep`);
      }
    }
  });
});

describe("readJsonLines: properties", () => {
  it("returns a Corpus or throws a FormatError on any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        try {
          expect(Array.isArray(readJsonLines(bytes, "random.jsonl").documents)).toBe(true);
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("returns a Corpus or throws a FormatError on any JSON values, one per line", () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.record({ doc_key: fc.jsonValue(), sentences: fc.jsonValue(), clusters: fc.jsonValue() }),
      fc.record({
        doc_key: fc.string(),
        sentences: fc.array(fc.array(fc.string(), { maxLength: 4 }), { maxLength: 4 }),
        clusters: fc.array(fc.array(fc.array(fc.integer({ min: -1, max: 8 }), { maxLength: 3 }), { maxLength: 3 }), { maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), fc.boolean(), (values, pretty) => {
        const text = values.map((v) => JSON.stringify(v, null, pretty ? 1 : undefined).replace(/\n/g, " ")).join("\n");
        try {
          readJsonLines(text, "random.jsonl");
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
          const lines = text.split("\n");
          expect(err.line).toBeGreaterThanOrEqual(1);
          expect(err.column).toBeGreaterThanOrEqual(1);
          expect(err.column).toBeLessThanOrEqual(lines[err.line - 1].length + 1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("points at the offending mention wherever it is", () => {
    const doc = fc.record({
      sentences: fc.array(fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
      clusters: fc.array(fc.array(fc.constant([0, 0]), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      pick: fc.nat(),
      spaced: fc.boolean(),
    });
    fc.assert(
      fc.property(doc, ({ sentences, clusters, pick, spaced }) => {
        const all = clusters.flatMap((c, i) => c.map((_, j) => [i, j] as const));
        const [ci, mi] = all[pick % all.length];
        const marked: unknown[][] = clusters.map((c) => [...c]);
        marked[ci][mi] = "BADMENTION"; // longer than any token, so found only here
        const layout = (v: unknown) => JSON.stringify(v, null, spaced ? 1 : undefined).replace(/\n/g, " ");
        const withMark = layout({ sentences, doc_key: "[7, 6]", clusters: marked });
        const line = withMark.replace('"BADMENTION"', layout([7, 6])); // start > end
        const e = formatError(() => readJsonLines(line, "t.jsonl"));
        expect(e.expected).toBe(`mention ${mi} of cluster ${ci} with start <= end`);
        expect(e.column).toBe(withMark.indexOf('"BADMENTION"') + 1);
        expect(line.charAt(e.column - 1)).toBe("[");
      }),
      { numRuns: 300 },
    );
  });
});

describe("readCorpus and detectFormat (index.ts)", () => {
  it("picks the format from the file extension", () => {
    const cases: [string, string][] = [
      ["a.conllu", "conllu"],
      ["dir/A.CONLLU", "conllu"],
      ["a.jsonl", "jsonlines"],
      ["a.jsonlines", "jsonlines"],
      ["a.json", "jsonlines"],
      ["a.conll", "conll2012"],
      ["a.v4_gold_conll", "conll2012"],
      ["a.conllu.txt", "conll2012"],
      ["key", "conll2012"],
    ];
    expect(cases.map(([f]) => [f, detectFormat(f)])).toEqual(cases);
  });

  it("reads with the reader of the explicit format, else of the extension, and passes the limits on", () => {
    const conll = "#begin document (d); part 0\nd 0 0 a (1)\n#end document\n";
    const conllu = "# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\t_\t_\tEntity=(1-x)\n";
    const jsonl = docLine("d", [["a"]], [[[0, 0]]]);
    const expected = { name: "d", tokens: ["a"], entities: [[[0, 0]]] };
    expect(readCorpus(conll, "k.conll").documents[0]).toMatchObject({ id: "d/part 0", ...expected });
    expect(readCorpus(conllu, "k.conllu").documents[0]).toMatchObject({ id: "d", ...expected });
    expect(readCorpus(jsonl, "k.jsonl").documents[0]).toMatchObject({ id: "d", ...expected });
    expect(readCorpus(conllu, "k.txt", { format: "conllu" }).documents[0]).toMatchObject({ id: "d", ...expected });
    expect(readCorpus(jsonl, "k.conll", { format: "jsonlines" }).documents[0]).toMatchObject({ id: "d", ...expected });
    // The wrong reader for the text: a FormatError, not a silent misreading.
    expect(formatError(() => readCorpus(jsonl, "k.conll")).line).toBe(1);
    expect(formatError(() => readCorpus(conllu, "k.jsonl")).found).toContain("invalid JSON");
    const limited = formatError(() => readCorpus(conllu, "k.conllu", { limits: { maxMentionsPerDocument: 0 } }));
    expect(limited.expected).toBe("at most 0 mentions in one document");
  });
});

const root = dataDir();
const litbankDir = root === null ? null : join(root, "litbank-demo", "conll");
// Skipped only without a data folder: a configured folder without the files fails the test.
const haveLitbank = litbankDir !== null;
if (!haveLitbank) console.log(`skipping the LitBank round trip: dataDir() found no data folder (set COREFBOARD_DATA_DIR)`);

describe("readJsonLines: round trip", () => {
  it.skipIf(!haveLitbank)("gives the CoNLL-2012 reading of the LitBank demo files back", () => {
    const files = readdirSync(litbankDir!).filter((f) => f.endsWith(".conll")).sort();
    expect(files).toHaveLength(10);
    const conll: Document[] = files.flatMap((f) => readConll2012(readFileSync(join(litbankDir!, f)), f).documents);
    const lines = conll.map((d) => {
      const ends = [...d.sentenceStarts.slice(1), d.tokens.length];
      const sentences = d.sentenceStarts.map((s, i) => d.tokens.slice(s, ends[i]));
      return JSON.stringify({ doc_key: d.id, sentences, clusters: d.entities });
    });
    const corpus = readJsonLines(lines.join("\n") + "\n", "litbank.jsonlines");
    expect(corpus.documents).toHaveLength(10);
    expect(corpus.documents.map((d) => d.entities)).toEqual(conll.map((d) => d.entities));
    expect(corpus.documents.map((d) => [d.id, d.tokens, d.sentenceStarts])).toEqual(conll.map((d) => [d.id, d.tokens, d.sentenceStarts]));
    // The README's counts, so that the comparison is not between two empty readings.
    const mentions = corpus.documents.reduce((n, d) => n + d.entities.reduce((m, e) => m + e.length, 0), 0);
    const entities = corpus.documents.reduce((n, d) => n + d.entities.length, 0);
    const tokens = corpus.documents.reduce((n, d) => n + d.tokens.length, 0);
    expect({ tokens, mentions, entities }).toEqual({ tokens: 20_638, mentions: 2_832, entities: 807 });
  });
});
