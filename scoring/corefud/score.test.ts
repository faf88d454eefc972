/**
 * `scoreCorefUDDocument` on hand-built documents: the reference's surprising behaviours
 * listed in `align.ts` and `zero.ts`, and the errors where the reference crashes.
 */
import { describe, expect, it } from "vitest";
import { type CorefUDDocument, type CorefUDMention, type CorefUDSentence, type Dep } from "../types.js";
import { toScore } from "../metrics/counts.js";
import { scoreCorefUDDocument, type CorefUDScoreOptions } from "./score.js";
import { formatError } from "../test/format-error.js";

/** Node code of word `w` (or empty node `w.sub`) of sentence `s` (0-based), 10 words per sentence. */
const node = (s: number, w: number, sub = 0) => (s * 11 + w) * 1024 + sub;

function sentence(s: number, forms = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]): CorefUDSentence {
  return { sentId: `s${s + 1}`, forms, wordLines: forms.map((_, i) => 10 * s + i + 2), line: 10 * s + 2, slot: s * 11 };
}

function mention(nodes: number[], opts: { head?: number; deps?: Dep[] | null; sentence?: number } = {}): CorefUDMention {
  const head = opts.head ?? nodes[0];
  const zero = head % 1024 !== 0;
  return {
    nodes,
    head,
    zero,
    sentence: opts.sentence ?? 0,
    headDeps: zero ? (opts.deps ?? null) : null,
    headDepsAt: zero ? { line: 99, column: 33, lineText: "5.1\t_\t_\t_\t_\t_\t_\t_\t_\t_" } : null,
    line: 1,
    column: 1,
  };
}

// eids that sort as the entities are listed (udapi breaks ties in entity order by eid).
const doc = (entities: CorefUDMention[][]): CorefUDDocument => ({
  sentences: [sentence(0), sentence(1)],
  entities,
  eids: entities.map((_, i) => `e${String(i).padStart(3, "0")}`),
  fileWideEids: true,
});

const options = (o: Partial<CorefUDScoreOptions> = {}): CorefUDScoreOptions => ({
  matching: "head",
  zeroMatch: "dependent",
  removeSingletons: false,
  removeZeros: false,
  metrics: new Set(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mor", "zero"]),
  keyFile: "key.conllu",
  responseFile: "response.conllu",
  ...o,
});

describe("scoreCorefUDDocument", () => {
  it("quirk: the zero score looks up a same-position response zero before the dependent pairing", () => {
    // Key zeros 5.1 (DEPS 3:nsubj) and 5.2 (DEPS 4:obj); the response has them swapped, so the
    // dependent step pairs key 5.1 with response 5.2 and key 5.2 with response 5.1.
    const deps = (w: number, rel: string): Dep[] => [{ parent: node(0, w), deprel: rel }];
    const key = doc([
      [mention([node(0, 1)]), mention([node(0, 5, 1)], { deps: deps(3, "nsubj") })],
      [mention([node(0, 7)]), mention([node(0, 5, 2)], { deps: deps(4, "obj") })],
    ]);
    const response = doc([
      [mention([node(0, 1)]), mention([node(0, 5, 1)], { deps: deps(4, "obj") })],
      [mention([node(0, 7)]), mention([node(0, 5, 2)], { deps: deps(3, "nsubj") })],
    ]);
    const dependent = scoreCorefUDDocument(key, response, options());
    // Coreference metrics use the dependent pairing: every zero is in the other entity.
    expect(toScore(dependent.muc!).recall).toBe(0);
    // The zero score takes the same-position zero first: both anaphors are correct.
    expect(toScore(dependent.zero!).recall).toBe(1);
    // Linear matching pairs by position: everything is right.
    const linear = scoreCorefUDDocument(key, response, options({ zeroMatch: "linear" }));
    expect(toScore(linear.muc!).f1).toBe(1);
    expect(toScore(linear.zero!).f1).toBe(1);
  });

  it("a zero without DEPS is a FormatError where the dependent step meets a zero of the other side in its sentence", () => {
    const key = doc([[mention([node(0, 1)]), mention([node(0, 5, 1)], { deps: null })]]);
    const response = doc([[mention([node(0, 1)]), mention([node(0, 6, 1)], { deps: [{ parent: node(0, 3), deprel: "nsubj" }] })]]);
    const error = formatError(() => scoreCorefUDDocument(key, response, options()));
    expect([error.file, error.line, error.column]).toEqual(["key.conllu", 99, 33]);
    // Linear zeros, or a response zero in another sentence, never compare DEPS.
    expect(() => scoreCorefUDDocument(key, response, options({ zeroMatch: "linear" }))).not.toThrow();
    const elsewhere = doc([[mention([node(1, 1)], { sentence: 1 }), mention([node(1, 6, 1)], { sentence: 1, deps: [{ parent: node(1, 3), deprel: "x" }] })]]);
    expect(() => scoreCorefUDDocument(key, elsewhere, options())).not.toThrow();
  });

  it("drops an entity left empty by zero removal (upstream would count -1 MUC links and divide by zero in LEA)", () => {
    const key = doc([[mention([node(0, 1)]), mention([node(0, 3)])], [mention([node(0, 5, 1)]), mention([node(0, 6, 1)])]]);
    const counts = scoreCorefUDDocument(key, key, options({ removeZeros: true, zeroMatch: "linear" }));
    expect(counts.muc).toEqual({ recallNum: 1, recallDen: 1, precisionNum: 1, precisionDen: 1 });
    expect(counts.ceafe!.recallDen).toBe(1);
    expect(toScore(counts.lea!).f1).toBe(1);
  });

  it("merges repeated mentions of one entity; with head match a different head is a different mention", () => {
    const a = mention([node(0, 1), node(0, 2)], { head: node(0, 2) });
    const b = mention([node(0, 1), node(0, 2)], { head: node(0, 1) });
    const key = doc([[a, { ...a }, mention([node(0, 5)])]]);
    expect(scoreCorefUDDocument(key, key, options()).mentions!.recallDen).toBe(2);
    const twoHeads = doc([[a, b, mention([node(0, 5)])]]);
    expect(scoreCorefUDDocument(twoHeads, twoHeads, options()).mentions!.recallDen).toBe(3);
    expect(scoreCorefUDDocument(twoHeads, twoHeads, options({ matching: "exact" })).mentions!.recallDen).toBe(2);
  });

  it("names the response line where its words differ from the key's", () => {
    const key = doc([[mention([node(0, 1)])]]);
    const response: CorefUDDocument = { ...key, sentences: [sentence(0), sentence(1, ["a", "b", "X", "d", "e", "f", "g", "h", "i", "j"])] };
    const error = formatError(() => scoreCorefUDDocument(key, response, options()));
    expect([error.file, error.line]).toEqual(["response.conllu", 14]);
    expect(error.message).toContain('word 3 of sentence 2 to be "c"');
    const short: CorefUDDocument = { ...key, sentences: [sentence(0)] };
    expect(() => scoreCorefUDDocument(key, short, options())).toThrow(/2 sentences in the document/);
  });

  it("partial match: the response must lie inside the key and hold the key's head", () => {
    const key = doc([[mention([node(0, 1), node(0, 2), node(0, 3)], { head: node(0, 2) }), mention([node(0, 7)])]]);
    const inside = doc([[mention([node(0, 2), node(0, 3)], { head: node(0, 3) }), mention([node(0, 7)])]]);
    const noHead = doc([[mention([node(0, 3)]), mention([node(0, 7)])]]);
    const p = options({ matching: "partial" });
    expect(scoreCorefUDDocument(key, inside, p).mentions!.recallNum).toBe(2);
    expect(toScore(scoreCorefUDDocument(key, inside, p).muc!).f1).toBe(1);
    expect(scoreCorefUDDocument(key, noHead, p).mentions!.recallNum).toBe(1);
    // Head match needs the same head: 3 is the response's head, 2 the key's.
    expect(scoreCorefUDDocument(key, inside, options()).mentions!.recallNum).toBe(1);
  });

  it("head match breaks ties by the smallest proportional difference, then the earlier start", () => {
    // Key [1..4] head 3; response candidates [2,3] and [3,4] (both 2/4) and [1..3] (3/4).
    const key = doc([[mention([node(0, 1), node(0, 2), node(0, 3), node(0, 4)], { head: node(0, 3) }), mention([node(0, 9)])]]);
    const response = (candidates: number[][]) =>
      doc([[...candidates.map((c) => mention(c.map((w) => node(0, w)), { head: node(0, 3) })), mention([node(0, 9)])]]);
    const best = scoreCorefUDDocument(key, response([[2, 3], [3, 4], [1, 2, 3]]), options());
    expect(best.mor!.recallNum).toBe(4); // [1,2,3] overlaps 3 nodes + the one-word mention
    // A tie: [2,3] (earlier start) is alone in its response entity, [3,4] is with [9].
    const tie = doc([[mention([node(0, 3), node(0, 4)], { head: node(0, 3) }), mention([node(0, 9)])], [mention([node(0, 2), node(0, 3)], { head: node(0, 3) })]]);
    const counts = scoreCorefUDDocument(key, tie, options());
    expect(counts.mentions).toEqual({ recallNum: 2, recallDen: 2, precisionNum: 2, precisionDen: 3 });
    // [2,3] is paired, so the key's link [1..4]–[9] is not found.
    expect(counts.muc!.recallNum).toBe(0);
  });

  it("solves score matrices over DENSE_LIMIT block by block, with the same pairs", () => {
    // 1,100 key one-word mentions and 1,100 two-word response mentions with the same heads:
    // 1.21 million cells, so head matching goes block by block (one block per head).
    const n = 1100;
    const key = doc([Array.from({ length: n }, (_, i) => mention([node(0, 2 * i + 1)]))]);
    const response = doc([Array.from({ length: n }, (_, i) => mention([node(0, 2 * i + 1), node(0, 2 * i + 2)], { head: node(0, 2 * i + 1) }))]);
    const counts = scoreCorefUDDocument(key, response, options({ metrics: new Set(["mentions", "muc"]) }));
    expect(counts.mentions).toEqual({ recallNum: n, recallDen: n, precisionNum: n, precisionDen: n });
    expect(toScore(counts.muc!).f1).toBe(1);
    // Partial match (response inside the key) goes by connected blocks the other way round.
    const partial = scoreCorefUDDocument(response, key, options({ matching: "partial", metrics: new Set(["mentions"]) }));
    expect(partial.mentions!.recallNum).toBe(n);
  });
});
