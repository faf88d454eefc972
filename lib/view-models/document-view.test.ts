/**
 * The document view's model: one numbering and colouring for both sides, differences marked
 * exactly where the error analysis finds errors, unmatched entities numbered after the pairs,
 * a palette that passes WCAG AA, and a 10,000-token document built whole.
 */
import { describe, expect, it } from "vitest";
import { analyzeDocumentErrors } from "../../scoring/analysis/index";
import type { Entity, Mention } from "../../scoring/index";
import {
  buildDocumentView,
  contrastRatio,
  DOC_DIFFERENCE_COLOURS,
  DOC_PALETTE,
  DOC_TEXT_COLOURS,
  errorSides,
  type DocumentView,
  type ViewMention,
  type ViewSide,
} from "./document-view";

/** The view of a document of `tokenCount` tokens in one sentence, with its errors computed by the scorer. */
function view(key: Entity[], response: Entity[], tokenCount = 40, sentenceStarts: number[] = [0]): DocumentView {
  const { errors } = analyzeDocumentErrors(key, response);
  return buildDocumentView({ tokenCount, sentenceStarts, key, response, errors });
}

/** Every shown mention of a side. */
function mentions(side: ViewSide): ViewMention[] {
  return [...side.startsAt.values()].flat();
}

/** The shown mention of a side at `[start, end]`. */
function at(side: ViewSide, start: number, end: number): ViewMention {
  const found = side.startsAt.get(start)?.find((m) => m.end === end);
  if (!found) throw new Error(`no ${side.side} mention [${start}, ${end}]`);
  return found;
}

/** A small deterministic random number generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("buildDocumentView: shared numbers and colours", () => {
  it("gives a perfect response the key's numbers and colours, whatever order its entities come in", () => {
    const key: Entity[] = [
      [[0, 0], [5, 5]],
      [[2, 3], [8, 8], [12, 12]],
      [[10, 10], [15, 16]],
    ];
    // The same entities, listed in another order and with mentions in another order.
    const response: Entity[] = [[[15, 16], [10, 10]], key[0], [[12, 12], [2, 3], [8, 8]]];
    const v = view(key, response);
    expect(v.errors).toHaveLength(0);
    expect(v.entities).toEqual({ matched: 3, keyOnly: 0, responseOnly: 0 });
    for (const m of mentions(v.key)) {
      const r = at(v.response, m.start, m.end);
      expect(r.number).toBe(m.number);
      expect(r.colour).toBe(m.colour);
      expect(m.differences).toEqual([]);
      expect(r.differences).toEqual([]);
      expect(m.matched && r.matched).toBe(true);
    }
    // Numbered in document order of the first mention, from 1.
    expect(at(v.key, 0, 0).number).toBe(1);
    expect(at(v.key, 2, 3).number).toBe(2);
    expect(at(v.key, 10, 10).number).toBe(3);
    expect(v.keyNumbers).toEqual([1, 2, 3]);
    expect(v.responseNumbers).toEqual([3, 1, 2]);
    expect(v.key.differences + v.response.differences).toBe(0);
  });

  it("keeps a 99 % correct document's numbers equal on both sides and marks only the one difference", () => {
    const key: Entity[] = [];
    for (let e = 0; e < 50; e++) key.push([[e * 4, e * 4], [e * 4 + 2, e * 4 + 2]]);
    const response: Entity[] = key.map((e) => [...e]).reverse();
    // One missing mention in entity 7.
    const seventh = response.findIndex((e) => e[0][0] === 28);
    response[seventh] = [[28, 28]];
    response[seventh].push([29, 29]); // and an extra one
    const v = view(key, response, 200);
    for (const m of mentions(v.key)) {
      if (m.start === 30) continue;
      expect(at(v.response, m.start, m.end).number).toBe(m.number);
    }
    const marked = [...mentions(v.key), ...mentions(v.response)].filter((m) => m.differences.length > 0);
    expect(marked.map((m) => [m.anchor, m.differences])).toEqual([
      ["k-30-30", ["missing"]],
      ["r-29-29", ["extra"]],
    ]);
    expect(at(v.key, 28, 28).number).toBe(at(v.response, 29, 29).number);
  });

  it("uses the palette in turn and repeats it, so numbers keep entities apart when colours repeat", () => {
    const key: Entity[] = [];
    for (let e = 0; e < DOC_PALETTE.length + 3; e++) key.push([[e, e]]);
    const v = view(key, key, key.length);
    const colours = key.map((_, e) => at(v.key, e, e).colour);
    expect(colours.slice(0, DOC_PALETTE.length)).toEqual(DOC_PALETTE.map((_, i) => i));
    expect(colours.slice(DOC_PALETTE.length)).toEqual([0, 1, 2]);
    expect(new Set(key.map((_, e) => at(v.key, e, e).number)).size).toBe(key.length);
  });
});

describe("buildDocumentView: differences", () => {
  it("marks missing and extra entities, and numbers them after the pairs", () => {
    const key: Entity[] = [
      [[0, 0], [4, 4]], // found
      [[1, 1], [6, 6]], // missing entity
    ];
    const response: Entity[] = [
      [[2, 2], [8, 8]], // extra entity
      [[0, 0], [4, 4]],
    ];
    const v = view(key, response);
    expect(v.entities).toEqual({ matched: 1, keyOnly: 1, responseOnly: 1 });
    expect(at(v.key, 0, 0).number).toBe(1);
    expect(at(v.response, 0, 0).number).toBe(1);
    // The unmatched ones come after, in document order, key and response together.
    expect(at(v.key, 1, 1)).toMatchObject({ number: 2, matched: false, differences: ["missing"] });
    expect(at(v.key, 6, 6)).toMatchObject({ number: 2, differences: ["missing"] });
    expect(at(v.response, 2, 2)).toMatchObject({ number: 3, matched: false, differences: ["extra"] });
    expect(at(v.key, 0, 0).differences).toEqual([]);
    expect(v.key.differences).toBe(2);
    expect(v.response.differences).toBe(2);
    // Each marked mention names the error involving it, and that error's text uses the shared numbers.
    const missing = v.errors[at(v.key, 1, 1).errors[0]];
    expect(missing.kind).toBe("missing-entity");
    expect(missing.message).toBe("Key entity 2 (2 mentions: [1, 1], [6, 6]) is missing from the response.");
    const extra = v.errors[at(v.response, 2, 2).errors[0]];
    expect(extra.message).toBe("Response entity 3 (2 mentions: [2, 2], [8, 8]) is not in the key.");
  });

  it("marks a boundary error on both sides and keeps the entity's number", () => {
    const key: Entity[] = [[[0, 1], [5, 5]]];
    const response: Entity[] = [[[0, 2], [5, 5]]];
    const v = view(key, response);
    expect(v.entities.matched).toBe(1);
    expect(at(v.key, 0, 1)).toMatchObject({ number: 1, differences: ["boundary"] });
    expect(at(v.response, 0, 2)).toMatchObject({ number: 1, differences: ["boundary"] });
    expect(at(v.response, 5, 5).differences).toEqual([]);
    const error = v.errors[at(v.response, 0, 2).errors[0]];
    expect(error).toMatchObject({ kind: "span", key: [[0, 1]], response: [[0, 2]] });
    expect(error.message).toBe("Response span [0, 2] of entity 1 should be [0, 1] (key entity 1).");
  });

  it("marks the mentions of a divided entity's split-off piece as in the wrong entity", () => {
    // Key entity: 0, 3, 6, 9. The response keeps 0 and 3 together and puts 6 and 9 apart.
    const key: Entity[] = [[[0, 0], [3, 3], [6, 6], [9, 9]]];
    const response: Entity[] = [[[6, 6], [9, 9]], [[0, 0], [3, 3]]];
    const v = view(key, response);
    expect(v.entities).toEqual({ matched: 1, keyOnly: 0, responseOnly: 1 });
    expect(at(v.response, 0, 0).number).toBe(1);
    expect(at(v.response, 6, 6).number).toBe(2);
    for (const [s, e] of [[6, 6], [9, 9]] as Mention[]) {
      expect(at(v.key, s, e).differences).toEqual(["wrong-entity"]);
      expect(at(v.response, s, e).differences).toEqual(["wrong-entity"]);
    }
    expect(at(v.key, 0, 0).differences).toEqual([]);
    const divided = v.errors.find((e) => e.kind === "divided")!;
    expect(divided.message).toBe("Key entity 1 is divided: [6, 6], [9, 9] are in response entity 2, apart from response entity 1.");
    expect(at(v.key, 6, 6).errors).toEqual([v.errors.indexOf(divided)]);
  });

  it("marks the mentions of a conflated entity's split-off piece", () => {
    const key: Entity[] = [[[0, 0], [4, 4]], [[2, 2], [8, 8]]];
    const response: Entity[] = [[[0, 0], [2, 2], [4, 4], [8, 8]]];
    const v = view(key, response);
    expect(v.entities).toEqual({ matched: 1, keyOnly: 1, responseOnly: 0 });
    expect(at(v.key, 0, 0).number).toBe(1);
    expect(at(v.key, 2, 2).number).toBe(2);
    expect(at(v.response, 2, 2).number).toBe(1);
    expect(at(v.key, 2, 2)).toMatchObject({ matched: false, differences: ["wrong-entity"] });
    expect(at(v.response, 8, 8).differences).toEqual(["wrong-entity"]);
    expect(at(v.response, 4, 4).differences).toEqual([]);
    expect(v.errors.find((e) => e.kind === "conflated")!.message).toBe("Response entity 1 conflates key entity 2 ([2, 2], [8, 8]) with key entity 1.");
  });

  it("maps a corrected span of a divided entity back to where the response has it", () => {
    // Response [3, 4] is a span error for key [3, 3], and sits in another response entity.
    const key: Entity[] = [[[0, 0], [3, 3], [7, 7]]];
    const response: Entity[] = [[[0, 0], [7, 7]], [[3, 4], [10, 10]]];
    const v = view(key, response, 20);
    expect(at(v.key, 3, 3).differences).toEqual(["boundary", "wrong-entity"]);
    expect(at(v.response, 3, 4).differences).toEqual(["boundary", "wrong-entity"]);
    const kinds = at(v.response, 3, 4).errors.map((i) => v.errors[i].kind).sort();
    expect(kinds).toEqual(["divided", "span"]);
  });

  it("orders a response entity's pieces in the key's coordinates, as the analysis does", () => {
    // Response [2, 4] is a span error for key [4, 4]: in the key's coordinates it comes after [3, 3].
    const key: Entity[] = [[[4, 4], [10, 10]], [[3, 3], [12, 12]]];
    const response: Entity[] = [[[2, 4], [3, 3], [10, 10], [12, 12]]];
    const v = view(key, response);
    expect(at(v.response, 3, 3)).toMatchObject({ number: at(v.key, 3, 3).number, differences: [] });
    expect(at(v.key, 4, 4)).toMatchObject({ matched: false, differences: ["boundary", "wrong-entity"] });
    expect(v.errors.find((e) => e.kind === "conflated")!.key).toEqual([[4, 4], [10, 10]]);
  });

  it("marks a mention exactly when an error involves it, on random documents", () => {
    const next = random(12);
    for (let round = 0; round < 200; round++) {
      const tokens = 60;
      const key = randomEntities(next, tokens);
      const response = next() < 0.15 ? key.map((e) => [...e]) : perturb(next, key, tokens);
      const v = view(key, response, tokens);
      for (const side of [v.key, v.response]) {
        for (const m of mentions(side)) {
          expect(m.differences.length > 0, `${m.anchor} in round ${round}`).toBe(m.errors.length > 0);
          expect(m.number).toBeGreaterThan(0);
        }
      }
      // A mention the sides agree on shows one number on both.
      for (const m of mentions(v.key)) {
        if (m.differences.length > 0) continue;
        const r = at(v.response, m.start, m.end);
        expect(r.number).toBe(m.number);
        expect(r.colour).toBe(m.colour);
      }
      // Numbers: 1 … pairs + singles, each pair number used by one entity per side.
      const total = v.entities.matched + v.entities.keyOnly + v.entities.responseOnly;
      const used = [...v.keyNumbers, ...v.responseNumbers].filter((n) => n > 0);
      expect(new Set(used)).toEqual(new Set(Array.from({ length: total }, (_, i) => i + 1)));
      expect(new Set(v.keyNumbers.filter((n) => n > 0)).size).toBe(v.keyNumbers.filter((n) => n > 0).length);
      expect(new Set(v.responseNumbers.filter((n) => n > 0)).size).toBe(v.responseNumbers.filter((n) => n > 0).length);
      const keyMatched = new Set(v.keyNumbers.filter((n) => n > 0 && n <= v.entities.matched));
      const responseMatched = new Set(v.responseNumbers.filter((n) => n > 0 && n <= v.entities.matched));
      expect(keyMatched).toEqual(responseMatched);
    }
  });
});

describe("buildDocumentView: structure", () => {
  it("splits the tokens into sentences, skipping bad starts, and leaves out spans outside the document and repeats", () => {
    const key: Entity[] = [[[0, 0], [3, 3], [3, 3], [12, 14]]];
    const v = view(key, key, 10, [0, 4, 4, 2, 7, 99]);
    expect(v.sentences).toEqual([
      [0, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(v.key.outside).toBe(1);
    expect(v.key.repeated).toBe(1);
    expect(mentions(v.key).map((m) => m.anchor)).toEqual(["k-0-0", "k-3-3"]);
    expect(view([], [], 5, []).sentences).toEqual([[0, 5]]);
    expect(view([], [], 0, []).sentences).toEqual([]);
  });

  it("lists nested mentions starting together outermost first", () => {
    const key: Entity[] = [[[2, 2]], [[2, 6]], [[2, 4]]];
    const v = view(key, key, 10);
    expect(v.key.startsAt.get(2)!.map((m) => m.end)).toEqual([6, 4, 2]);
  });

  it("builds a 10,000-token document with thousands of entities whole", () => {
    const next = random(2026);
    const tokens = 10_000;
    const sentenceStarts = Array.from({ length: 500 }, (_, i) => i * 20);
    const key = randomEntities(next, tokens, 1500);
    const response = perturb(next, key, tokens);
    const { errors } = analyzeDocumentErrors(key, response);
    const v = buildDocumentView({ tokenCount: tokens, sentenceStarts, key, response, errors });
    expect(v.sentences).toHaveLength(500);
    expect(v.sentences.at(-1)).toEqual([9980, 10000]);
    const keySpans = new Set(key.flat().map(([s, e]) => `${s}-${e}`));
    expect(mentions(v.key)).toHaveLength(keySpans.size);
    expect(v.key.shown.size).toBe(keySpans.size);
    expect(v.errors).toHaveLength(errors.length);
    expect(v.errors.every((e, i) => e.anchor === `err-${i}`)).toBe(true);
    expect(v.entities.matched).toBeGreaterThan(key.length / 2);
    expect(v.key.differences).toBeGreaterThan(0);
    for (const side of [v.key, v.response]) for (const m of mentions(side)) expect(m.differences.length > 0).toBe(m.errors.length > 0);
  });
});

describe("errorSides", () => {
  it("puts a corrected response span back where the response has it", () => {
    const key: Entity[] = [[[0, 0], [3, 3], [7, 7]]];
    const response: Entity[] = [[[0, 0], [7, 7]], [[3, 4], [10, 10]]];
    const { errors } = analyzeDocumentErrors(key, response);
    const sides = errorSides(errors);
    const divided = errors.findIndex((e) => e.kind === "divided");
    expect(sides[divided]).toEqual({ key: [[3, 3]], response: [[3, 4]] });
    const extra = errors.findIndex((e) => e.kind === "extra-mention");
    expect(sides[extra]).toEqual({ key: [], response: [[10, 10]] });
  });
});

describe("colours", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 6);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 6);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#71717a", "#ffffff")).toBeCloseTo(4.83, 2);
    expect(() => contrastRatio("red", "#ffffff")).toThrow(RangeError);
  });

  it("keeps every text colour of the view at 4.5:1 or more on every entity colour", () => {
    expect(DOC_PALETTE.length).toBeGreaterThanOrEqual(12);
    expect(new Set(DOC_PALETTE.map((c) => c.bg)).size).toBe(DOC_PALETTE.length);
    for (const { bg } of DOC_PALETTE) {
      for (const [what, colour] of Object.entries(DOC_TEXT_COLOURS)) expect(contrastRatio(colour, bg), `${what} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(DOC_DIFFERENCE_COLOURS.text, DOC_DIFFERENCE_COLOURS.bg)).toBeGreaterThanOrEqual(4.5);
  });
});

/** Random entities over `tokens` tokens: distinct spans of one to three tokens, entities of one to six mentions. */
function randomEntities(next: () => number, tokens: number, count = 6): Entity[] {
  const used = new Set<string>();
  const entities: Entity[] = [];
  for (let e = 0; e < count; e++) {
    const size = 1 + Math.floor(next() * 6);
    const entity: Mention[] = [];
    for (let i = 0; i < size; i++) {
      const start = Math.floor(next() * tokens);
      const end = Math.min(tokens - 1, start + Math.floor(next() * 3));
      if (used.has(`${start}-${end}`)) continue;
      used.add(`${start}-${end}`);
      entity.push([start, end]);
    }
    if (entity.length > 0) entities.push(entity);
  }
  return entities;
}

/** A response made from a key with random errors: dropped, moved, re-bounded and added mentions, entities shuffled. */
function perturb(next: () => number, key: Entity[], tokens: number): Entity[] {
  const out: Mention[][] = key.map(() => []);
  const extra: Mention[][] = [[], []];
  key.forEach((entity, e) => {
    for (const m of entity) {
      const roll = next();
      if (roll < 0.1) continue; // missing
      let span: Mention = m;
      if (roll < 0.2) span = [m[0], Math.min(tokens - 1, m[1] + 1)]; // boundary
      const target = roll > 0.9 ? Math.floor(next() * key.length) : e; // wrong entity
      out[target].push(span);
    }
  });
  for (let i = 0; i < 3; i++) {
    const start = Math.floor(next() * tokens);
    extra[i % 2].push([start, start]);
  }
  const all = [...out, ...extra].filter((e) => e.length > 0);
  // Shuffle the entities: the numbers must not depend on the response's order.
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}
