/**
 * Byron's "standard disclosure" of pronoun resolution results and her resolution rate,
 * computed for one run (a response corpus) against a key corpus.
 *
 * Source: Donna K. Byron (2001), "The Uncommon Denominator: A Proposal for Consistent
 * Reporting of Pronoun Resolution Results", Computational Linguistics 27(4) (ACL Anthology
 * J01-4006), Section 3 and Table 2. There, row A is the raw word count per pronoun type,
 * B the non-referential tokens, C = A − B the referential ones, D the referential tokens
 * excluded from the study, E = C − D the evaluation set, and the resolution rate is
 * RR = correct / C (her C / (T + E): correct over all referential pronouns, so excluded
 * referential pronouns count as unresolved).
 *
 * Definitions used here, per key document, summed over documents:
 * - Columns: one per lexicon type whose raw count in the key text is > 0, in lexicon order.
 * - A, raw: the key tokens whose text, lower-cased (`String.prototype.toLowerCase`), equals
 *   the type's form. Only the key's token texts are read; a key without token texts
 *   (empty strings) counts nothing.
 * - Referential: the token at index i is itself a key mention, i.e. some key entity has the
 *   one-token span [i, i]. B, non-referential = raw − referential; C = A − B.
 *   Limitation: the key decides what is referential, so a corpus that does not annotate
 *   singletons (OntoNotes) counts its unannotated referential pronouns as
 *   non-referential; and a larger key span containing the pronoun ("his mother") does not
 *   make the pronoun token referential.
 * - Correct: for a referential pronoun [i, i] in key entity K, its key antecedents are the
 *   mentions of K that precede [i, i] in (start, end) order, i.e. start before i.
 *   - If K has antecedents, the pronoun is correct when the response has the mention
 *     [i, i] and its response entity holds at least one span equal to one of those
 *     antecedents (any antecedent, not necessarily the nearest).
 *   - If K has none (a first mention, a cataphor, a singleton), it is correct when the
 *     response gives it no antecedent either: the response has no [i, i] mention, or the
 *     response entity holding [i, i] has no mention starting before i.
 *   - When [i, i] is in several key entities, or in several response entities, any of them
 *     may satisfy the rule (the pronoun is counted once either way).
 * - Documents are matched by id as `evaluate` does: a key document missing from the
 *   response is read against an empty response (its referential pronouns with a key
 *   antecedent are wrong, those without are correct); response-only documents are ignored.
 *   Unlike `evaluate`, a span repeated in the response is kept in every entity holding it.
 * - Exclusions (`disclosureTable`): a referential token is excluded when any of its form's
 *   categories is excluded; excluded tokens leave the evaluation set and their
 *   resolutions do not count as correct, but they stay in C.
 */
import { spanKey, type Corpus, type Document, type Entity } from "../types.js";
import type { PronounLexicon } from "./pronouns.js";

/** The counts of one pronoun type (one disclosure column). All counts are token counts. */
export interface DisclosureColumn {
  /** The pronoun form (lower case). */
  form: string;
  /** The form's categories, from the lexicon. */
  categories: string[];
  /** Row A: key tokens of this form. */
  raw: number;
  /** Row B: those that are not a one-token key mention (raw − referential). */
  nonReferential: number;
  /** Row C: those that are a one-token key mention. */
  referential: number;
  /** Referential tokens the response resolves correctly (rule in the module docstring). */
  correct: number;
}

/** The pronoun counts of one run: a column per pronoun type seen in the key, and totals. */
export interface PronounDisclosure {
  /** The lexicon's language. */
  language: string;
  /** One column per lexicon type with raw > 0, in lexicon order. */
  columns: DisclosureColumn[];
  /** The sums of every column's counts. */
  total: Omit<DisclosureColumn, "form" | "categories">;
}

/**
 * Counts the standard disclosure's rows A (raw), B (non-referential), C (referential) and
 * the correct resolutions per pronoun type (definitions in the module docstring).
 *
 * @param key the key corpus (its token texts and entities)
 * @param response the response corpus; its documents are matched to the key's by id
 * @param lexicon the pronoun types to count, e.g. `ENGLISH_PRONOUNS`
 * @returns the lexicon's language, one column per type with raw > 0 (lexicon order) and the
 *   column sums; all values are token counts
 * @throws RangeError when the lexicon lists a form twice or a form that is not lower case
 *   (a caller's bug: `parsePronounLexicon` never returns such a lexicon)
 */
export function pronounDisclosure(key: Corpus, response: Corpus, lexicon: PronounLexicon): PronounDisclosure {
  const typeOf = new Map<string, number>();
  lexicon.types.forEach((t, index) => {
    if (t.form !== t.form.toLowerCase()) throw new RangeError(`pronoun form ${JSON.stringify(t.form)} is not lower case`);
    if (typeOf.has(t.form)) throw new RangeError(`pronoun form ${JSON.stringify(t.form)} is listed twice`);
    typeOf.set(t.form, index);
  });
  const n = lexicon.types.length;
  const raw = new Array<number>(n).fill(0);
  const referential = new Array<number>(n).fill(0);
  const correct = new Array<number>(n).fill(0);

  const responseById = new Map<string, Document>(response.documents.map((d) => [d.id, d]));

  // Token text as written -> lexicon type (-1: none), so each distinct text is lower-cased once.
  const typeOfText = new Map<string, number>();
  const lookup = (text: string): number => {
    let type = typeOfText.get(text);
    if (type === undefined) {
      type = typeOf.get(text.toLowerCase()) ?? -1;
      typeOfText.set(text, type);
    }
    return type;
  };
  for (const keyDoc of key.documents) {
    countDocument(keyDoc, responseById.get(keyDoc.id)?.entities ?? [], lookup, raw, referential, correct);
  }

  const columns: DisclosureColumn[] = [];
  const total = { raw: 0, nonReferential: 0, referential: 0, correct: 0 };
  lexicon.types.forEach((t, index) => {
    if (raw[index] === 0) return;
    const column: DisclosureColumn = {
      form: t.form,
      categories: [...t.categories],
      raw: raw[index],
      nonReferential: raw[index] - referential[index],
      referential: referential[index],
      correct: correct[index],
    };
    columns.push(column);
    total.raw += column.raw;
    total.nonReferential += column.nonReferential;
    total.referential += column.referential;
    total.correct += column.correct;
  });
  return { language: lexicon.language, columns, total };
}

/** Adds one key document's raw, referential and correct counts per lexicon type. */
function countDocument(
  doc: Document,
  responseEntities: readonly Entity[],
  typeOf: (text: string) => number,
  raw: number[],
  referential: number[],
  correct: number[],
): void {
  // The pronoun tokens, by lexicon type.
  const positions: number[] = [];
  const types: number[] = [];
  const tokens = doc.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const type = typeOf(tokens[i]);
    if (type < 0) continue;
    raw[type]++;
    positions.push(i);
    types.push(type);
  }
  if (positions.length === 0) return;

  // Key entities holding each one-token span [i, i], and each key entity's first start.
  // Entity indices are pushed in increasing order, so a repeat is always the last one.
  const keyEntities = doc.entities;
  const keyAt = new Map<number, number[]>();
  const keyFirst: number[] = [];
  keyEntities.forEach((entity, e) => {
    let first = Infinity;
    for (const [start, end] of entity) {
      if (start < first) first = start;
      if (start !== end) continue;
      const held = keyAt.get(start);
      if (held === undefined) keyAt.set(start, [e]);
      else if (held[held.length - 1] !== e) held.push(e);
    }
    keyFirst.push(first);
  });

  // Response entities holding each span, and each response entity's first start; built
  // when the first referential pronoun needs them.
  let responseAt: Map<number, number[]> | null = null;
  const responseFirst: number[] = [];
  const indexResponse = (): Map<number, number[]> => {
    const at = new Map<number, number[]>();
    responseEntities.forEach((entity, r) => {
      let first = Infinity;
      for (const [start, end] of entity) {
        if (start < first) first = start;
        const k = spanKey(start, end);
        const held = at.get(k);
        if (held === undefined) at.set(k, [r]);
        else if (held[held.length - 1] !== r) held.push(r);
      }
      responseFirst.push(first);
    });
    return at;
  };

  // For a key entity K: response entity -> the first start of a span it shares with K. A
  // response entity holds a key antecedent of [i, i] (a mention of K starting before i)
  // exactly when that first start is below i. Built once per key entity that needs it.
  const sharedFirst = new Map<number, Map<number, number>>();
  const sharedWith = (k: number, at: ReadonlyMap<number, number[]>): Map<number, number> => {
    let shared = sharedFirst.get(k);
    if (shared === undefined) {
      shared = new Map();
      for (const [start, end] of keyEntities[k]) {
        const there = at.get(spanKey(start, end));
        if (there === undefined) continue;
        for (const r of there) {
          const first = shared.get(r);
          if (first === undefined || start < first) shared.set(r, start);
        }
      }
      sharedFirst.set(k, shared);
    }
    return shared;
  };

  for (let p = 0; p < positions.length; p++) {
    const i = positions[p];
    const inKey = keyAt.get(i);
    if (inKey === undefined) continue;
    const type = types[p];
    referential[type]++;
    responseAt ??= indexResponse();
    const holders = responseAt.get(spanKey(i, i));
    let ok = false;
    for (const k of inKey) {
      if (keyFirst[k] < i) {
        // K has antecedents: some response entity holding [i, i] must hold one of them.
        if (holders !== undefined) {
          const shared = sharedWith(k, responseAt);
          ok = holders.some((r) => (shared.get(r) ?? Infinity) < i);
        }
      } else {
        // No key antecedent: the response must not give [i, i] one either.
        ok = holders === undefined || holders.some((r) => responseFirst[r] >= i);
      }
      if (ok) break;
    }
    if (ok) correct[type]++;
  }
}

/** One row of a disclosure table. */
export interface DisclosureRow {
  /** A stable id: `raw`, `non-referential`, `referential`, `exclusion:<category>`,
   * `excluded`, `evaluation`, `correct`, `rr`. */
  id: string;
  /** The row heading, e.g. `"A: Raw word count"`. */
  label: string;
  /** One value per column, then the total: token counts, or for `rr` fractions in [0, 1]
   * (`null` where C is 0). */
  values: (number | null)[];
}

/** A standard disclosure laid out as a table. */
export interface DisclosureTable {
  /** The column headings: the pronoun forms, then `"Total"`. */
  columns: string[];
  rows: DisclosureRow[];
}

/**
 * Lays out a `PronounDisclosure` as Byron's (2001) Table 2, with referential exclusions by
 * category.
 *
 * A referential token is excluded when any of its form's categories is in
 * `excludedCategories`; it is counted in the row of the first such category in
 * `excludedCategories` order, so no token is counted twice. Exclusions only move tokens
 * from E to D: C, and so RR's denominator, stays the same.
 *
 * @param d the counts from `pronounDisclosure`
 * @param excludedCategories categories whose pronouns leave the evaluation set (order
 *   decides the row a token is counted in; repeats and categories no column has are
 *   ignored)
 * @returns columns = the forms of `d.columns` then `"Total"`; rows, in order:
 *   `raw` "A: Raw word count"; `non-referential` "B: Non-referential (not a key mention)";
 *   `referential` "C: Total referential (A − B)"; one `exclusion:<category>` row
 *   "Excluded: <category>" per category that at least one column is counted under, in
 *   `excludedCategories` order; `excluded` "D: Sum of referential exclusions";
 *   `evaluation` "E: Evaluation set (C − D)"; `correct` "Correct resolutions (in the
 *   evaluation set)"; `rr` "Resolution rate RR = correct / C", a fraction in [0, 1] or
 *   `null` when C is 0. Every count row's total is the sum of its columns; RR's total is
 *   total correct / total C. With no exclusions D is 0 and E = C.
 * @throws nothing
 */
export function disclosureTable(d: PronounDisclosure, excludedCategories: readonly string[]): DisclosureTable {
  const order = [...new Set(excludedCategories)];
  // The exclusion category each column is counted under (or null when it is kept).
  const excludedUnder = d.columns.map((c) => order.find((cat) => c.categories.includes(cat)) ?? null);

  const withTotal = (values: number[]): number[] => [...values, values.reduce((a, b) => a + b, 0)];
  const raw = d.columns.map((c) => c.raw);
  const nonReferential = d.columns.map((c) => c.nonReferential);
  const referential = d.columns.map((c) => c.referential);
  const excluded = d.columns.map((c, j) => (excludedUnder[j] === null ? 0 : c.referential));
  const evaluation = d.columns.map((c, j) => c.referential - excluded[j]);
  const correct = d.columns.map((c, j) => (excludedUnder[j] === null ? c.correct : 0));

  const rows: DisclosureRow[] = [
    { id: "raw", label: "A: Raw word count", values: withTotal(raw) },
    { id: "non-referential", label: "B: Non-referential (not a key mention)", values: withTotal(nonReferential) },
    { id: "referential", label: "C: Total referential (A − B)", values: withTotal(referential) },
  ];
  for (const category of order) {
    if (!excludedUnder.includes(category)) continue;
    rows.push({
      id: `exclusion:${category}`,
      label: `Excluded: ${category}`,
      values: withTotal(d.columns.map((c, j) => (excludedUnder[j] === category ? c.referential : 0))),
    });
  }
  const correctRow = withTotal(correct);
  const referentialRow = withTotal(referential);
  rows.push(
    { id: "excluded", label: "D: Sum of referential exclusions", values: withTotal(excluded) },
    { id: "evaluation", label: "E: Evaluation set (C − D)", values: withTotal(evaluation) },
    { id: "correct", label: "Correct resolutions (in the evaluation set)", values: correctRow },
    {
      id: "rr",
      label: "Resolution rate RR = correct / C",
      values: correctRow.map((c, j) => (referentialRow[j] === 0 ? null : c / referentialRow[j])),
    },
  );
  return { columns: [...d.columns.map((c) => c.form), "Total"], rows };
}
