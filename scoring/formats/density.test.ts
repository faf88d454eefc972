/** The mention-density bound (`density.ts`): just under and just over, and the message. */
import { describe, expect, it } from "vitest";
import { FormatError } from "../types.js";
import { checkMentionDensity, maxMentionsFor, MAX_MENTIONS_PER_TOKEN, MENTION_DENSITY_FLOOR } from "./density.js";
import { readCorpus } from "./index.js";

/**
 * A CoNLL file: a first harmless document, then document `dense` of `tokens` tokens whose
 * first token carries `mentions` one-word mentions (`(0)|(1)|…`, one entity each).
 */
function dense(tokens: number, mentions: number): string {
  const lines = ["#begin document (ok); part 0", "John\t(0)", "#end document"];
  lines.push("#begin document (dense); part 0");
  lines.push(`w\t${Array.from({ length: mentions }, (_, i) => `(${i})`).join("|") || "-"}`);
  for (let i = 1; i < tokens; i++) lines.push("w\t-");
  lines.push("#end document", "");
  return lines.join("\n");
}

describe("mention density bound", () => {
  it("is 2 per token plus a floor of 20", () => {
    expect(MAX_MENTIONS_PER_TOKEN).toBe(2);
    expect(MENTION_DENSITY_FLOOR).toBe(20);
    expect(maxMentionsFor(1000)).toBe(2020);
  });

  it("accepts a document at the bound", () => {
    const corpus = readCorpus(dense(100, 220), "run.conll");
    expect(corpus.documents[1].entities.flat()).toHaveLength(220);
    expect(() => checkMentionDensity(corpus)).not.toThrow();
  });

  it("refuses one mention more, naming the file, the document's line and the counts", () => {
    const corpus = readCorpus(dense(100, 221), "run.conll");
    let error: unknown;
    try {
      checkMentionDensity(corpus);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    const json = (error as FormatError).toJSON();
    expect(json).toMatchObject({ file: "run.conll", line: 4, column: 1 });
    expect(json.expected).toBe("at most 2 mentions per token in a document (220 for its 100 tokens; real corpora have at most 0.35 per token)");
    expect(json.found).toBe('221 mentions on 100 tokens in document "dense"');
    expect(json.message).toMatch(/^run\.conll:4:1: expected at most 2 mentions per token/);
  });
});
