/** Tests for decoding input bytes and iterating over lines (shared by all format readers). */
import { describe, expect, it } from "vitest";
import { formatError } from "../test/format-error.js";
import { byteLines, decodeInput, forEachLine, InputLines, lineAt, locate } from "./text.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

function allLines(text: string): [string, number][] {
  const seen: [string, number][] = [];
  forEachLine(text, (line, n) => {
    seen.push([line, n]);
  });
  return seen;
}

describe("decodeInput", () => {
  it("returns text as given and decodes UTF-8 bytes, 1- to 4-byte sequences included", () => {
    const text = "#begin document (a)\nA\u0080\u07ff\u0800€\uffff😀\u{10ffff}\n";
    expect(decodeInput(text, "f")).toBe(text);
    expect(decodeInput(utf8(text), "f")).toBe(text);
  });

  it("drops exactly one leading byte-order mark, from text and from bytes alike", () => {
    expect(decodeInput("\uFEFFx", "f")).toBe("x");
    expect(decodeInput(bytes([0xef, 0xbb, 0xbf], "x"), "f")).toBe("x");
    // A second mark is content (TextDecoder's default would drop one more).
    expect(decodeInput("\uFEFF\uFEFFx", "f")).toBe("\uFEFFx");
    expect(decodeInput(bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], "x"), "f")).toBe("\uFEFFx");
  });

  it("rejects a NUL at its line and column, counted after the byte-order mark, for text and bytes alike", () => {
    for (const input of ["\uFEFFab\ncd\u0000e", bytes([0xef, 0xbb, 0xbf], "ab\ncd\u0000e")]) {
      const e = formatError(() => decodeInput(input, "bin.dat"));
      expect([e.file, e.line, e.column, e.expected]).toEqual(["bin.dat", 2, 3, "a text file"]);
      expect(e.found).toMatch(/NUL byte/);
      expect(e.message.split("\n")[1]).toBe("  cd\uFFFDe"); // the NUL shown as U+FFFD
    }
  });

  it.each([
    ["a lone continuation byte", [0x80]],
    ["a Latin-1 é", [0xe9, 0x74]],
    ["an overlong 2-byte form", [0xc0, 0x80]],
    ["an overlong 2-byte form (C1)", [0xc1, 0xbf]],
    ["an overlong 3-byte form", [0xe0, 0x80, 0x80]],
    ["an overlong 4-byte form", [0xf0, 0x80, 0x80, 0x80]],
    ["a UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["a lead byte F5", [0xf5, 0x80, 0x80, 0x80]],
    ["the byte FF", [0xff]],
    ["a bad continuation", [0xe2, 0x28, 0xa1]],
    ["a sequence cut by the end of the file", [0xe2, 0x82]],
  ])("rejects %s at the first bad byte", (_name, bad) => {
    const e = formatError(() => decodeInput(bytes("ab\ncd", bad), "latin1.conll"));
    expect([e.file, e.line, e.column, e.expected]).toEqual(["latin1.conll", 2, 3, "UTF-8 text"]);
    expect(e.found).toContain(`0x${bad[0].toString(16).padStart(2, "0")}`);
  });

  it("shows the whole offending line in the excerpt, the bad byte as U+FFFD under the caret", () => {
    const e = formatError(() => decodeInput(bytes("line one\n€ caf", [0xe9], " au lait\nnext"), "f"));
    expect([e.line, e.column]).toEqual([2, 6]);
    const [, text, caret] = e.message.split("\n");
    expect(text).toBe("  € caf\uFFFD au lait");
    expect(text[caret.indexOf("^")]).toBe("\uFFFD");
  });

  it("reports whichever comes first of a NUL and an invalid byte", () => {
    expect(formatError(() => decodeInput(bytes("a", [0], "b", [0xff]), "f")).found).toMatch(/NUL/);
    expect(formatError(() => decodeInput(bytes("a", [0xff], "b", [0]), "f")).found).toMatch(/0xff/);
  });

  it("rejects an empty input and one of white space only at line 1, column 1", () => {
    for (const [input, found] of [
      ["", /empty file/],
      [new Uint8Array(0), /empty file/],
      ["\uFEFF", /empty file/],
      [" \r\n\t\n", /only white space/],
      [utf8("\n\n\u00a0\n"), /only white space/],
    ] as const) {
      const e = formatError(() => decodeInput(input, "f"));
      expect([e.line, e.column]).toEqual([1, 1]);
      expect(e.found).toMatch(found);
    }
  });
});

describe("forEachLine", () => {
  it("gives every line without its line break, numbered from 1", () => {
    expect(allLines("a\nb\r\n\nc")).toEqual([
      ["a", 1],
      ["b", 2],
      ["", 3],
      ["c", 4],
    ]);
  });

  it("does not give an empty line after a final line break, and nothing for empty text", () => {
    expect(allLines("a\n")).toEqual([["a", 1]]);
    expect(allLines("a\r\n")).toEqual([["a", 1]]);
    expect(allLines("\n")).toEqual([["", 1]]);
    expect(allLines("")).toEqual([]);
  });

  it("removes only a `\\r` right before the line break (or the end of the text)", () => {
    expect(allLines("a\rb\r\r\nc\r")).toEqual([
      ["a\rb\r", 1],
      ["c", 2],
    ]);
  });

  it("stops when the visitor returns false", () => {
    const seen: string[] = [];
    forEachLine("a\nb\nc\n", (line) => {
      seen.push(line);
      return line !== "b";
    });
    expect(seen).toEqual(["a", "b"]);
  });
});

describe("InputLines", () => {
  /** What one run of InputLines gives, or the FormatError it throws (as a plain object). */
  const viaInput = (input: string | Uint8Array) => {
    const seen: [string, number][] = [];
    try {
      new InputLines(input, "f.conllu").run((line, n) => {
        seen.push([line, n]);
      });
    } catch (error) {
      return { error: { ...(error as object), message: (error as Error).message } };
    }
    return { lines: seen };
  };
  /** The same by the plain path: decode the whole input, then cut it into lines. */
  const viaText = (input: string | Uint8Array) => {
    try {
      return { lines: allLines(decodeInput(input, "f.conllu")) };
    } catch (error) {
      return { error: { ...(error as object), message: (error as Error).message } };
    }
  };

  it.each([
    ["ASCII only", bytes("1\ta\n2\tb\n")],
    ["non-ASCII words (2-, 3- and 4-byte sequences)", bytes("# text = Åsa “ok” 😀\n1\tÅsa\t_\n2\t“ok”\n\n3\tx\n")],
    ["non-ASCII on the first and the last line, no final line break", bytes("é\nx\ny\n€")],
    ["CRLF line breaks around non-ASCII lines", bytes("a\r\nб\r\n\r\nc€\r\nd\r")],
    ["a line break right after a non-ASCII byte, and one line of non-ASCII only", bytes("ä\n\nöü\n")],
    ["a carriage return inside a non-ASCII line", bytes("x\rÿ\rz\nq\n")],
    ["text given as a string", "a\nб\r\nc"],
    ["a byte-order mark", bytes([0xef, 0xbb, 0xbf], "é\nx\n")],
    ["invalid UTF-8 in a later line", bytes("ab\ncé\nd", [0xe9], "x\n")],
    ["a sequence cut by the end of the file", bytes("ab\ncd", [0xe2, 0x82])],
    ["a NUL byte", bytes("ab\ncé\u0000e\n")],
    ["a NUL after an invalid byte", bytes("a", [0xff], "\n\u0000")],
    ["white space only, some of it non-ASCII", bytes("\u3000 \n\u00a0\t\n")],
    ["an empty input", bytes("")],
    ["non-ASCII letters only", bytes("ä\nö")],
  ])("gives exactly the lines and errors of decoding the whole input: %s", (_name, input) => {
    expect(viaInput(input)).toEqual(viaText(input));
  });

  it("decodes only the lines with non-ASCII bytes, and leaves unusual input to the plain path", () => {
    expect(byteLines(bytes("1\tab\n2\tä\r\n3\t€😀\n"))).toEqual({ latin: "1\tab\n2\tÃ¤\r\n3\tâ\u0082¬ð\u009f\u0098\u0080\n", starts: [5, 11], texts: ["2\tä", "3\t€😀"] });
    expect(byteLines(bytes("1\tab\n"))).toEqual({ latin: "1\tab\n", starts: [], texts: [] });
    expect(byteLines(bytes([0xef, 0xbb, 0xbf], "x"))).toBeNull();
    expect(byteLines(bytes("a\u0000"))).toBeNull();
    expect(byteLines(bytes("a\n", [0xe9]))).toBeNull();
    expect(byteLines(bytes(" \u3000\n"))).toBeNull();
  });

  it("stops when the visitor returns false", () => {
    const seen: number[] = [];
    new InputLines(bytes("a\nä\nc\n"), "f").run((_line, n) => {
      seen.push(n);
      return n < 2;
    });
    expect(seen).toEqual([1, 2]);
  });
});

describe("locate and lineAt", () => {
  it("locates an offset as 1-based line and column with that line's text (no line break)", () => {
    const text = "ab\r\ncdef\ng";
    expect(locate(text, 0)).toEqual({ line: 1, column: 1, lineText: "ab" });
    expect(locate(text, 6)).toEqual({ line: 2, column: 3, lineText: "cdef" });
    expect(locate(text, 9)).toEqual({ line: 3, column: 1, lineText: "g" });
    expect(locate(text, 10)).toEqual({ line: 3, column: 2, lineText: "g" }); // just past the end
  });

  it("keeps a long line from its start (so the column indexes it) but cuts its far tail", () => {
    const line = "x".repeat(100_000);
    const { column, lineText } = locate(`first\n${line}`, 6 + 50_000);
    expect(column).toBe(50_001);
    expect(lineText.length).toBe(50_000 + 4096);
  });

  it("gives the text of a line by number, or an empty string past the end", () => {
    const text = "one\r\ntwo\n\nfour";
    expect([1, 2, 3, 4, 5].map((n) => lineAt(text, n))).toEqual(["one", "two", "", "four", ""]);
  });
});
