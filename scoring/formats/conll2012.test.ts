/**
 * Tests for the CoNLL-2012 reader: what real files contain, what broken files must be
 * rejected with (file, line, column, expected, found), hostile inputs, and the real corpora
 * when they are present (see `scoring/test/data-dir.ts`).
 *
 * Time targets (how fast a 10 MB line or a million tokens must be read) are checked by the
 * benchmarks, not here: the timeouts below only stop a hang from blocking the suite.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError, type Corpus, type Document } from "../types.js";
import { dataDir } from "../test/data-dir.js";
import { formatError } from "../test/format-error.js";
import { readConll2012 } from "./conll2012.js";
import type { ReadLimits } from "./limits.js";

const FILE = "test.conll";

/** Joins lines with `\n` and a final newline. */
function lines(...rows: string[]): string {
  return rows.join("\n") + "\n";
}

/** A 2-column token line `WORD<tab>CELL`. */
function tok(cell: string, word = "w"): string {
  return `${word}\t${cell}`;
}

/** A one-document file with a named header around `rows`. */
function docFile(rows: string[], header = "#begin document (d); part 0"): string {
  return lines(header, ...rows, "#end document");
}

function read(input: string | Uint8Array, limits?: ReadLimits): Corpus {
  return readConll2012(input, FILE, limits);
}

/** Reads a one-document file and returns that document. */
function only(input: string | Uint8Array): Document {
  const corpus = read(input);
  expect(corpus.documents).toHaveLength(1);
  return corpus.documents[0];
}

/** A 13-column LitBank line: lines without a mention end in a tab (empty last column). */
function litbank(doc: string, index: number, word: string, coref: string): string {
  return [doc, "0", String(index), word, "_", "_", "_", "_", "_", "_", "_", "_", coref].join("\t");
}

interface Expected {
  line: number;
  column: number;
  expected?: RegExp;
  found?: RegExp;
  file?: string;
}

/** Runs `run`, which must throw a FormatError at exactly `want`; returns the error. */
function expectFormatError(run: () => unknown, want: Expected): FormatError {
  const error = formatError(run);
  expect({ file: error.file, line: error.line, column: error.column }).toEqual({
    file: want.file ?? FILE,
    line: want.line,
    column: want.column,
  });
  if (want.expected) expect(error.expected).toMatch(want.expected);
  if (want.found) expect(error.found).toMatch(want.found);
  expect(error.message.startsWith(`${error.file}:${want.line}:${want.column}: expected `)).toBe(true);
  return error;
}

/** The excerpt lines of an error message: the (cut) source line and the caret line. */
function excerptOf(error: FormatError): { text: string; caret: number } {
  const [, text, caretLine] = error.message.split("\n");
  expect(text).toBeDefined();
  expect(caretLine).toMatch(/^ *\^$/);
  return { text, caret: caretLine.indexOf("^") };
}

/** Checks the invariants every successfully read corpus must satisfy. */
function checkCorpus(corpus: Corpus): void {
  const ids = new Set<string>();
  for (const doc of corpus.documents) {
    expect(ids.has(doc.id)).toBe(false);
    ids.add(doc.id);
    const n = doc.tokens.length;
    if (n > 0) expect(doc.sentenceStarts[0]).toBe(0);
    for (let i = 1; i < doc.sentenceStarts.length; i++) {
      expect(doc.sentenceStarts[i]).toBeGreaterThan(doc.sentenceStarts[i - 1]);
    }
    for (const entity of doc.entities) {
      expect(entity.length).toBeGreaterThan(0);
      for (const [start, end] of entity) {
        expect(Number.isInteger(start) && start >= 0 && start <= end && end < n).toBe(true);
      }
    }
  }
}

describe("readConll2012: layouts found in real files", () => {
  it("reads LitBank-style 13-column lines, where an empty last column (a trailing tab) means no mention", () => {
    const text = lines(
      "#begin document (lit); part 0",
      litbank("lit", 0, "Her", "(1|(2)"),
      litbank("lit", 1, "sister", "1)"),
      litbank("lit", 2, "smiled", ""),
      litbank("lit", 3, ".", ""),
      "",
      litbank("lit", 0, "She", "(1)"),
      litbank("lit", 1, "left", ""),
      "#end document",
    );
    expect(text).toContain("_\t\n"); // the fixture really has lines ending in a tab
    const corpus = read(text);
    expect(corpus.file).toBe(FILE);
    expect(corpus.warnings).toEqual([]);
    expect(corpus.documents).toEqual([
      {
        id: "lit/part 0",
        name: "lit",
        part: 0,
        tokens: ["Her", "sister", "smiled", ".", "She", "left"],
        sentenceStarts: [0, 4],
        // (2) is a one-token item, so chain 2 is numbered before chain 1 opened on the same line.
        entities: [[[0, 0]], [[0, 1], [4, 4]]],
        line: 1,
      },
    ]);
  });

  it("reads the full 12-column CoNLL-2012 layout with parse bits and named entities", () => {
    const row = (i: number, word: string, coref: string) =>
      ["Nescio", "0", String(i), word, "N[eigen]", i === 0 ? "(TOP*" : "*)", "-", "-", "-", "-", "(PER)", coref].join("\t");
    const doc = only(lines("#begin document (Nescio); part 000", row(0, "Dichtertje", "(504)"), row(1, ".", "-"), "#end document"));
    expect(doc.id).toBe("Nescio/part 0");
    expect(doc.tokens).toEqual(["Dichtertje", "."]);
    expect(doc.entities).toEqual([[[0, 0]]]);
  });

  it("gives `part 0` and `part 000` the same document id, `NAME/part 0`", () => {
    const a = only(docFile([tok("-")], "#begin document (bc/cnn/00/cnn_0000); part 0"));
    const b = only(docFile([tok("-")], "#begin document (bc/cnn/00/cnn_0000); part 000"));
    expect(a.id).toBe("bc/cnn/00/cnn_0000/part 0");
    expect(b.id).toBe(a.id);
    expect([a.part, b.part]).toEqual([0, 0]);
    expect(b.name).toBe("bc/cnn/00/cnn_0000");
    expect(only(docFile([tok("-")], "#begin document (x); part 012")).id).toBe("x/part 12");
  });

  it("reads header variants: no part, no `;`, extra spaces, tabs, and a name without parentheses kept verbatim", () => {
    expect(only(docFile([], "#begin document (x)")).id).toBe("x");
    expect(only(docFile([], "#begin document (x)")).part).toBeNull();
    expect(only(docFile([], "#begin document (x) part 3")).id).toBe("x/part 3");
    expect(only(docFile([], "#begin document\t(x) ;  part\t3  ")).id).toBe("x/part 3");
    expect(only(docFile([], "  #  begin document (a (b)); part 1")).id).toBe("a (b)/part 1");
    const verbatim = only(docFile([], "#begin document plain-name; part 2"));
    expect([verbatim.id, verbatim.name, verbatim.part]).toEqual(["plain-name; part 2", "plain-name; part 2", null]);
  });

  it("accepts CRLF line ends and reads exactly what the LF file gives", () => {
    const rows = ["#begin document (d); part 0", tok("(1", "A"), tok("1)", "B"), "", tok("(1)", "C"), "#end document"];
    const lf = read(rows.join("\n") + "\n");
    const crlf = read(rows.join("\r\n") + "\r\n");
    expect(crlf).toEqual(lf);
    expect(crlf.documents[0].tokens).toEqual(["A", "B", "C"]); // no "\r" left on the last cell or word
    expect(crlf.documents[0].sentenceStarts).toEqual([0, 2]);
    expect(crlf.documents[0].entities).toEqual([[[0, 1], [2, 2]]]);
  });

  it("names documents without a name `unnamed document N` (by position) and warns", () => {
    // OntoGUM: `# begin document ` with a space after `#` and nothing after the space.
    const doc = lines(
      "# begin document ",
      "0\tEmperor\t(1",
      "1\tNorton\t1)",
      "2\the\t(1)",
      "# end document",
    );
    const corpus = read(doc + doc.replace("# begin document ", "# begin document"));
    expect(corpus.documents.map((d) => [d.id, d.name, d.part, d.line])).toEqual([
      ["unnamed document 1", "unnamed document 1", null, 1],
      ["unnamed document 2", "unnamed document 2", null, 6],
    ]);
    expect(corpus.documents[0].tokens).toEqual(["Emperor", "Norton", "he"]);
    expect(corpus.documents[0].entities).toEqual([[[0, 1], [2, 2]]]);
    expect(corpus.warnings.map((w) => [w.code, w.line, w.document, w.file])).toEqual([
      ["unnamed-document", 1, "unnamed document 1", FILE],
      ["unnamed-document", 6, "unnamed document 2", FILE],
    ]);
    expect(corpus.warnings[0].message).toContain("unnamed document 1");
    // Empty parentheses are no name either.
    const empty = read(docFile([], "#begin document (); part 0"));
    expect(empty.documents[0].id).toBe("unnamed document 1/part 0");
    expect(empty.warnings.map((w) => w.code)).toEqual(["unnamed-document"]);
  });

  it("reads items written back to back without `|`: `(1(3`, `3)(7)`, `3)1)`, `(2(1)`", () => {
    const a = only(docFile([tok("(1(3"), tok("3)(7)"), tok("1)")]));
    // Chains 1 and 3 open on token 0 (entities 0, 1); 3 ends and (7) is a one-token mention on token 1.
    expect(a.entities).toEqual([[[0, 2]], [[0, 1]], [[1, 1]]]);

    const b = only(docFile([tok("(1"), tok("(3"), tok("3)1)")]));
    expect(b.entities).toEqual([[[0, 2]], [[1, 2]]]);

    // OntoGUM's `(2(1)`: the one-token item (1) is numbered before the opening (2.
    const c = only(docFile([tok("(2(1)"), tok("2)")]));
    expect(c.entities).toEqual([[[0, 0]], [[0, 1]]]);
  });

  it("numbers entities by first sight of their chain id, one-token items of a line before its opening items", () => {
    const doc = only(docFile([tok("(9"), tok("(5|(4)|9)"), tok("5)|(9)")]));
    // Line 1: chain 9 -> entity 0. Line 2: (4) is one-token -> entity 1, then (5 -> entity 2.
    expect(doc.entities).toEqual([
      [[0, 1], [2, 2]],
      [[1, 1]],
      [[1, 2]],
    ]);
  });

  it("pairs items of one line in written order: `5)|(5` ends the open mention and starts a new one", () => {
    const doc = only(docFile([tok("(5"), tok("5)|(5"), tok("5)")]));
    expect(doc.entities).toEqual([[[0, 1], [1, 2]]]);
  });

  it("reads nested mentions, including nested mentions of one chain (an end closes the most recent open)", () => {
    const doc = only(docFile([tok("(1|(2)"), tok("(3"), tok("3)|1)")]));
    expect(doc.entities).toEqual([[[0, 0]], [[0, 2]], [[1, 2]]]);
    const same = only(docFile([tok("(1"), tok("(1"), tok("1)"), tok("1)")]));
    expect(same.entities).toEqual([[[1, 2], [0, 3]]]);
  });

  it("warns `repeated-span-other-entity` for one span in two entities and keeps both copies", () => {
    const corpus = read(docFile([tok("-"), tok("(1)|(2)")]));
    expect(corpus.documents[0].entities).toEqual([[[1, 1]], [[1, 1]]]);
    expect(corpus.warnings.map((w) => [w.code, w.line, w.document])).toEqual([["repeated-span-other-entity", 3, "d/part 0"]]);
    expect(corpus.warnings[0].message).toContain("1 span(s)");
    // A multi-token span in two entities.
    const multi = read(docFile([tok("(1|(2"), tok("1)|2)")]));
    expect(multi.warnings.map((w) => [w.code, w.line])).toEqual([["repeated-span-other-entity", 3]]);
    expect(multi.warnings[0].message).toContain("tokens 0-1");
  });

  it("warns `repeated-span-same-entity` for one span twice in one entity", () => {
    const corpus = read(docFile([tok("(1)|(1)")]));
    expect(corpus.documents[0].entities).toEqual([[[0, 0], [0, 0]]]);
    expect(corpus.warnings.map((w) => [w.code, w.line])).toEqual([["repeated-span-same-entity", 2]]);
    const multi = read(docFile([tok("(1|(1"), tok("-"), tok("1)|1)")]));
    expect(multi.documents[0].entities).toEqual([[[0, 2], [0, 2]]]);
    expect(multi.warnings.map((w) => w.code)).toEqual(["repeated-span-same-entity"]);
  });

  it("tells both repeat kinds apart when a span is in entity A, then twice in entity B", () => {
    const corpus = read(docFile([tok("(1)|(2)|(2)")]));
    expect(corpus.warnings.map((w) => w.code).sort()).toEqual(["repeated-span-other-entity", "repeated-span-same-entity"]);
  });

  it("does not call spans repeated when they only share a start or an end", () => {
    const corpus = read(docFile([tok("(1|(2)"), tok("1)|(3"), tok("3)")]));
    expect(corpus.warnings).toEqual([]);
  });

  it("discards split antecedents `(1+2)` with one warning per document and keeps the other items", () => {
    const corpus = read(docFile([tok("(1+2)|(3)"), tok("(4+5)")]));
    expect(corpus.documents[0].entities).toEqual([[[0, 0]]]);
    expect(corpus.warnings.map((w) => [w.code, w.line, w.document])).toEqual([["split-antecedent-discarded", 1, "d/part 0"]]);
    expect(corpus.warnings[0].message).toContain("2 split-antecedent item(s)");
  });

  it("takes the coreference from the last column and the word from column 4 (or the one before the last) for 2 to 13 columns", () => {
    for (let n = 2; n <= 13; n++) {
      const cells = Array.from({ length: n - 1 }, (_, k) => `c${k + 1}`);
      const word = n >= 5 ? "c4" : `c${n - 1}`;
      for (const separator of ["\t", " ", "   "]) {
        const doc = only(docFile([[...cells, "(1"].join(separator), [...cells, "1)"].join(separator)]));
        expect(doc.tokens, `${n} columns, separator ${JSON.stringify(separator)}`).toEqual([word, word]);
        expect(doc.entities).toEqual([[[0, 1]]]);
      }
    }
  });

  it("reads space-separated lines with leading and trailing spaces", () => {
    const doc = only(docFile(["   d  0  0  Word  (1)   ", "d 0 1 more -"]));
    expect(doc.tokens).toEqual(["Word", "more"]);
    expect(doc.entities).toEqual([[[0, 0]]]);
  });

  it("reads `-`, `_` and an empty last column as no mention", () => {
    const doc = only(docFile([tok("-"), tok("_"), tok(""), "w x -", "w x _", tok(" - ")]));
    expect(doc.tokens).toHaveLength(6);
    expect(doc.entities).toEqual([]);
  });

  it("reads several documents, each with its own token indices, and skips comments and extra blank lines", () => {
    const corpus = read(
      lines(
        "# a comment before the first document",
        "#begin document (a); part 0",
        tok("(1)", "x"),
        "",
        "",
        "# a comment inside a document does not break the sentence",
        tok("-", "y"),
        tok("(1)", "z"),
        "#end document",
        "",
        "#begin document (a); part 1",
        tok("(7", "p"),
        tok("7)", "q"),
        "#end document",
        "#begin document (empty); part 0",
        "#end document",
      ),
    );
    expect(corpus.documents.map((d) => [d.id, d.line, d.tokens, d.sentenceStarts, d.entities])).toEqual([
      ["a/part 0", 2, ["x", "y", "z"], [0, 1], [[[0, 0], [2, 2]]]],
      ["a/part 1", 11, ["p", "q"], [0], [[[0, 1]]]],
      ["empty/part 0", 15, [], [], []],
    ]);
  });

  it("reads bytes like text, and drops a byte-order mark from either", () => {
    const text = docFile([tok("(1)", "é"), tok("-", "😀")]);
    const fromText = read(text);
    expect(read(new TextEncoder().encode(text))).toEqual(fromText);
    expect(read("\uFEFF" + text)).toEqual(fromText);
    expect(read(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toEqual(fromText);
    expect(fromText.documents[0].tokens).toEqual(["é", "😀"]);
  });

  it("keeps reading a header holding a line separator U+2028 as a header", () => {
    expect(only(docFile([tok("-")], "#begin document (a\u2028b); part 0")).id).toBe("a\u2028b/part 0");
  });
});

describe("readConll2012: broken files are rejected with the right place", () => {
  it("points at the `(N` of a mention that is never closed", () => {
    expectFormatError(() => read(docFile([tok("-"), tok("(1"), tok("(2)")])), {
      line: 3,
      column: 3,
      expected: /'1\)'.*before '#end document' at line 5/,
      found: /'\(1' that is never closed/,
    });
    // Space-separated columns: the `(` is the 11th character.
    expectFormatError(() => read(docFile(["d 0 0 w - (7"])), { line: 2, column: 11, found: /\(7/ });
  });

  it("points at the first unclosed mention in the file, not the first chain id seen", () => {
    // Chain 1 is seen first (line 2) and its later mention (line 5) is unclosed, but chain 2's
    // open on line 4 comes first.
    expectFormatError(() => read(docFile([tok("(1"), tok("1)"), tok("(2"), tok("(1")])), {
      line: 4,
      column: 3,
      found: /'\(2'/,
    });
    // Same chain nested: the outer open is the one left (the end closed the inner one).
    expectFormatError(() => read(docFile([tok("(1"), tok("(1"), tok("1)")])), { line: 2, column: 3 });
    // Two opens on one line: the leftmost.
    expectFormatError(() => read(docFile([tok("(3(2")])), { line: 2, column: 3, found: /'\(3'/ });
  });

  it("points at an end `N)` with no open mention", () => {
    expectFormatError(() => read(docFile([tok("(1)|2)")])), {
      line: 2,
      column: 7,
      expected: /opened with '\(2'/,
      found: /'2\)' with no open mention of entity 2/,
    });
    // After its only open was closed.
    expectFormatError(() => read(docFile([tok("(4"), tok("4)4)")])), { line: 3, column: 5 });
    // Same columns in a CRLF file.
    expectFormatError(() => read(docFile([tok("(1)|2)")]).replace(/\n/g, "\r\n")), { line: 2, column: 7 });
  });

  it("points at a chain item whose id is not a number", () => {
    const item = /chain item.*numeric chain id/;
    expectFormatError(() => read(docFile([tok("(abc")])), { line: 2, column: 3, expected: item, found: /^"\(abc"$/ });
    expectFormatError(() => read(docFile([tok("(2)|(1a)")])), { line: 2, column: 7, expected: item, found: /^"\(1a\)"$/ });
    expectFormatError(() => read(docFile([tok("(1+2")])), { line: 2, column: 3, found: /^"\(1\+2"$/ });
    expectFormatError(() => read(docFile([tok("(1)x|(2)")])), { line: 2, column: 6, found: /^"x"$/ });
    expectFormatError(() => read(docFile([tok("12a)")])), { line: 2, column: 3, found: /^"12a\)"$/ });
    expectFormatError(() => read(docFile([tok("()")])), { line: 2, column: 3 });
    expectFormatError(() => read(docFile(["d 0 0 w  -   (x)"])), { line: 2, column: 14, found: /^"\(x\)"$/ });
    // A syntax error later on the line wins over a pairing error earlier on it.
    expectFormatError(() => read(docFile([tok("3)|(z)")])), { line: 2, column: 6 });
  });

  it("rejects `#begin document` inside a document", () => {
    expectFormatError(() => read(lines("#begin document (a); part 0", tok("-"), "  #begin document (b); part 0", "#end document")), {
      line: 3,
      column: 3,
      expected: /'#end document' for the document begun at line 1/,
      found: /another '#begin document'/,
    });
  });

  it("rejects a file that ends inside a document, pointing just past the last line", () => {
    expectFormatError(() => read(lines("#begin document (a); part 0", tok("(1)"))), {
      line: 2,
      column: 6,
      expected: /'#end document' for the document "a" begun at line 1/,
      found: /the end of the file/,
    });
    expectFormatError(() => read("#begin document (a); part 0\nw\t-"), { line: 2, column: 4 });
  });

  it("rejects `#end document` outside a document", () => {
    expectFormatError(() => read(lines("#begin document (a)", tok("-"), "#end document", "#end document")), {
      line: 4,
      column: 1,
      found: /'#end document' outside any document/,
    });
  });

  it("rejects a token line before any `#begin document` (or between documents)", () => {
    expectFormatError(() => read(lines("# a comment", "  w\t(1)", "#begin document (a)", "#end document")), {
      line: 2,
      column: 3,
      expected: /'#begin document' line before the first token/,
      found: /token line "w\\t\(1\)"/,
    });
    expectFormatError(() => read(lines("#begin document (a)", "#end document", "stray -")), { line: 3, column: 1 });
  });

  it("rejects a file with no document at all", () => {
    expectFormatError(() => read(lines("# only", "# comments")), { line: 2, column: 1, found: /no document/ });
  });

  it("rejects a binary file (a NUL byte), given as text or bytes", () => {
    const text = lines("#begin document (a)", tok("-"), "ab\u0000cd", "#end document");
    expectFormatError(() => read(text), { line: 3, column: 3, expected: /a text file/, found: /NUL byte/ });
    expectFormatError(() => read(new TextEncoder().encode(text)), { line: 3, column: 3, found: /NUL byte/ });
    // Columns count characters, not bytes: "éé" is four bytes.
    expectFormatError(() => read(new TextEncoder().encode("#begin document (a)\néé\u0000")), { line: 2, column: 3 });
    // A real binary header, PNG: rejected at its first byte, 0x89, which is not UTF-8.
    expectFormatError(() => read(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])), { line: 1, column: 1 });
  });

  it("rejects bytes that are not UTF-8 (a Latin-1 file) at the first bad byte", () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode("#begin document (a)\ncaf"), 0xe9, ...new TextEncoder().encode("\t-\n#end document\n")]);
    const error = expectFormatError(() => read(latin1), {
      line: 2,
      column: 4,
      expected: /UTF-8 text/,
      found: /0xe9.*not valid UTF-8/,
    });
    const { text, caret } = excerptOf(error);
    expect(text).toBe("  caf\uFFFD -"); // the whole line, the bad byte shown as U+FFFD, the tab as a space
    expect(text[caret]).toBe("\uFFFD");
  });

  it("rejects an empty file and a file of white space only", () => {
    expectFormatError(() => read(""), { line: 1, column: 1, found: /an empty file/ });
    expectFormatError(() => read(new Uint8Array(0)), { line: 1, column: 1, found: /an empty file/ });
    expectFormatError(() => read("\uFEFF"), { line: 1, column: 1, found: /an empty file/ });
    expectFormatError(() => read(" \n\t\r\n\n"), { line: 1, column: 1, found: /only white space/ });
  });

  it("rejects a document name used twice in one file (`part 0` and `part 000` are the same)", () => {
    const twice = lines("#begin document (a); part 0", "#end document", "#begin document (b); part 0", "#end document", " #begin document (a); part 000", "#end document");
    expectFormatError(() => read(twice), {
      line: 5,
      column: 2,
      expected: /a document name not used earlier/,
      found: /"a\/part 0" again \(first begun at line 1\)/,
    });
    // Different parts of one name are different documents.
    expect(read(lines("#begin document (a); part 0", "#end document", "#begin document (a); part 1", "#end document")).documents).toHaveLength(2);
  });

  it("enforces maxDocuments", () => {
    const three = lines(...["a", "b", "c"].flatMap((name) => [`#begin document (${name})`, tok("-"), "#end document"]));
    expect(read(three, { maxDocuments: 3 }).documents).toHaveLength(3);
    expectFormatError(() => read(three, { maxDocuments: 2 }), { line: 7, column: 1, expected: /at most 2 documents/ });
  });

  it("enforces maxTokensPerDocument per document", () => {
    const text = lines("#begin document (a)", tok("-"), tok("-"), "#end document", "#begin document (b)", tok("-"), "", "  w\t-", "#end document");
    expect(read(text, { maxTokensPerDocument: 2 }).documents).toHaveLength(2);
    expectFormatError(() => read(text, { maxTokensPerDocument: 1 }), {
      line: 3,
      column: 1,
      expected: /at most 1 tokens in one document/,
      found: /token 2 of document "a"/,
    });
    const three = text.replace("#end document", `${tok("-")}\n#end document`);
    expectFormatError(() => read(three, { maxTokensPerDocument: 2 }), { line: 4, column: 1, found: /token 3/ });
    // The column is where the token line starts.
    expectFormatError(() => read(text, { maxTokensPerDocument: 1, maxDocuments: 5 }).documents, { line: 3, column: 1 });
    const indented = lines("#begin document (b)", tok("-"), "  w\t-", "#end document");
    expectFormatError(() => read(indented, { maxTokensPerDocument: 1 }), { line: 3, column: 3 });
  });

  it("enforces maxMentionsPerDocument, counting mentions still open", () => {
    const text = docFile([tok("(1)"), tok("(2)"), tok("(3)")]);
    expect(read(text, { maxMentionsPerDocument: 3 }).documents[0].entities).toHaveLength(3);
    expectFormatError(() => read(text, { maxMentionsPerDocument: 2 }), {
      line: 4,
      column: 3,
      expected: /at most 2 mentions in one document/,
      found: /mention 3 of document "d"/,
    });
    // Three opens on one line go over a limit of 2 at the third, before any is closed.
    const opens = docFile([tok("(1(2(3"), tok("3)2)1)")]);
    expect(read(opens, { maxMentionsPerDocument: 3 }).documents[0].entities).toHaveLength(3);
    expectFormatError(() => read(opens, { maxMentionsPerDocument: 2 }), { line: 2, column: 7, found: /mention 3/ });
    // The count is per document.
    const two = docFile([tok("(1)"), tok("(2)")]) + docFile([tok("(1)"), tok("(2)")], "#begin document (e)");
    expect(read(two, { maxMentionsPerDocument: 2 }).documents).toHaveLength(2);
  });

  it("puts the file name, line:column and a caret under the column into the message", () => {
    const error = expectFormatError(() => readConll2012(docFile([tok("(1)|2)")]), "data/key.conll"), {
      file: "data/key.conll",
      line: 2,
      column: 7,
    });
    expect(error.message).toContain("data/key.conll:2:7:");
    const { text, caret } = excerptOf(error);
    expect(text).toBe("  w (1)|2)");
    expect(caret).toBe(2 + 6);
    expect(text.slice(caret, caret + 2)).toBe("2)");
    expect(error.toJSON()).toEqual({
      file: "data/key.conll",
      line: 2,
      column: 7,
      expected: error.expected,
      found: error.found,
      message: error.message.split("\n")[0],
    });
  });

  it("cuts the excerpt of a very long line around the column", () => {
    const cell = "(2)|".repeat(1000) + "(x)" + "|(3)".repeat(1000);
    const error = expectFormatError(() => read(docFile([tok(cell)])), { line: 2, column: 2 + 4000 + 1, found: /^"\(x\)"$/ });
    const { text, caret } = excerptOf(error);
    expect(text.startsWith("  …")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(2 + 1 + 120 + 1);
    expect(text.slice(caret, caret + 3)).toBe("(x)");
  });
});

describe("readConll2012: hostile inputs", () => {
  /**
   * Runs the reader on `input`: it must return a corpus that passes `checkCorpus` or throw a
   * FormatError with a sane place; anything else fails the test. Returns which happened.
   */
  function outcome(input: string | Uint8Array, limits?: ReadLimits): "corpus" | "error" {
    let corpus: Corpus;
    try {
      corpus = readConll2012(input, "fuzz.conll", limits);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      expect(e.file).toBe("fuzz.conll");
      expect(Number.isInteger(e.line) && e.line >= 1).toBe(true);
      expect(Number.isInteger(e.column) && e.column >= 1).toBe(true);
      if (typeof input === "string") expect(e.line).toBeLessThanOrEqual(input.split("\n").length);
      expect(e.message.startsWith(`fuzz.conll:${e.line}:${e.column}: expected ${e.expected}, found ${e.found}`)).toBe(true);
      return "error";
    }
    checkCorpus(corpus);
    return "corpus";
  }

  it("returns a corpus or throws a FormatError for random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        outcome(bytes);
      }),
      { numRuns: 400 },
    );
  });

  it("returns a corpus or throws a FormatError for random text made of format pieces", () => {
    const piece = fc.constantFrom(
      "#begin document (x); part 0\n",
      "# begin document \n",
      "#end document\n",
      "(", ")", "|", "+", "0", "1", "2", "12", "\t", " ", "-", "_", "\n", "\r\n", "a", "w", "#",
    );
    const outcomes = { corpus: 0, error: 0 };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), (pieces) => {
        outcomes[outcome(pieces.join(""))]++;
      }),
      { numRuns: 500 },
    );
    expect(outcomes.error).toBeGreaterThan(0);
  });

  it("reads random well-framed documents with random cells consistently", () => {
    const cell = fc.array(fc.constantFrom("(1", "1)", "(2", "2)", "(3)", "(1)", "(1+2)", "|", "-"), { minLength: 1, maxLength: 4 });
    const documentRows = fc.array(fc.oneof(cell.map((c) => tok(c.join(""))), fc.constant("")), { maxLength: 12 });
    const outcomes = { corpus: 0, error: 0 };
    fc.assert(
      fc.property(fc.array(documentRows, { minLength: 1, maxLength: 3 }), (docs) => {
        const text = docs.map((rows, i) => docFile(rows, `#begin document (doc${i}); part 0`)).join("");
        const result = outcome(text, { maxMentionsPerDocument: 20 });
        outcomes[result]++;
        if (result === "corpus") {
          // Every one-token item and every end makes exactly one mention.
          const corpus = readConll2012(text, "fuzz.conll");
          docs.forEach((rows, i) => {
            const cells = rows.filter((r) => r !== "").map((r) => r.slice(2).replace(/\(\d+\+\d+\)/g, ""));
            const expected = cells.join(" ").match(/\(\d+\)|\d+\)/g)?.length ?? 0;
            const got = corpus.documents[i].entities.reduce((sum, e) => sum + e.length, 0);
            expect(got).toBe(expected);
            expect(corpus.documents[i].tokens).toHaveLength(cells.length);
          });
        }
      }),
      { numRuns: 500 },
    );
    // Both outcomes must actually occur, or this property tests nothing.
    expect(outcomes.corpus).toBeGreaterThan(0);
    expect(outcomes.error).toBeGreaterThan(0);
  });

  const TEN_MB = 10 * 1024 * 1024;

  it("rejects a 10 MB token line outside any document at line 1", { timeout: 30_000 }, () => {
    expectFormatError(() => read("w".repeat(TEN_MB)), { line: 1, column: 1, found: /token line "w{40}…"/ });
    expectFormatError(() => read(" ".repeat(TEN_MB) + "x"), { line: 1, column: TEN_MB + 1 });
  });

  it("rejects a 10 MB coreference cell `(1(1(1...` inside a document", { timeout: 30_000 }, () => {
    const cell = "(1".repeat(TEN_MB / 2);
    const header = "#begin document (big); part 0";
    // No `#end document`: the file ends inside the document, just past the long line.
    expectFormatError(() => read(`${header}\nw ${cell}`), { line: 2, column: 2 + TEN_MB + 1, found: /end of the file/ });
    // With `#end document`: the first `(1` is never closed.
    expectFormatError(() => read(`${header}\nw ${cell}\n#end document\n`), { line: 2, column: 3, found: /never closed/ });
    // With a mention limit the reader stops at the first open over it.
    expectFormatError(() => read(`${header}\nw ${cell}\n#end document\n`, { maxMentionsPerDocument: 1000 }), {
      line: 2,
      column: 3 + 2 * 1000,
      found: /mention 1001/,
    });
  });

  it("keeps no chain items past the mention limit, yet reports the errors that come first as before", () => {
    const limits = { maxMentionsPerDocument: 5 };
    // Over the limit at the 6th '(1', column 3 + 2 * 5.
    expectFormatError(() => read(docFile([tok("(1".repeat(1_000_000))]), limits), { line: 2, column: 3 + 2 * 5, found: /^mention 6 of/ });
    // Open mentions of earlier lines count too.
    expectFormatError(() => read(docFile([tok("(1(2"), tok("(3)|(4(5|(6")]), limits), { line: 3, column: 3 + 9, found: /^mention 6 of/ });
    // A close with nothing open before the limit is reached, and a syntax error anywhere on the line, come first.
    expectFormatError(() => read(docFile([tok("7)" + "(1".repeat(100))]), limits), { line: 2, column: 3, found: /^'7\)' with no open mention/ });
    expectFormatError(() => read(docFile([tok("(1".repeat(100) + "(x")]), limits), { line: 2, column: 3 + 200, found: /^"\(x"$/ });
  });

  it("reads lines with long runs of spaces without slowing down (no regex backtracking)", { timeout: 30_000 }, () => {
    const spaces = " ".repeat(1_000_000);
    // A header whose rest is not `(NAME) part N` is kept verbatim as the name.
    const doc = only(docFile([], `#begin document (a)${spaces}x`));
    expect(doc.name).toBe(`(a)${spaces}x`);
    expect(only(docFile([], `#begin document (a)${spaces};${spaces}part${spaces}7`)).id).toBe("a/part 7");
    // A token line of spaces ending in a non-space: one column, "x" is the coreference cell.
    expectFormatError(() => read(docFile([`w${spaces}x`])), { line: 2, column: 1_000_002, found: /^"x"$/ });
    expect(only(docFile([`w${spaces}(1)${spaces}`])).entities).toEqual([[[0, 0]]]);
  });

  // A mention every few tokens: chain (i % 1000) opens on tokens i ≡ 0 (mod 5) and ends two
  // tokens later; one-token mentions of chains 2000..2006 on tokens i ≡ 3 (mod 5); a blank line
  // after every 20 tokens. The expected counts follow from that by hand.
  it("reads a document of a million tokens", { timeout: 60_000 }, () => {
    const N = 1_000_000;
    const parts: string[] = ["#begin document (million); part 0\n"];
    for (let i = 0; i < N; i++) {
      const k = i % 5;
      const cell = k === 0 ? `(${i % 1000}` : k === 2 ? `${(i - 2) % 1000})` : k === 3 ? `(${(i % 7) + 2000})` : "-";
      parts.push(`t${i}\t${cell}\n`);
      if (i % 20 === 19) parts.push("\n");
    }
    parts.push("#end document\n");
    const corpus = read(parts.join(""));
    expect(corpus.warnings).toEqual([]);
    const doc = corpus.documents[0];
    expect(doc.tokens.length).toBe(N);
    expect(doc.tokens[N - 1]).toBe(`t${N - 1}`);
    expect(doc.sentenceStarts.length).toBe(N / 20);
    expect(doc.sentenceStarts[1]).toBe(20);
    expect(doc.entities.length).toBe(200 + 7);
    expect(doc.entities.reduce((sum, e) => sum + e.length, 0)).toBe(N / 5 + N / 5);
    // Entity 0: chain 0, opened on tokens 0, 1000, 2000, ...
    expect(doc.entities[0].length).toBe(N / 1000);
    expect(doc.entities[0][1]).toEqual([1000, 1002]);
    // Entity 1: chain 2003 (first seen on token 3), on tokens i ≡ 3 (mod 35).
    expect(doc.entities[1].length).toBe(Math.floor((N - 1 - 3) / 35) + 1);
    expect(doc.entities[1][0]).toEqual([3, 3]);
  });
});

// ---------------------------------------------------------------------------------------
// Real corpora: counts from each folder's README.md.

const DATA = dataDir();
if (DATA === null) {
  console.log("skipping real-data tests: no ../shared/data next to the repository; set COREFBOARD_DATA_DIR to the data folder");
}

interface Counts {
  docs: number;
  tokens: number;
  mentions: number;
  entities: number;
  singletons: number;
}

/** Reads every `.conll` file of `folder` (sorted by name) and sums its counts. */
function readFolder(folder: string): { counts: Counts; corpora: Corpus[]; files: string[] } {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith(".conll"))
    .sort();
  const counts: Counts = { docs: 0, tokens: 0, mentions: 0, entities: 0, singletons: 0 };
  const corpora = files.map((f) => readConll2012(readFileSync(join(folder, f)), f));
  for (const corpus of corpora) {
    checkCorpus(corpus);
    for (const doc of corpus.documents) {
      counts.docs++;
      counts.tokens += doc.tokens.length;
      counts.entities += doc.entities.length;
      for (const entity of doc.entities) {
        counts.mentions += entity.length;
        if (entity.length === 1) counts.singletons++;
      }
    }
  }
  return { counts, corpora, files };
}

function warningFiles(corpora: Corpus[], code: string): string[] {
  return corpora.flatMap((c) => c.warnings.filter((w) => w.code === code).map((w) => w.file ?? "")).sort();
}

describe("readConll2012: real corpora", () => {
  const dir = DATA ?? "";

  it.skipIf(DATA === null)("reads LitBank: 100 docs, 210,532 tokens, 29,103 mentions, 7,927 entities, 5,763 singletons", () => {
    const { counts, corpora } = readFolder(join(dir, "litbank/conll"));
    expect(counts).toEqual({ docs: 100, tokens: 210_532, mentions: 29_103, entities: 7_927, singletons: 5_763 });
    expect(corpora.flatMap((c) => c.warnings)).toEqual([]); // no span in two entities, all named
    expect(corpora.every((c) => c.documents[0].id === `${c.documents[0].name}/part 0`)).toBe(true);
  });

  it.skipIf(DATA === null)("reads litbank-demo: 10 docs, 20,638 tokens, 2,832 mentions, 807 entities, 565 singletons; concatenated too", () => {
    const folder = join(dir, "litbank-demo/conll");
    const { counts, files } = readFolder(folder);
    expect(counts).toEqual({ docs: 10, tokens: 20_638, mentions: 2_832, entities: 807, singletons: 565 });
    const all = Buffer.concat(files.map((f) => readFileSync(join(folder, f))));
    const corpus = readConll2012(all, "litbank-demo.conll");
    expect(corpus.documents).toHaveLength(10);
    expect(corpus.documents.reduce((sum, d) => sum + d.entities.reduce((s, e) => s + e.length, 0), 0)).toBe(2_832);
  });

  it.skipIf(DATA === null)("reads OpenBoek: 9 docs, 103,522 tokens, 23,633 mentions, 8,925 entities, 6,638 singletons", () => {
    const { counts, corpora } = readFolder(join(dir, "openboek/coref"));
    expect(counts).toEqual({ docs: 9, tokens: 103_522, mentions: 23_633, entities: 8_925, singletons: 6_638 });
    expect(corpora.flatMap((c) => c.warnings)).toEqual([]);
    // `part 000` gives `/part 0`.
    expect(corpora.map((c) => c.documents[0].id).every((id) => id.endsWith("/part 0"))).toBe(true);
  });

  it.skipIf(DATA === null)("reads OntoGUM: 108 docs, 98,363 tokens, 11,668 mentions, 2,933 entities, 1 singleton, 5 docs with a span in two entities", () => {
    const { counts, corpora } = readFolder(join(dir, "gum/ontogum-conll"));
    expect(counts).toEqual({ docs: 108, tokens: 98_363, mentions: 11_668, entities: 2_933, singletons: 1 });
    expect(warningFiles(corpora, "repeated-span-other-entity")).toEqual([
      "GUM_bio_emperor.conll",
      "GUM_bio_galois.conll",
      "GUM_bio_moreau.conll",
      "GUM_court_property.conll",
      "GUM_interview_chomsky.conll",
    ]);
    expect(warningFiles(corpora, "unnamed-document")).toHaveLength(108);
    const singletonFiles = corpora.filter((c) => c.documents[0].entities.some((e) => e.length === 1)).map((c) => c.file);
    expect(singletonFiles).toEqual(["GUM_interview_cocktail.conll"]);
  });
});

describe("readConll2012 with words: false", () => {
  /** The corpus with every token's word replaced by "" (what `words: false` must give). */
  const withoutWords = (c: Corpus): Corpus => ({ ...c, documents: c.documents.map((d) => ({ ...d, tokens: d.tokens.map(() => "") })) });
  const fixtures = join(__dirname, "..", "test", "fixtures", "reference-scorer", "data");

  it("reads every reference-scorer conformance file exactly as with words, less the words", () => {
    const files = (readdirSync(fixtures, { recursive: true }) as string[]).filter((f) => !f.includes("README") && !/\.(json|md)$/.test(f));
    const texts = files.flatMap((f) => {
      try {
        return [[f, readFileSync(join(fixtures, f), "utf8")] as const];
      } catch {
        return []; // a folder
      }
    });
    expect(texts.length).toBeGreaterThan(130);
    for (const [f, text] of texts) {
      expect(readConll2012(text, f, {}, { words: false }), f).toEqual(withoutWords(readConll2012(text, f)));
    }
  });

  it("keeps token counts, sentences, entities and warnings on mixed layouts (tabs, spaces, 2 to 13 columns, CRLF)", () => {
    const text = [
      "#begin document (a); part 000",
      "a\t0\t0\tThe\tDT\t(NP*\t-\t-\t-\t-\t*\t-\t(1",
      "a\t0\t1\tdog\tNN\t*)\t-\t-\t-\t-\t*\t-\t1)",
      "a\t0\t2\tran\tVB\t*\t-\t-\t-\t-\t*\t-\t",
      "",
      "x  y  It   (1)\r",
      "w\t-",
      "w2\t_",
      "#end document",
      "#begin document (b); part 000",
      "b 0 0 Hi -",
      "b 0 1 there (2)|(2)",
      "#end document",
      "",
    ].join("\n");
    const plain = readConll2012(text, "mixed.conll");
    expect(plain.documents[0].tokens).toEqual(["The", "dog", "ran", "It", "w", "w2"]);
    expect(readConll2012(text, "mixed.conll", {}, { words: false })).toEqual(withoutWords(plain));
  });

  it("gives the same errors", () => {
    const bad = ["#begin document (a); part 000", "a\t0\t0\tw\t-", "a\t0\t1\tx\t(3", "#end document", ""].join("\n");
    expect(() => readConll2012(bad, "bad.conll", {}, { words: false })).toThrow(FormatError);
    let a: unknown;
    let b: unknown;
    try {
      readConll2012(bad, "bad.conll");
    } catch (e) {
      a = (e as FormatError).message;
    }
    try {
      readConll2012(bad, "bad.conll", {}, { words: false });
    } catch (e) {
      b = (e as FormatError).message;
    }
    expect(b).toEqual(a);
    const limited = ["#begin document (a); part 000", "a\t-", "b\t-", "c\t-", "#end document", ""].join("\n");
    expect(() => readConll2012(limited, "l.conll", { maxTokensPerDocument: 2 }, { words: false })).toThrow(/at most 2 tokens/);
  });
});
