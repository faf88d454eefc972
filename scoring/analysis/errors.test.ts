/**
 * Kummerfeld & Klein (2013) error categories: one hand-built case per kind with its known
 * answer, combined and edge cases, properties over random documents (self-analysis is
 * error-free, swapping key and response swaps the categories, every key and response span
 * is accounted for once) and LitBank analysed against itself when the data is there.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCorpus } from "../formats/index.js";
import { spanKey, type Corpus, type Document, type Entity, type Mention } from "../types.js";
import { dataDir } from "../test/data-dir.js";
import {
  ERROR_KINDS,
  addErrorCounts,
  analyzeDocumentErrors,
  analyzeErrors,
  zeroErrorCounts,
  type CorefError,
  type ErrorCounts,
  type ErrorKind,
} from "./errors.js";

/** Zero counts except the given ones. */
function counts(some: Partial<ErrorCounts>): ErrorCounts {
  return { ...zeroErrorCounts(), ...some };
}

/** The errors of one kind, without their messages. */
function ofKind(errors: CorefError[], kind: ErrorKind): Omit<CorefError, "message">[] {
  return errors.filter((e) => e.kind === kind).map(({ message: _message, ...rest }) => rest);
}

const m = (start: number, end = start): Mention => [start, end];

describe("ERROR_KINDS and counts helpers", () => {
  it("lists the seven kinds in order; zero and add work", () => {
    expect(ERROR_KINDS).toEqual([
      "span",
      "missing-mention",
      "extra-mention",
      "missing-entity",
      "extra-entity",
      "divided",
      "conflated",
    ]);
    const a = counts({ span: 1, divided: 2 });
    const out = addErrorCounts(a, counts({ span: 3, conflated: 1 }));
    expect(out).toBe(a);
    expect(a).toEqual(counts({ span: 4, divided: 2, conflated: 1 }));
    expect(zeroErrorCounts()).not.toBe(zeroErrorCounts());
  });
});

describe("one case per error kind", () => {
  it("span error", () => {
    const { counts: c, errors } = analyzeDocumentErrors([[m(0, 1), m(5)]], [[m(0, 2), m(5)]]);
    expect(c).toEqual(counts({ span: 1 }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toEqual({
      kind: "span",
      mentions: [[0, 1]],
      keyEntities: [0],
      responseEntities: [0],
      responseSpan: [0, 2],
      message: "Response span [0, 2] should be [0, 1].",
    });
  });

  it("missing mention", () => {
    const { counts: c, errors } = analyzeDocumentErrors([[m(0), m(2), m(4)]], [[m(0), m(2)]]);
    expect(c).toEqual(counts({ "missing-mention": 1 }));
    expect(ofKind(errors, "missing-mention")).toEqual([
      { kind: "missing-mention", mentions: [[4, 4]], keyEntities: [0], responseEntities: [] },
    ]);
  });

  it("extra mention", () => {
    const { counts: c, errors } = analyzeDocumentErrors([[m(0), m(2)]], [[m(0), m(2), m(4)]]);
    expect(c).toEqual(counts({ "extra-mention": 1 }));
    expect(ofKind(errors, "extra-mention")).toEqual([
      { kind: "extra-mention", mentions: [[4, 4]], keyEntities: [], responseEntities: [0] },
    ]);
  });

  it("missing entity", () => {
    const key: Entity[] = [[m(0), m(2)], [m(8), m(6)]];
    const { counts: c, errors } = analyzeDocumentErrors(key, [[m(0), m(2)]]);
    expect(c).toEqual(counts({ "missing-entity": 1 }));
    expect(ofKind(errors, "missing-entity")).toEqual([
      { kind: "missing-entity", mentions: [[6, 6], [8, 8]], keyEntities: [1], responseEntities: [] },
    ]);
  });

  it("extra entity", () => {
    const response: Entity[] = [[m(9), m(7)], [m(0), m(2)]];
    const { counts: c, errors } = analyzeDocumentErrors([[m(0), m(2)]], response);
    expect(c).toEqual(counts({ "extra-entity": 1 }));
    expect(ofKind(errors, "extra-entity")).toEqual([
      { kind: "extra-entity", mentions: [[7, 7], [9, 9]], keyEntities: [], responseEntities: [0] },
    ]);
  });

  it("divided entity: k pieces give k - 1 errors, the piece with the earliest mention stays", () => {
    const key: Entity[] = [[m(0), m(2), m(4), m(6), m(8)]];
    const response: Entity[] = [[m(4)], [m(0), m(2)], [m(6), m(8)]];
    const { counts: c, errors } = analyzeDocumentErrors(key, response);
    expect(c).toEqual(counts({ divided: 2 }));
    expect(ofKind(errors, "divided")).toEqual([
      { kind: "divided", mentions: [[4, 4]], keyEntities: [0], responseEntities: [0, 1] },
      { kind: "divided", mentions: [[6, 6], [8, 8]], keyEntities: [0], responseEntities: [2, 1] },
    ]);
  });

  it("conflated entities: k key entities in one response entity give k - 1 errors", () => {
    const key: Entity[] = [[m(4)], [m(0), m(2)], [m(6), m(8)]];
    const response: Entity[] = [[m(0), m(2), m(4), m(6), m(8)]];
    const { counts: c, errors } = analyzeDocumentErrors(key, response);
    expect(c).toEqual(counts({ conflated: 2 }));
    expect(ofKind(errors, "conflated")).toEqual([
      { kind: "conflated", mentions: [[4, 4]], keyEntities: [0, 1], responseEntities: [0] },
      { kind: "conflated", mentions: [[6, 6], [8, 8]], keyEntities: [2, 1], responseEntities: [0] },
    ]);
  });
});

describe("span errors", () => {
  it("prefer a shared boundary over a larger overlap", () => {
    // response [2, 8]: key [3, 7] overlaps 5 tokens but shares no boundary; key [2, 3] shares the start.
    const { counts: c, errors } = analyzeDocumentErrors([[m(2, 3)], [m(3, 7)]], [[m(2, 8)]]);
    expect(c).toEqual(counts({ span: 1, "missing-entity": 1 }));
    expect(ofKind(errors, "span")[0]).toMatchObject({ mentions: [[2, 3]], responseSpan: [2, 8], keyEntities: [0] });
    expect(ofKind(errors, "missing-entity")[0].mentions).toEqual([[3, 7]]);
  });

  it("then prefer the larger overlap", () => {
    // response [2, 6]: key [2, 3] shares the start (overlap 2), key [4, 6] shares the end (overlap 3).
    const { errors } = analyzeDocumentErrors([[m(2, 3), m(4, 6)]], [[m(2, 6)]]);
    expect(ofKind(errors, "span")[0]).toMatchObject({ mentions: [[4, 6]], responseSpan: [2, 6] });
    expect(ofKind(errors, "missing-mention")[0].mentions).toEqual([[2, 3]]);
  });

  it("then document order; pairs are one to one", () => {
    // two response spans compete for key [1, 3]; both share a boundary and overlap 3 tokens.
    const { counts: c, errors } = analyzeDocumentErrors([[m(1, 3), m(10)]], [[m(0, 3), m(1, 4), m(10)]]);
    expect(c).toEqual(counts({ span: 1, "extra-mention": 1 }));
    expect(ofKind(errors, "span")[0]).toMatchObject({ mentions: [[1, 3]], responseSpan: [0, 3] });
    expect(ofKind(errors, "extra-mention")[0].mentions).toEqual([[1, 4]]);
  });

  it("spans that do not overlap are not paired; an exact twin is never paired", () => {
    expect(analyzeDocumentErrors([[m(0, 1)]], [[m(2, 3)]]).counts).toEqual(
      counts({ "missing-entity": 1, "extra-entity": 1 }),
    );
    // key [0, 1] has an exact twin, so response [0, 2] cannot take it.
    expect(analyzeDocumentErrors([[m(0, 1)]], [[m(0, 1)], [m(0, 2)]]).counts).toEqual(counts({ "extra-entity": 1 }));
  });

  it("a corrected span then counts as shared for the entity errors", () => {
    // response [5, 7] becomes key [5, 6], which sits in key entity 1: a conflation.
    const { counts: c, errors } = analyzeDocumentErrors([[m(0), m(2)], [m(5, 6), m(9)]], [[m(0), m(2), m(5, 7)], [m(9)]]);
    expect(c).toEqual(counts({ span: 1, divided: 1, conflated: 1 }));
    expect(ofKind(errors, "conflated")[0]).toMatchObject({ mentions: [[5, 6]], keyEntities: [1, 0] });
  });
});

describe("whole documents", () => {
  it("a combined case", () => {
    const key: Entity[] = [
      [m(0), m(3, 4), m(10), m(20)], // A
      [m(5), m(15)], // B
      [m(30), m(32)], // C: missing entirely
      [m(40)], // D: singleton, in the response
    ];
    const response: Entity[] = [
      [m(0), m(3, 5), m(5)], // A (with [3, 5] for [3, 4]) conflated with B
      [m(10), m(12)], // A divided; [12] extra
      [m(50), m(51)], // extra entity
      [m(15)], // B divided
      [m(40)],
    ];
    const { counts: c, errors } = analyzeDocumentErrors(key, response);
    expect(c).toEqual(
      counts({
        span: 1,
        "missing-mention": 1, // [20]
        "extra-mention": 1, // [12]
        "missing-entity": 1, // C
        "extra-entity": 1, // [50], [51]
        divided: 2, // A in responses 0 and 1; B in responses 0 and 3
        conflated: 1, // response 0 holds A and B
      }),
    );
    expect(errors.map((e) => e.kind)).toEqual([
      "span",
      "missing-mention",
      "extra-mention",
      "missing-entity",
      "extra-entity",
      "divided",
      "divided",
      "conflated",
    ]);
    expect(ofKind(errors, "divided")).toEqual([
      { kind: "divided", mentions: [[10, 10]], keyEntities: [0], responseEntities: [1, 0] },
      { kind: "divided", mentions: [[15, 15]], keyEntities: [1], responseEntities: [3, 0] },
    ]);
    expect(ofKind(errors, "conflated")).toEqual([
      { kind: "conflated", mentions: [[5, 5]], keyEntities: [1, 0], responseEntities: [0] },
    ]);
    for (const e of errors) expect(e.message).toMatch(/^[A-Z].*\.$/);
  });

  it("a perfect response has no errors", () => {
    const key: Entity[] = [[m(0), m(3, 4)], [m(6)], [m(8, 9), m(12)]];
    const response: Entity[] = [[m(12), m(8, 9)], [m(6)], [m(3, 4), m(0)]];
    expect(analyzeDocumentErrors(key, response)).toEqual({ counts: zeroErrorCounts(), errors: [] });
  });

  it("an empty response misses every entity; an empty key makes every entity extra", () => {
    const key: Entity[] = [[m(0), m(3)], [m(6)]];
    const missing = analyzeDocumentErrors(key, []);
    expect(missing.counts).toEqual(counts({ "missing-entity": 2 }));
    expect(missing.errors.map((e) => e.keyEntities)).toEqual([[0], [1]]);
    expect(analyzeDocumentErrors([], key).counts).toEqual(counts({ "extra-entity": 2 }));
    expect(analyzeDocumentErrors([], [])).toEqual({ counts: zeroErrorCounts(), errors: [] });
    expect(analyzeDocumentErrors([[]], [[], []])).toEqual({ counts: zeroErrorCounts(), errors: [] });
  });

  it("repeated spans: the first copy wins, on both sides", () => {
    // key [2] in two entities: kept in entity 0 only, so entity 1 is just [7].
    const key: Entity[] = [[m(0), m(2)], [m(2), m(7)]];
    expect(analyzeDocumentErrors(key, key).counts).toEqual(zeroErrorCounts());
    // the response repeats [2] in its second entity: ignored there, so no conflation.
    const response: Entity[] = [[m(0), m(2), m(2)], [m(7), m(2)]];
    expect(analyzeDocumentErrors([[m(0), m(2)], [m(7)]], response).counts).toEqual(zeroErrorCounts());
    // an entity made only of repeats is skipped, not an extra entity; indices stay the input's.
    const r2: Entity[] = [[m(0), m(2)], [m(2)], [m(7), m(9)]];
    const out = analyzeDocumentErrors([[m(0), m(2)], [m(7)]], r2);
    expect(out.counts).toEqual(counts({ "extra-mention": 1 }));
    expect(out.errors[0].responseEntities).toEqual([2]);
  });

  it("odd spans do not throw", () => {
    const odd: Entity[] = [[m(5, 2), m(-1, -1)], [m(0, 0), m(5, 2)]];
    expect(() => analyzeDocumentErrors(odd, [[m(3, 4)], [m(4, 1)]])).not.toThrow();
    expect(() => analyzeDocumentErrors([[m(Number.NaN, 1)]], [[m(0, Number.NaN)]])).not.toThrow();
  });
});

describe("analyzeErrors over a corpus", () => {
  const doc = (id: string, entities: Entity[]): Document => ({
    id,
    name: id,
    part: 0,
    tokens: [],
    sentenceStarts: [0],
    entities,
    line: 1,
  });
  const corpus = (file: string, documents: Document[]): Corpus => ({ file, documents, warnings: [] });

  it("matches documents by id, treats missing ones as empty and ignores response-only ones", () => {
    const key = corpus("key", [doc("a/part 0", [[m(0), m(2)]]), doc("b/part 0", [[m(1)], [m(3)]])]);
    const response = corpus("resp", [doc("z/part 0", [[m(0)]]), doc("a/part 0", [[m(0), m(2), m(4)]])]);
    const out = analyzeErrors(key, response);
    expect(out.perDocument).toEqual([
      { id: "a/part 0", counts: counts({ "extra-mention": 1 }), missingInResponse: false },
      { id: "b/part 0", counts: counts({ "missing-entity": 2 }), missingInResponse: true },
    ]);
    expect(out.totals).toEqual(counts({ "extra-mention": 1, "missing-entity": 2 }));
    expect(analyzeErrors(corpus("k", []), response)).toEqual({ totals: zeroErrorCounts(), perDocument: [] });
  });
});

/** Random entities over a small span space so that overlaps and repeats are common. */
const entities = (maxEntities: number) =>
  fc.array(
    fc.array(
      fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 })).map(([s, len]) => [s, s + len] as const),
      { minLength: 0, maxLength: 5 },
    ),
    { maxLength: maxEntities },
  ) as fc.Arbitrary<Entity[]>;

const SWAPPED: Record<ErrorKind, ErrorKind> = {
  span: "span",
  "missing-mention": "extra-mention",
  "extra-mention": "missing-mention",
  "missing-entity": "extra-entity",
  "extra-entity": "missing-entity",
  divided: "conflated",
  conflated: "divided",
};

/** Distinct spans of one side (first copy wins). */
function distinctSpans(side: Entity[]): Set<number> {
  const out = new Set<number>();
  for (const e of side) for (const x of e) out.add(spanKey(x[0], x[1]));
  return out;
}

describe("properties on random documents", () => {
  it("a document analysed against itself has no errors", () => {
    fc.assert(
      fc.property(entities(7), (k) => {
        expect(analyzeDocumentErrors(k, k)).toEqual({ counts: zeroErrorCounts(), errors: [] });
      }),
      { numRuns: 500 },
    );
  });

  it("swapping key and response swaps missing/extra and divided/conflated, and keeps span", () => {
    fc.assert(
      fc.property(entities(6), entities(6), (k, r) => {
        const there = analyzeDocumentErrors(k, r).counts;
        const back = analyzeDocumentErrors(r, k).counts;
        for (const kind of ERROR_KINDS) expect(back[SWAPPED[kind]], kind).toBe(there[kind]);
      }),
      { numRuns: 1000 },
    );
  });

  it("counts match the error list, mentions are sorted, and every span is accounted for once", () => {
    fc.assert(
      fc.property(entities(6), entities(6), (k, r) => {
        const { counts: c, errors } = analyzeDocumentErrors(k, r);
        for (const kind of ERROR_KINDS) expect(c[kind]).toBe(errors.filter((e) => e.kind === kind).length);
        for (const e of errors) {
          expect(e.mentions.length).toBeGreaterThan(0);
          const sorted = [...e.mentions].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          expect(e.mentions).toEqual(sorted);
          expect(e.responseSpan !== undefined).toBe(e.kind === "span");
        }
        const keySpans = distinctSpans(k);
        const responseSpans = distinctSpans(r);
        let exact = 0;
        for (const s of keySpans) if (responseSpans.has(s)) exact++;
        const count = (kinds: ErrorKind[]) =>
          errors.filter((e) => kinds.includes(e.kind)).reduce((n, e) => n + e.mentions.length, 0);
        // each distinct key span is exactly matched, span-corrected, or missing
        expect(exact + c.span + count(["missing-mention", "missing-entity"])).toBe(keySpans.size);
        // each distinct response span is exactly matched, span-corrected, or extra
        expect(exact + c.span + count(["extra-mention", "extra-entity"])).toBe(responseSpans.size);
      }),
      { numRuns: 1000 },
    );
  });

  it("the number of divided errors is what K&K's merges need", () => {
    // on well-formed partitions of single-token spans (no span errors possible), divided is
    // the sum over key entities of (response entities holding its shared mentions - 1).
    const partition = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 14 }).chain((spans) =>
      fc
        .array(fc.integer({ min: 0, max: 4 }), { minLength: spans.length, maxLength: spans.length })
        .map((groups) => {
          const out: Entity[] = [];
          spans.forEach((s, i) => (out[groups[i]] ??= []).push([s, s]));
          return out.filter(Boolean);
        }),
    );
    fc.assert(
      fc.property(partition, partition, (k, r) => {
        const where = new Map<number, number>();
        r.forEach((e, i) => e.forEach((x) => where.set(x[0], i)));
        let expected = 0;
        for (const e of k) {
          const holders = new Set(e.filter((x) => where.has(x[0])).map((x) => where.get(x[0])));
          expected += Math.max(0, holders.size - 1);
        }
        expect(analyzeDocumentErrors(k, r).counts.divided).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

const data = dataDir();
if (!data) console.log("skipping LitBank error analysis: no ../shared/data next to the repo and COREFBOARD_DATA_DIR is not set");

describe.skipIf(!data)("LitBank", () => {
  function readLitBank(): Corpus {
    const dir = join(data!, "litbank/conll");
    const text = readdirSync(dir)
      .filter((f) => f.endsWith(".conll"))
      .sort()
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("");
    return readCorpus(text, "litbank-all.conll");
  }

  it("the key analysed against itself has no errors", () => {
    const key = readLitBank();
    expect(key.documents).toHaveLength(100);
    const out = analyzeErrors(key, readLitBank());
    expect(out.totals).toEqual(zeroErrorCounts());
    expect(out.perDocument).toHaveLength(100);
    expect(out.perDocument.every((d) => !d.missingInResponse)).toBe(true);
  });

  // Speed is measured by `npm run bench` (case d), not here.
  it("a perturbed copy gives errors of every kind", () => {
    const key = readLitBank();
    const response = perturb(readLitBank());
    const out = analyzeErrors(key, response);
    for (const kind of ERROR_KINDS) expect(out.totals[kind], kind).toBeGreaterThan(0);
  });
});

/**
 * Deterministic perturbation of a corpus: widens some spans, drops some mentions and some
 * entities, adds some spans and entities, splits some entities and merges some pairs.
 */
function perturb(corpus: Corpus): Corpus {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (const doc of corpus.documents) {
    const out: Entity[] = [];
    for (const e of doc.entities) {
      const roll = rand();
      if (roll < 0.05) continue; // missing entity
      let ms: Mention[] = e
        .filter(() => rand() > 0.05) // missing mentions
        .map((x) => (rand() < 0.05 ? ([x[0], x[1] + 1] as const) : x)); // span errors
      if (rand() < 0.05) ms.push([ms.length > 0 ? ms[0][0] + 1000 : 0, ms.length > 0 ? ms[0][0] + 1000 : 0]); // extra mention
      if (ms.length === 0) continue;
      if (ms.length > 3 && rand() < 0.2) {
        out.push(ms.slice(0, 2)); // divided
        ms = ms.slice(2);
      }
      out.push(ms);
    }
    for (let i = 0; i + 1 < out.length; i += 2) {
      if (rand() < 0.05) {
        out[i] = [...out[i], ...out[i + 1]]; // conflated
        out[i + 1] = [];
      }
    }
    const n = out.length;
    for (let i = 0; i < n / 20; i++) out.push([[100000 + i * 3, 100000 + i * 3], [100001 + i * 3, 100001 + i * 3]]); // extra entities
    doc.entities = out.filter((e) => e.length > 0);
  }
  return corpus;
}
