/**
 * Blind inputs (issue 24 §3): derived from the repository's gold-key fixtures (the CorefUD
 * scorer's test cases, the CoNLL-2012 reference scorer's) and from a key with every kind of
 * CorefUD coreference annotation. Each test proves that nothing of the key's coreference is
 * left, and that the tokens and sentences are otherwise the key's.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FormatError } from "../types.js";
import { blindConll2012, blindCorefUD, blindInput, corefudCoreferenceAttributes, type BlindOptions } from "./blind.js";
import { readConll2012 } from "./conll2012.js";
import { readCorefUD } from "./conllu.js";

const FIXTURES = fileURLToPath(new URL("../test/fixtures/", import.meta.url));

function keysUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return keysUnder(full);
    return name.endsWith(".key") ? [full] : [];
  });
}

const COREFUD_KEYS = keysUnder(path.join(FIXTURES, "corefud-scorer", "data"));
const CONLL2012_KEYS = keysUnder(path.join(FIXTURES, "reference-scorer", "data"));

/** A key with all three coreference attributes, other MISC items, a multiword token and zeros referenced from DEPS. */
const RICH_KEY = [
  "# newdoc id = doc1",
  "# global.Entity = eid-etype-head-other",
  "# sent_id = s1",
  "# text = Johns saw it",
  "1-2\tJohns\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No",
  "1\tJohn\tJohn\tPROPN\t_\t_\t3\tnsubj\t3:nsubj\tEntity=(e1-person-1-)|SpaceAfter=No",
  "2\ts\t's\tPART\t_\t_\t1\tcase\t1:case\t_",
  "3\tsaw\tsee\tVERB\t_\t_\t0\troot\t0:root\tGloss=saw",
  "3.1\t_\t_\tPRON\t_\t_\t_\t_\t3:obj\tEntity=(e2-thing-1-)",
  "4\tit\tit\tPRON\t_\t_\t3\tobj\t3.1:conj|3:obj\tEntity=(e2-thing-1-)|Bridge=e1<e2:part",
  "5\tthem\tthey\tPRON\t_\t_\t3\tobl\t3.1:nmod\tEntity=(e3-thing-1-)|SplitAnte=e1<e3,e2<e3",
  "",
  "# sent_id = s2",
  "# text = He left",
  "1\tHe\the\tPRON\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1-)",
  "2\tleft\tleave\tVERB\t_\t_\t0\troot\t0:root\tSpaceAfter=No|Entity=(e4-event-1-)",
  "",
].join("\n");

const COREF = /(^|\|)(Entity|Bridge|SplitAnte)=/;

/** The ten columns of each node line, and the other lines as they are. */
function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** A CoNLL-2012 token line cut before its last column: [everything before it, the column]. */
function lastColumn(line: string): [string, string] {
  if (line.includes("\t")) return [line.slice(0, line.lastIndexOf("\t")), line.slice(line.lastIndexOf("\t") + 1)];
  const match = /^(.*?)(\S+)\s*$/s.exec(line)!;
  return [match[1], match[2]];
}

function expectNoCorefUDCoreference(blind: string, file: string): void {
  for (const line of lines(blind)) {
    if (line.startsWith("#") || line.trim() === "") continue;
    expect(line.split("\t")[9]).not.toMatch(COREF);
  }
  expect(blind).not.toMatch(/Entity=|Bridge=|SplitAnte=/);
  const read = readCorefUD(blind, file);
  for (const doc of read.documents) {
    expect(doc.entities).toEqual([]);
    expect(doc.corefud!.entities).toEqual([]);
  }
}

describe("blindCorefUD", () => {
  it("finds the CorefUD fixtures", () => {
    expect(COREFUD_KEYS.length).toBeGreaterThan(10);
  });

  it.each(COREFUD_KEYS.map((k) => [path.relative(FIXTURES, k), k]))("leaves no coreference of %s and keeps its tokens", (_name, file) => {
    const key = readFileSync(file, "utf8");
    const gold = readCorefUD(key, file);
    const blind = blindCorefUD(key, file);
    expectNoCorefUDCoreference(blind, file);
    // Same documents, words, sentences and nodes (empty nodes kept by default).
    const read = readCorefUD(blind, file);
    expect(read.documents.map((d) => [d.id, d.tokens, d.sentenceStarts])).toEqual(gold.documents.map((d) => [d.id, d.tokens, d.sentenceStarts]));
    expect(read.documents.map((d) => d.corefud!.sentences)).toEqual(gold.documents.map((d) => d.corefud!.sentences));
    // Line for line the key, but for MISC.
    const keyLines = lines(key).filter((l) => l !== "");
    const blindLines = lines(blind).filter((l) => l !== "");
    expect(blindLines.length).toBe(keyLines.length);
    blindLines.forEach((line, i) => {
      if (line.startsWith("#")) expect(line).toBe(keyLines[i]);
      else expect(line.split("\t").slice(0, 9)).toEqual(keyLines[i].split("\t").slice(0, 9));
    });
  });

  it("strips Entity, Bridge and SplitAnte and keeps the other MISC items in order", () => {
    const blind = blindCorefUD(RICH_KEY, "rich.conllu");
    expectNoCorefUDCoreference(blind, "rich.conllu");
    const misc = lines(blind)
      .filter((l) => /^[0-9]/.test(l))
      .map((l) => [l.split("\t")[0], l.split("\t")[9]]);
    expect(misc).toEqual([
      ["1-2", "SpaceAfter=No"],
      ["1", "SpaceAfter=No"],
      ["2", "_"],
      ["3", "Gloss=saw"],
      ["3.1", "_"],
      ["4", "_"],
      ["5", "_"],
      ["1", "_"],
      ["2", "SpaceAfter=No"],
    ]);
    // Kept by default: the declaration, the zero and every DEPS.
    expect(blind).toContain("# global.Entity = eid-etype-head-other\n");
    expect(blind).toContain("\n3.1\t_\t_\tPRON\t_\t_\t_\t_\t3:obj\t_\n");
    expect(blind).toContain("\t3.1:conj|3:obj\t_\n");
    expect(blind.endsWith("left\tleave\tVERB\t_\t_\t0\troot\t0:root\tSpaceAfter=No\n\n")).toBe(true);
  });

  it("drops the zeros and the DEPS that point at them, and the declaration, when asked", () => {
    const options: BlindOptions = { emptyNodes: "drop", dropEntityDeclaration: true };
    const blind = blindCorefUD(RICH_KEY, "rich.conllu", options);
    expectNoCorefUDCoreference(blind, "rich.conllu");
    expect(blind).not.toContain("global.Entity");
    expect(blind).not.toMatch(/^[0-9]+\.[0-9]+\t/m);
    expect(blind).not.toMatch(/[0-9]+\.[0-9]+:/);
    const deps = lines(blind)
      .filter((l) => /^[0-9]/.test(l))
      .map((l) => [l.split("\t")[0], l.split("\t")[8]]);
    expect(deps).toEqual([
      ["1-2", "_"],
      ["1", "3:nsubj"],
      ["2", "1:case"],
      ["3", "0:root"],
      ["4", "3:obj"],
      ["5", "_"],
      ["1", "2:nsubj"],
      ["2", "0:root"],
    ]);
    const gold = readCorefUD(RICH_KEY, "rich.conllu");
    const read = readCorefUD(blind, "rich.conllu");
    expect(read.documents[0].tokens).toEqual(gold.documents[0].tokens);
    expect(read.documents[0].sentenceStarts).toEqual(gold.documents[0].sentenceStarts);
  });

  it.each(COREFUD_KEYS.filter((k) => /\n[0-9]+\.[0-9]+\t/.test(readFileSync(k, "utf8"))).map((k) => [path.relative(FIXTURES, k), k]))(
    "drops the zeros of %s and nothing else",
    (_name, file) => {
      const key = readFileSync(file, "utf8");
      const blind = blindCorefUD(key, file, { emptyNodes: "drop" });
      expectNoCorefUDCoreference(blind, file);
      const gold = readCorefUD(key, file);
      const read = readCorefUD(blind, file);
      expect(read.documents.map((d) => [d.tokens, d.sentenceStarts])).toEqual(gold.documents.map((d) => [d.tokens, d.sentenceStarts]));
      const withoutZeros = lines(key).filter((l) => l !== "" && !/^[0-9]+\.[0-9]+\t/.test(l));
      expect(lines(blind).filter((l) => l !== "").map((l) => l.split("\t").slice(0, 8))).toEqual(withoutZeros.map((l) => l.split("\t").slice(0, 8)));
    },
  );

  it("refuses a key that is not CorefUD CoNLL-U", () => {
    expect(() => blindCorefUD("1\tword\n", "bad.conllu")).toThrow(FormatError);
    expect(() => blindInput("", "conllu", "empty.conllu")).toThrow(FormatError);
  });
});

describe("corefudCoreferenceAttributes", () => {
  it("names the coreference items of the MISC column, and none in a blind input", () => {
    expect(corefudCoreferenceAttributes(RICH_KEY, "rich.conllu")).toEqual(["Entity", "Bridge", "SplitAnte"]);
    expect(corefudCoreferenceAttributes(blindCorefUD(RICH_KEY, "rich.conllu"), "rich.conllu")).toEqual([]);
    const withEntities = COREFUD_KEYS.map((k) => readFileSync(k, "utf8")).find((key) => key.includes("Entity="))!;
    expect(corefudCoreferenceAttributes(new TextEncoder().encode(withEntities), "k.conllu")).toContain("Entity");
  });

  it("looks at MISC only: not at the declaration comment, a form or a lemma", () => {
    const file = ["# global.Entity = eid-etype-head-other", "# sent_id = 1", "1\tEntity=x\tBridge=y\tX\t_\t_\t0\troot\t_\tSpaceAfter=No", ""].join("\n");
    expect(corefudCoreferenceAttributes(file, "f.conllu")).toEqual([]);
    expect(corefudCoreferenceAttributes(file.replace("SpaceAfter=No", "SpaceAfter=No|SplitAnte=e1<e2"), "f.conllu")).toEqual(["SplitAnte"]);
  });
});

describe("blindConll2012", () => {
  it("finds the CoNLL-2012 fixtures", () => {
    expect(CONLL2012_KEYS.length).toBeGreaterThan(10);
  });

  it.each(CONLL2012_KEYS.map((k) => [path.relative(FIXTURES, k), k]))("leaves no chain of %s and keeps its tokens", (_name, file) => {
    const key = readFileSync(file, "utf8");
    const blind = blindConll2012(key, file);
    const gold = readConll2012(key, file);
    const read = readConll2012(blind, file);
    expect(read.documents.map((d) => [d.id, d.tokens, d.sentenceStarts])).toEqual(gold.documents.map((d) => [d.id, d.tokens, d.sentenceStarts]));
    for (const doc of read.documents) expect(doc.entities).toEqual([]);
    const keyLines = lines(key.replace(/\n+$/, ""));
    const blindLines = lines(blind.replace(/\n+$/, ""));
    expect(blindLines.length).toBe(keyLines.length);
    blindLines.forEach((line, i) => {
      if (line.trim() === "" || line.trimStart().startsWith("#")) {
        expect(line).toBe(keyLines[i]);
        return;
      }
      expect(line).not.toMatch(/\(|\)/);
      // Columns as the reader cuts them: at tabs, else at runs of spaces.
      const [head, last] = lastColumn(line);
      expect(last).toBe("-");
      expect(head).toBe(lastColumn(keyLines[i])[0]);
    });
  });

  it("blanks the last column of space-separated lines too", () => {
    const key = "#begin document (d); part 000\nd 0 0 John (0)\nd 0 1 saw -\nd 0 2 him   0)|(1)\n\n#end document\n".replace("him   0)|(1)", "him (0)");
    const blind = blindInput(key, "conll2012", "d.conll");
    expect(blind).toBe("#begin document (d); part 000\nd 0 0 John -\nd 0 1 saw -\nd 0 2 him -\n\n#end document\n");
    expect(readConll2012(blind, "d.conll").documents[0].entities).toEqual([]);
  });

  it("refuses a key that is not CoNLL-2012", () => {
    expect(() => blindConll2012("d 0 0 John (0)\n", "bad.conll")).toThrow(FormatError);
  });
});
