/**
 * CorefUD key and response must align word for word (the CorefUD scorer's
 * `check_data_alignment`): misaligned sentences or words are a FormatError naming the
 * response file, line and column, through the reader and `evaluate` as the CLI and the
 * worker use them. Empty nodes may differ between the two.
 */
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate } from "../evaluate.js";
import { formatError } from "./format-error.js";

const HEADER = "# newdoc id = d1\n# global.Entity = eid-etype-head-other\n";
const word = (id: string, form: string, misc = "_", deps = "_") => [id, form, "_", "_", "_", "_", id.includes(".") ? "_" : "0", id.includes(".") ? "_" : "root", deps, misc].join("\t");
const sentence = (id: string, rows: string[]) => `# sent_id = ${id}\n${rows.join("\n")}\n\n`;

const key = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps")]) + sentence("s2", [word("1", "She", "Entity=(e1-person-1)"), word("2", "dreams")]);

function score(response: string) {
  return evaluate(readCorefUD(key, "key.conllu"), readCorefUD(response, "response.conllu"), { match: "head" });
}

describe("CorefUD key/response alignment", () => {
  it("accepts a response that adds an empty node", () => {
    const response = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps"), word("2.1", "_", "_", "2:nsubj")]) + sentence("s2", [word("1", "She", "Entity=(e1-person-1)"), word("2", "dreams")]);
    expect(score(response).metrics.muc!.f1).toBe(1);
  });

  it("a different word is a FormatError at the response's line", () => {
    const response = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps")]) + sentence("s2", [word("1", "He", "Entity=(e1-person-1)"), word("2", "dreams")]);
    const e = formatError(() => score(response));
    expect([e.file, e.line, e.column]).toEqual(["response.conllu", 8, 3]);
    expect(e.message).toContain('word 1 of sentence 2 to be "She"');
  });

  it("a sentence split differently is a FormatError", () => {
    const response = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps"), word("3", "She", "Entity=(e1-person-1)"), word("4", "dreams")]);
    const e = formatError(() => score(response));
    expect(e.file).toBe("response.conllu");
    expect(e.line).toBe(6);
    expect(e.message).toContain("2 words in sentence 1");
  });

  it("a missing sentence is a FormatError", () => {
    const response = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps")]);
    const e = formatError(() => score(response));
    expect(e.file).toBe("response.conllu");
    expect(e.message).toContain("2 sentences in the document");
  });

  it("a different sentence id is a FormatError", () => {
    const response = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps")]) + sentence("other", [word("1", "She", "Entity=(e1-person-1)"), word("2", "dreams")]);
    const e = formatError(() => score(response));
    expect([e.file, e.line]).toEqual(["response.conllu", 8]);
    expect(e.message).toContain('"s2"');
  });

  it("partial and head match on CoNLL-2012 input are a RangeError (no heads)", async () => {
    const { readConll2012 } = await import("../formats/conll2012.js");
    const conll = "#begin document (d); part 000\nd\t0\t0\tA\t(1)\nd\t0\t1\tB\t(1)\n#end document\n";
    const c = readConll2012(conll, "k.conll");
    expect(() => evaluate(c, c, { match: "head" })).toThrow(RangeError);
    expect(() => evaluate(c, c, { match: "partial" })).toThrow(/heads/);
    expect(evaluate(c, c, { match: "exact" }).metrics.muc!.f1).toBe(1);
  });

  it("a zero without DEPS met by dependent zero matching is a FormatError at its DEPS column", () => {
    const zeroKey = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps"), word("2.1", "_", "Entity=(e1-person-1)", "_")]) + sentence("s2", [word("1", "She"), word("2", "dreams")]);
    const zeroResponse = HEADER + sentence("s1", [word("1", "Anna", "Entity=(e1-person-1)"), word("2", "sleeps"), word("2.1", "_", "Entity=(e1-person-1)", "2:nsubj")]) + sentence("s2", [word("1", "She"), word("2", "dreams")]);
    const run = (zeroMatch: "dependent" | "linear") =>
      evaluate(readCorefUD(zeroKey, "key.conllu"), readCorefUD(zeroResponse, "response.conllu"), { match: "head", zeroMatch });
    const e = formatError(() => run("dependent"));
    // Line 6 is the key's empty node 2.1; its DEPS column starts after eight tabs.
    expect([e.file, e.line, e.column]).toEqual(["key.conllu", 6, "2.1\t_\t_\t_\t_\t_\t_\t_\t".length + 1]);
    expect(e.message).toContain("DEPS");
    // Linear zero matching compares positions, not DEPS: scored.
    expect(run("linear").metrics.muc!.f1).toBe(1);
  });
});
