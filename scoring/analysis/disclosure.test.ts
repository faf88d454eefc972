/**
 * Byron's standard disclosure: hand-built corpora with known counts (non-referential
 * tokens, correct and wrong resolutions, pronouns without key antecedent, missing response
 * mentions and documents), the table's exclusion rows and RR, and, when the real data is
 * present, LitBank scored against itself (every referential pronoun correct) with a timing.
 * A literal, quadratic reading of the rule checks the fast one on random small documents.
 */
import fc from "fast-check";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCorpus } from "../formats/index.js";
import { dataDir } from "../test/data-dir.js";
import type { Corpus, Document, Entity } from "../types.js";
import { disclosureTable, pronounDisclosure, type PronounDisclosure } from "./disclosure.js";
import { ENGLISH_PRONOUNS, type PronounLexicon } from "./pronouns.js";

/** A document of the space-separated `text` whose entities are lists of [start, end]. */
function doc(id: string, text: string, entities: [number, number][][]): Document {
  return {
    id,
    name: id,
    part: null,
    tokens: text === "" ? [] : text.split(" "),
    sentenceStarts: [0],
    entities: entities.map((e) => e.map(([s, t]) => [s, t] as const) as Entity),
    line: 1,
  };
}

function corpus(...documents: Document[]): Corpus {
  return { file: "test.conll", documents, warnings: [] };
}

/** The columns as `form: raw/nonReferential/referential/correct`. */
function summary(d: PronounDisclosure): string[] {
  return d.columns.map((c) => `${c.form}: ${c.raw}/${c.nonReferential}/${c.referential}/${c.correct}`);
}

// Token indices:       0    1    2  3   4  5    6 7    8   9   10 11  12     13 14 15  16  17 18   19   20
const TEXT_1 = "John said he saw it rain . Mary met him . She smiled . I know you . They left .";
const KEY_1 = doc("d1", TEXT_1, [
  [[0, 0], [2, 2], [9, 9]], // John, he, him
  [[7, 7], [11, 11]], // Mary, She
  [[14, 14]], // I: a singleton
  [[16, 16]], // you: a singleton
  [[18, 18]], // They: a singleton ("it" at 4 is no mention: non-referential)
]);
const RESPONSE_1 = doc("d1", TEXT_1, [
  [[0, 0], [2, 2]], // he -> John: correct
  [[7, 7], [9, 9]], // him -> Mary, a different key entity: wrong
  // She (11) has no response mention: wrong, it has a key antecedent
  [[14, 14]], // I left alone: correct
  [[1, 1], [16, 16]], // you given a spurious antecedent: wrong
  // They (18) has no response mention and no key antecedent: correct
]);

describe("pronounDisclosure", () => {
  it("counts raw, non-referential, referential and correct per form present in the key", () => {
    const d = pronounDisclosure(corpus(KEY_1), corpus(RESPONSE_1), ENGLISH_PRONOUNS);
    expect(d.language).toBe("en");
    expect(d.columns.map((c) => c.form)).toEqual(["i", "you", "he", "him", "she", "it", "they"]);
    expect(summary(d)).toEqual([
      "i: 1/0/1/1", // no key antecedent, left alone
      "you: 1/0/1/0", // no key antecedent, given one
      "he: 1/0/1/1", // resolved to its antecedent
      "him: 1/0/1/0", // linked to a different entity
      "she: 1/0/1/0", // missing response mention ("She" is lower-cased)
      "it: 1/1/0/0", // not a key mention
      "they: 1/0/1/1", // no key antecedent, no response mention
    ]);
    expect(d.total).toEqual({ raw: 7, nonReferential: 1, referential: 6, correct: 3 });
    expect(d.columns[2].categories).toEqual(["third-person", "singular", "personal"]);
  });

  it("the key against itself resolves every referential pronoun", () => {
    const d = pronounDisclosure(corpus(KEY_1), corpus(KEY_1), ENGLISH_PRONOUNS);
    expect(d.total).toEqual({ raw: 7, nonReferential: 1, referential: 6, correct: 6 });
  });

  it("a key document missing from the response is read against an empty response", () => {
    // 0   1   2   3      4 5  6     7 8   9      10   11
    const key = doc("d2", "The cat saw itself . It slept . His mother came .", [
      [[0, 1], [3, 3], [5, 5]], // the cat, itself, It
      [[8, 9]], // "His mother": a larger span does not make "His" referential
    ]);
    const d = pronounDisclosure(corpus(key), corpus(doc("other", "it", [[[0, 0]]])), ENGLISH_PRONOUNS);
    expect(summary(d)).toEqual(["it: 1/0/1/0", "his: 1/1/0/0", "itself: 1/0/1/0"]);
    const empty = pronounDisclosure(corpus(key), corpus(doc("d2", "", [])), ENGLISH_PRONOUNS);
    expect(empty).toEqual(d);
    // Without a key antecedent, an empty response is right.
    const alone = doc("d3", "She left .", [[[0, 0]]]);
    expect(summary(pronounDisclosure(corpus(alone), corpus(), ENGLISH_PRONOUNS))).toEqual(["she: 1/0/1/1"]);
  });

  it("a cataphor has no antecedent: a response linking it only to later mentions is right", () => {
    // 0      1   2    3 4    5    6 7   8    9
    const text = "Before she came , Mary sang . She left .";
    const key = doc("c", text, [[[1, 1], [4, 4], [7, 7]]]);
    const linked = pronounDisclosure(corpus(key), corpus(key), ENGLISH_PRONOUNS);
    expect(summary(linked)).toEqual(["she: 2/0/2/2"]);
    // The cataphor given a preceding mention ("Before") is wrong; the later She, linked to
    // the cataphor (a key antecedent) but not to Mary, is right.
    const response = doc("c", text, [[[0, 0], [1, 1], [7, 7]], [[4, 4]]]);
    expect(summary(pronounDisclosure(corpus(key), corpus(response), ENGLISH_PRONOUNS))).toEqual(["she: 2/0/2/1"]);
  });

  it("any key antecedent counts, not only the nearest; precedence is by start", () => {
    // 0   1   2 3   4    5 6   7    8    9
    const text = "Ann ran . She fell . Her knee hurt .";
    const key = doc("a", text, [[[0, 0], [3, 3], [6, 6]], [[6, 7]]]);
    const response = doc("a", text, [[[0, 0], [6, 6]], [[3, 3]], [[6, 7]]]);
    // She: its response entity holds no key antecedent -> wrong. Her: linked to Ann, not
    // to the nearer She -> right. [6, 7] starts at 6, not before 6: no antecedent of Her.
    expect(summary(pronounDisclosure(corpus(key), corpus(response), ENGLISH_PRONOUNS))).toEqual([
      "she: 1/0/1/0",
      "her: 1/0/1/1",
    ]);
    // A mention that starts at the pronoun and is longer does not precede it.
    const after = doc("a", text, [[[0, 0], [3, 3]], [[6, 6], [6, 7]]]);
    const keyAfter = doc("a", text, [[[0, 0], [3, 3]], [[6, 6], [6, 7]]]);
    expect(summary(pronounDisclosure(corpus(keyAfter), corpus(after), ENGLISH_PRONOUNS))).toEqual([
      "she: 1/0/1/1",
      "her: 1/0/1/1",
    ]);
  });

  it("a span in several entities: any of them may satisfy the rule", () => {
    // 0   1 2   3    4  5
    const text = "Bob . Sue saw them .";
    // "them" is in two key entities; the response links it to Sue only -> right.
    const key = doc("m", text, [[[0, 0], [4, 4]], [[2, 2], [4, 4]]]);
    const response = doc("m", text, [[[2, 2], [4, 4]]]);
    expect(summary(pronounDisclosure(corpus(key), corpus(response), ENGLISH_PRONOUNS))).toEqual(["them: 1/0/1/1"]);
    // "them" in two response entities, one of which reaches a key antecedent -> right.
    const key2 = doc("m", text, [[[0, 0], [4, 4]]]);
    const response2 = doc("m", text, [[[2, 2], [4, 4]], [[0, 0], [4, 4]]]);
    expect(summary(pronounDisclosure(corpus(key2), corpus(response2), ENGLISH_PRONOUNS))).toEqual(["them: 1/0/1/1"]);
    const response3 = doc("m", text, [[[2, 2], [4, 4]]]);
    expect(summary(pronounDisclosure(corpus(key2), corpus(response3), ENGLISH_PRONOUNS))).toEqual(["them: 1/0/1/0"]);
  });

  it("matches documents by id, ignores response-only documents, sums over documents", () => {
    const other = doc("d9", "he he", [[[0, 0], [1, 1]]]);
    const d = pronounDisclosure(corpus(KEY_1, other), corpus(other, doc("zz", "he", [[[0, 0]]]), RESPONSE_1), ENGLISH_PRONOUNS);
    expect(d.columns.find((c) => c.form === "he")).toMatchObject({ raw: 3, referential: 3, correct: 3 });
    expect(d.total).toEqual({ raw: 9, nonReferential: 1, referential: 8, correct: 5 });
  });

  it("uses the lexicon given, in its order, and refuses a malformed one", () => {
    const lexicon: PronounLexicon = { language: "xx", types: [{ form: "mary", categories: ["name"] }, { form: "he", categories: [] }] };
    const d = pronounDisclosure(corpus(KEY_1), corpus(RESPONSE_1), lexicon);
    expect(d.language).toBe("xx");
    expect(summary(d)).toEqual(["mary: 1/0/1/1", "he: 1/0/1/1"]);
    expect(() => pronounDisclosure(corpus(KEY_1), corpus(), { language: "en", types: [{ form: "He", categories: [] }] })).toThrow(RangeError);
    expect(() =>
      pronounDisclosure(corpus(KEY_1), corpus(), { language: "en", types: [{ form: "he", categories: [] }, { form: "he", categories: [] }] }),
    ).toThrow(RangeError);
  });

  it("an empty key gives no columns and zero totals", () => {
    const d = pronounDisclosure(corpus(), corpus(), ENGLISH_PRONOUNS);
    expect(d).toEqual({ language: "en", columns: [], total: { raw: 0, nonReferential: 0, referential: 0, correct: 0 } });
    expect(disclosureTable(d, ["first-person"]).rows.find((r) => r.id === "rr")!.values).toEqual([null]);
  });
});

/**
 * The rule read literally (module docstring of disclosure.ts), quadratic and obviously so:
 * per pronoun token, scan every key and response entity.
 */
function literalDisclosure(key: Corpus, response: Corpus, lexicon: PronounLexicon): PronounDisclosure {
  const counts = lexicon.types.map(() => ({ raw: 0, referential: 0, correct: 0 }));
  const same = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];
  const precedes = (m: readonly number[], i: number) => m[0] < i || (m[0] === i && m[1] < i);
  for (const k of key.documents) {
    const r = response.documents.filter((d) => d.id === k.id).at(-1);
    const rEntities = r?.entities ?? [];
    k.tokens.forEach((text, i) => {
      const t = lexicon.types.findIndex((x) => x.form === text.toLowerCase());
      if (t < 0) return;
      counts[t].raw++;
      const holdersK = k.entities.filter((e) => e.some((m) => same(m, [i, i])));
      if (holdersK.length === 0) return;
      counts[t].referential++;
      const holdersR = rEntities.filter((e) => e.some((m) => same(m, [i, i])));
      const ok = holdersK.some((K) => {
        const antecedents = K.filter((m) => precedes(m, i));
        if (antecedents.length > 0) return holdersR.some((R) => R.some((m) => antecedents.some((a) => same(a, m))));
        return holdersR.length === 0 || holdersR.some((R) => !R.some((m) => precedes(m, i)));
      });
      if (ok) counts[t].correct++;
    });
  }
  const columns = lexicon.types.flatMap((x, t) =>
    counts[t].raw === 0
      ? []
      : [{ form: x.form, categories: x.categories, raw: counts[t].raw, nonReferential: counts[t].raw - counts[t].referential, referential: counts[t].referential, correct: counts[t].correct }],
  );
  const sum = (f: (c: (typeof columns)[number]) => number) => columns.reduce((a, c) => a + f(c), 0);
  return {
    language: lexicon.language,
    columns,
    total: { raw: sum((c) => c.raw), nonReferential: sum((c) => c.nonReferential), referential: sum((c) => c.referential), correct: sum((c) => c.correct) },
  };
}

describe("pronounDisclosure against the literal rule", () => {
  const WORDS = ["he", "She", "it", "x", "y", "IT"];
  const span = fc.tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 2 })).map(([s, len]) => [s, Math.min(11, s + len)] as const);
  // Short spans are often one token, entities may share spans (both sides), singletons abound.
  const entities = fc.array(fc.array(fc.oneof(span, span.map(([s]) => [s, s] as const)), { minLength: 1, maxLength: 5 }), { maxLength: 6 }) as fc.Arbitrary<Entity[]>;
  const tokens = fc.array(fc.constantFrom(...WORDS), { minLength: 12, maxLength: 12 });
  const lexicon: PronounLexicon = { language: "t", types: [{ form: "it", categories: [] }, { form: "she", categories: [] }, { form: "he", categories: [] }] };

  it("agrees on random documents, with a missing response document now and then", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tokens, entities, entities, fc.boolean()), { minLength: 1, maxLength: 3 }), (docs) => {
        const key = corpus(...docs.map(([t, k], n) => ({ ...doc(`d${n}`, t.join(" "), []), entities: k })));
        const response = corpus(...docs.flatMap(([t, , r, missing], n) => (missing ? [] : [{ ...doc(`d${n}`, t.join(" "), []), entities: r }])));
        expect(pronounDisclosure(key, response, lexicon)).toEqual(literalDisclosure(key, response, lexicon));
      }),
      { numRuns: 3000 },
    );
  });

  it("stays linear for a response repeating one span in many entities", () => {
    const n = 20_000;
    const text = Array.from({ length: n }, () => "he").join(" ");
    const key = doc("big", text, [Array.from({ length: n }, (_, i) => [i, i] as [number, number])]);
    const response = doc("big", text, Array.from({ length: n }, (_, r) => [[0, 0], [r, r]] as [number, number][]));
    // A quadratic implementation would take minutes here and hit the test timeout.
    const d = pronounDisclosure(corpus(key), corpus(response), ENGLISH_PRONOUNS);
    // Every "he" after the first shares [0, 0] with the key; the first has no key
    // antecedent and every response entity holding [0, 0] starts at 0: correct too.
    expect(summary(d)).toEqual([`he: ${n}/0/${n}/${n}`]);
  });
});

describe("disclosureTable", () => {
  const d = pronounDisclosure(corpus(KEY_1), corpus(RESPONSE_1), ENGLISH_PRONOUNS);
  const byId = (rows: { id: string; values: (number | null)[] }[]) => Object.fromEntries(rows.map((r) => [r.id, r.values]));

  it("without exclusions: D is 0, E = C, RR = correct / C", () => {
    const t = disclosureTable(d, []);
    expect(t.columns).toEqual(["i", "you", "he", "him", "she", "it", "they", "Total"]);
    expect(t.rows.map((r) => [r.id, r.label])).toEqual([
      ["raw", "A: Raw word count"],
      ["non-referential", "B: Non-referential (not a key mention)"],
      ["referential", "C: Total referential (A − B)"],
      ["excluded", "D: Sum of referential exclusions"],
      ["evaluation", "E: Evaluation set (C − D)"],
      ["correct", "Correct resolutions (in the evaluation set)"],
      ["rr", "Resolution rate RR = correct / C"],
    ]);
    expect(byId(t.rows)).toEqual({
      raw: [1, 1, 1, 1, 1, 1, 1, 7],
      "non-referential": [0, 0, 0, 0, 0, 1, 0, 1],
      referential: [1, 1, 1, 1, 1, 0, 1, 6],
      excluded: [0, 0, 0, 0, 0, 0, 0, 0],
      evaluation: [1, 1, 1, 1, 1, 0, 1, 6],
      correct: [1, 0, 1, 0, 0, 0, 1, 3],
      rr: [1, 0, 1, 0, 0, null, 1, 0.5],
    });
  });

  it("excluding first and second person: one row each, D, E and correct in the evaluation set", () => {
    const t = disclosureTable(d, ["first-person", "second-person"]);
    expect(t.rows.map((r) => r.id)).toEqual([
      "raw",
      "non-referential",
      "referential",
      "exclusion:first-person",
      "exclusion:second-person",
      "excluded",
      "evaluation",
      "correct",
      "rr",
    ]);
    expect(t.rows[3].label).toBe("Excluded: first-person");
    expect(byId(t.rows)).toMatchObject({
      "exclusion:first-person": [1, 0, 0, 0, 0, 0, 0, 1],
      "exclusion:second-person": [0, 1, 0, 0, 0, 0, 0, 1],
      excluded: [1, 1, 0, 0, 0, 0, 0, 2],
      evaluation: [0, 0, 1, 1, 1, 0, 1, 4],
      // "i" was resolved correctly but is excluded: it no longer counts.
      correct: [0, 0, 1, 0, 0, 0, 1, 2],
      // RR keeps C (all referential pronouns) as its denominator: 2 / 6.
      rr: [0, 0, 1, 0, 0, null, 1, 2 / 6],
    });
  });

  it("a token is counted under the first excluded category it has; unused categories get no row", () => {
    const t = disclosureTable(d, ["plural", "first-person", "demonstrative", "plural"]);
    expect(t.rows.map((r) => r.id).filter((id) => id.startsWith("exclusion:"))).toEqual([
      "exclusion:plural",
      "exclusion:first-person",
    ]);
    expect(byId(t.rows)).toMatchObject({
      "exclusion:plural": [0, 1, 0, 0, 0, 0, 1, 2], // you (singular and plural), they
      "exclusion:first-person": [1, 0, 0, 0, 0, 0, 0, 1],
      excluded: [1, 1, 0, 0, 0, 0, 1, 3],
      evaluation: [0, 0, 1, 1, 1, 0, 0, 3],
      correct: [0, 0, 1, 0, 0, 0, 0, 1],
      rr: [0, 0, 1, 0, 0, null, 0, 1 / 6],
    });
    // "singular" first takes every singular form, so first-person gets no row.
    const s = disclosureTable(d, ["singular", "first-person"]);
    expect(s.rows.map((r) => r.id).filter((id) => id.startsWith("exclusion:"))).toEqual(["exclusion:singular"]);
    expect(byId(s.rows)["exclusion:singular"]).toEqual([1, 1, 1, 1, 1, 0, 0, 5]);
  });
});

const data = dataDir();
if (!data) console.log("skipping the LitBank pronoun disclosure: no ../shared/data next to the repo and COREFBOARD_DATA_DIR is not set");

describe.skipIf(!data)("LitBank key against itself", () => {
  it("resolves every referential pronoun of every column, fast", () => {
    const dir = join(data!, "litbank/conll");
    const files = readdirSync(dir).filter((f) => f.endsWith(".conll")).sort();
    const key: Corpus = { file: "litbank", documents: [], warnings: [] };
    for (const f of files) key.documents.push(...readCorpus(readFileSync(join(dir, f)), f).documents);
    expect(key.documents).toHaveLength(100);
    const tokens = key.documents.reduce((n, doc) => n + doc.tokens.length, 0);

    // Speed is measured by `npm run bench` (case d), not here.
    const d: PronounDisclosure | undefined = pronounDisclosure(key, key, ENGLISH_PRONOUNS);
    const table = disclosureTable(d!, ["first-person", "second-person"]);
    console.log(
      `LitBank (${key.documents.length} documents, ${tokens} tokens): ` +
        `A=${d!.total.raw} B=${d!.total.nonReferential} C=${d!.total.referential} correct=${d!.total.correct}; ` +
        `E without 1st/2nd person = ${table.rows.find((r) => r.id === "evaluation")!.values.at(-1)}`,
    );
    expect(d!.columns.length).toBeGreaterThan(20);
    for (const c of d!.columns) {
      expect(c.correct, c.form).toBe(c.referential);
      expect(c.raw, c.form).toBe(c.nonReferential + c.referential);
    }
    expect(d!.total.referential).toBeGreaterThan(5000);
    expect(table.rows.find((r) => r.id === "rr")!.values.at(-1)).toBeLessThan(1);
    expect(disclosureTable(d!, []).rows.find((r) => r.id === "rr")!.values.at(-1)).toBe(1);
  });
});
