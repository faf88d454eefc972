/**
 * The site's one CSV writer: the formula guard (every trigger character, the full-width ones,
 * numbers left alone, text that only looks like a number guarded), RFC 4180 quoting, line ends,
 * and ordinary content written byte for byte as before the guard existed.
 */
import { describe, expect, it } from "vitest";
import { csvText } from "./csv";

/** The one cell of a one-record CSV, as written (quotes included). */
const cell = (value: string | number | null | undefined) => csvText([[value]]).slice(0, -2);

describe("csvText formula guard", () => {
  it.each([
    ["=", "=1+2", "'=1+2"],
    ["+", "+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ["-", "-2+3", "'-2+3"],
    ["@", "@SUM(1)", "'@SUM(1)"],
    ["tab", "\t=1", "'\t=1"],
    ["full-width =", "＝1+2", "'＝1+2"],
    ["full-width +", "＋1", "'＋1"],
    ["full-width -", "－1", "'－1"],
    ["full-width @", "＠SUM(1)", "'＠SUM(1)"],
  ])("prefixes an apostrophe to a text cell starting with %s", (_name, input, output) => {
    expect(cell(input)).toBe(output);
  });

  it("guards a leading carriage return and then quotes the cell (it holds a line break)", () => {
    expect(cell("\r=1")).toBe("\"'\r=1\"");
  });

  it("guards and quotes a cell that needs both", () => {
    expect(cell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(cell("@a,b")).toBe(`"'@a,b"`);
  });

  it("leaves numbers alone, negative ones included, but guards text that only reads as a number", () => {
    expect(csvText([[-0.5, -1, 0, 1e-7, -1e21, 0.1 + 0.2]])).toBe("-0.5,-1,0,1e-7,-1e+21,0.30000000000000004\r\n");
    expect(cell("-0.5")).toBe("'-0.5");
    expect(cell("+1")).toBe("'+1");
  });

  it("does not touch a trigger character that is not the first one, nor other leading characters", () => {
    for (const text of ["a=b", "1-2", "x@y.org", " =1", "'=1", "\u2212minus", "#REF", "", "Équipe"]) expect(cell(text), text).toBe(text);
  });
});

describe("csvText format", () => {
  it("ends every record with CRLF by default, LF on request; null and undefined are empty cells", () => {
    expect(csvText([["a", "b"], [1, null, undefined, "c"]])).toBe("a,b\r\n1,,,c\r\n");
    expect(csvText([["a", "b"], [1, null]], "\n")).toBe("a,b\n1,\n");
    expect(csvText([])).toBe("");
  });

  it("quotes only cells holding a comma, a double quote or a line break (quotes doubled)", () => {
    expect(csvText([["sys, v2", 'say "hi"', "two\nlines", "plain", "東京"]])).toBe('"sys, v2","say ""hi""","two\nlines",plain,東京\r\n');
    // Any line break is quoted, whatever the line end (csv-stringify alone would leave a lone \n raw in a CRLF file).
    expect(csvText([["a\rb", "c\r\nd"]])).toBe('"a\rb","c\r\nd"\r\n');
    expect(csvText([["a\rb", "c\nd"]], "\n")).toBe('"a\rb","c\nd"\n');
  });

  it("writes ordinary content byte for byte as the leaderboard and snapshot CSVs did before the guard moved here", () => {
    // The former writer: csv-stringify with record_delimiter "windows" and numbers as String(n)
    // (it differed only for cells with a line break, now always quoted, and formula-like cells).
    const rows = [
      ["rank", "team", "system", "conll_f1", "disqualified"],
      [1, "Team One", "sys, v2", 0.61, null],
      [null, 'Équipe "ünï"', "no break", 1 / 3, "late, sorry"],
    ];
    expect(csvText(rows)).toBe('rank,team,system,conll_f1,disqualified\r\n1,Team One,"sys, v2",0.61,\r\n,"Équipe ""ünï""",no break,0.3333333333333333,"late, sorry"\r\n');
  });
});
