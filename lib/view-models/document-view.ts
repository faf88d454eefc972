/**
 * The view model of one document's error view (`/submissions/<id>/documents/<document>`):
 * key and response entities under ONE numbering, the mentions that differ between the two
 * sides, and the Kummerfeld & Klein (2013) errors reworded with those numbers.
 *
 * Pairing (which key entity and which response entity share a number). The error analysis
 * (`scoring/analysis/errors.ts`) already decides, for each entity, which entity of the other
 * side it "stays" with: it splits a key entity into pieces by response entity and keeps the
 * piece holding the earliest shared mention (the other pieces are "divided" errors), and
 * splits a response entity by key entity the same way (the other pieces are "conflated"
 * errors); a response mention paired with a key mention by a span error counts as having the
 * key's span. A key entity K and a response entity R are PAIRED when each is the other's
 * staying piece. That pairing is one to one, it is the error analysis's own, and it has the
 * property the page needs: a mention is marked as a difference exactly when some error
 * involves it:
 * - "missing": a key mention with no response mention (missing-mention, missing-entity);
 * - "extra": a response mention with no key mention (extra-mention, extra-entity);
 * - "boundary": a key and a response mention paired by a span error (span);
 * - "wrong-entity": a mention whose counterpart on the other side lies in an entity that is
 *   not its entity's partner, so it shows another number there (divided, conflated).
 * A perfect response therefore shows identical sides with nothing marked.
 *
 * Numbering (1-based, one number per pair): paired entities first, in document order of
 * their earliest mention on either side (ties: lower key index); then the entities without
 * a partner, key and response together, in the same order (ties: key before response, then
 * index). Colour `(number - 1) mod DOC_PALETTE.length`; the number is always shown next to
 * the colour, so colour is never the only signal.
 *
 * Repeated spans (a span given twice on one side) count once, where they first appear
 * (entity order, then mention order), as the error analysis counts them. Spans outside the
 * document's tokens take part in the pairing (the analysis counts them) but are not shown.
 *
 * Everything is linear in tokens + mentions + error spans (plus sorting); nothing throws for
 * entities and errors as `getDocumentAnalysis` returns them.
 */
import type { CorefError, ErrorKind } from "../../scoring/analysis/index";
import type { Entity, Mention } from "../../scoring/index";

/** An inclusive token span `[start, end]`. */
export type Span = Mention;

/** A side of the text. */
export type DocSide = "key" | "response";

/** How a shown mention differs from the other side (see the module doc). */
export type DifferenceKind = "missing" | "extra" | "boundary" | "wrong-entity";

/** Short labels of the differences, as the text shows them next to a marked mention. */
export const DIFFERENCE_LABELS: Record<DifferenceKind, string> = {
  missing: "missing",
  extra: "extra",
  boundary: "boundary",
  "wrong-entity": "wrong entity",
};

/**
 * The entity colours: a light background (`bg`) with dark text, and a darker border. Every
 * background keeps {@link DOC_TEXT_COLOURS} at a contrast of at least 4.5:1 (WCAG AA, checked
 * by the unit test). Neighbouring numbers get neighbouring entries, so the hues alternate.
 */
export const DOC_PALETTE: readonly { bg: string; border: string }[] = [
  { bg: "#e0f2fe", border: "#0369a1" }, // sky
  { bg: "#fef3c7", border: "#b45309" }, // amber
  { bg: "#d1fae5", border: "#047857" }, // emerald
  { bg: "#fce7f3", border: "#be185d" }, // pink
  { bg: "#ede9fe", border: "#6d28d9" }, // violet
  { bg: "#d9f99d", border: "#4d7c0f" }, // lime
  { bg: "#ffedd5", border: "#c2410c" }, // orange
  { bg: "#ccfbf1", border: "#0f766e" }, // teal
  { bg: "#fae8ff", border: "#a21caf" }, // fuchsia
  { bg: "#e7e5e4", border: "#57534e" }, // stone
  { bg: "#e0e7ff", border: "#4338ca" }, // indigo
  { bg: "#fef08a", border: "#a16207" }, // yellow
  { bg: "#cffafe", border: "#0e7490" }, // cyan
  { bg: "#e9d5ff", border: "#7e22ce" }, // purple
  { bg: "#bbf7d0", border: "#15803d" }, // green
  { bg: "#bfdbfe", border: "#1d4ed8" }, // blue
];

/** The text drawn on an entity colour: tokens, the entity number, the brackets. */
export const DOC_TEXT_COLOURS = { text: "#18181b", number: "#18181b", bracket: "#3f3f46" } as const;

/** The difference label: dark red on white, with a red border. */
export const DOC_DIFFERENCE_COLOURS = { text: "#991b1b", bg: "#ffffff", border: "#b91c1c" } as const;

/**
 * The WCAG 2.x contrast ratio of two colours.
 *
 * @param a a colour as `#rrggbb`
 * @param b another
 * @returns the ratio (lighter + 0.05) / (darker + 0.05), from 1 to 21
 * @throws RangeError when a colour is not `#rrggbb`
 */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The WCAG relative luminance of `#rrggbb`. */
function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new RangeError(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A span as one number (as `scoring/`'s `spanKey`), for maps and sets keyed by span. */
export function spanId(start: number, end: number): number {
  return start * 67108864 + end;
}

/**
 * The element id of a mention in the document view's text.
 *
 * @param side the column
 * @param start first token (0-based)
 * @param end last token (inclusive)
 * @returns `k-<start>-<end>` (key) or `r-<start>-<end>` (response)
 */
export function mentionAnchor(side: DocSide, start: number, end: number): string {
  return `${side === "key" ? "k" : "r"}-${start}-${end}`;
}

/** The spans one error involves on the key side and on the response side (each sorted by start, end). */
export interface ErrorSides {
  key: Span[];
  response: Span[];
}

/**
 * The key and response spans of each error, in the order of `errors`.
 *
 * An error's `mentions` are in the key's coordinates where the key has them. A response
 * mention that a span error corrected onto a key span therefore appears in a divided or
 * conflated error under the key's span; on the response side it is shown where the
 * response has it, so those spans are mapped back through the span errors.
 *
 * - span: the key span (`mentions[0]`) and the response span (`responseSpan`);
 * - missing-mention, missing-entity: key spans only;
 * - extra-mention, extra-entity: response spans only;
 * - divided, conflated: the shared mentions on both sides.
 *
 * @param errors the document's errors (`analyzeDocumentErrors`)
 * @returns one {@link ErrorSides} per error; never throws
 */
export function errorSides(errors: readonly CorefError[]): ErrorSides[] {
  /** key span → the response span a span error corrected onto it */
  const correctedFrom = new Map<number, Span>();
  for (const e of errors) {
    if (e.kind === "span" && e.responseSpan && e.mentions[0]) correctedFrom.set(spanId(e.mentions[0][0], e.mentions[0][1]), e.responseSpan);
  }
  return errors.map((e) => {
    switch (e.kind) {
      case "span":
        return { key: e.mentions.slice(0, 1), response: e.responseSpan ? [e.responseSpan] : [] };
      case "missing-mention":
      case "missing-entity":
        return { key: [...e.mentions], response: [] };
      case "extra-mention":
      case "extra-entity":
        return { key: [], response: [...e.mentions] };
      default: {
        const response = e.mentions.map((m) => correctedFrom.get(spanId(m[0], m[1])) ?? m);
        return { key: [...e.mentions], response: response.sort((x, y) => x[0] - y[0] || x[1] - y[1]) };
      }
    }
  });
}

/** One shown mention of one side. */
export interface ViewMention {
  start: number;
  end: number;
  /** the entity's shared number (1-based) */
  number: number;
  /** index into {@link DOC_PALETTE} */
  colour: number;
  /** whether its entity has a partner on the other side */
  matched: boolean;
  /** how it differs from the other side; empty when both sides agree on it */
  differences: DifferenceKind[];
  /** indices into {@link DocumentView.errors} of the errors involving it on this side, in list order */
  errors: number[];
  /** the element id of its (first piece's) span: `k-<start>-<end>` or `r-<start>-<end>` */
  anchor: string;
}

/** One side's shown mentions, indexed for rendering and linking. */
export interface ViewSide {
  side: DocSide;
  /** start token → the mentions starting there, outermost (longest) first, then by number */
  startsAt: Map<number, ViewMention[]>;
  /** span ids (see {@link spanId}) of the mentions shown, so links only point at spans that exist */
  shown: Set<number>;
  /** shown mentions marked as differences */
  differences: number;
  /** mentions left out because they lie outside the document's tokens */
  outside: number;
  /** spans given more than once on this side, shown once (where they first appear) */
  repeated: number;
}

/** One error of the list, reworded with the shared entity numbers. */
export interface ViewError {
  kind: ErrorKind;
  /** one English sentence with token spans `[start, end]` and the shared entity numbers */
  message: string;
  /** the spans it involves on each side */
  key: Span[];
  response: Span[];
  /** the element id of its list item: `err-<index>` */
  anchor: string;
}

/** Entity totals under the shared numbering. */
export interface EntitySummary {
  /** pairs of a key and a response entity sharing a number */
  matched: number;
  /** key entities without a partner */
  keyOnly: number;
  /** response entities without a partner */
  responseOnly: number;
}

/** The whole view of one document. */
export interface DocumentView {
  tokenCount: number;
  /** the sentences as `[from, to)` token ranges, covering every token once */
  sentences: [number, number][];
  key: ViewSide;
  response: ViewSide;
  /** the errors in the analysis's order (category, then first mention) */
  errors: ViewError[];
  entities: EntitySummary;
  /** the shared number of each key entity (by index; 0 for an entity left empty by repeated spans) */
  keyNumbers: number[];
  /** the same for the response */
  responseNumbers: number[];
}

/** What {@link buildDocumentView} reads: a document and the analysis of it. */
export interface DocumentViewInput {
  tokenCount: number;
  /** the token index of each sentence's first token (invalid or unordered starts are skipped) */
  sentenceStarts: readonly number[];
  key: readonly Entity[];
  response: readonly Entity[];
  /** `analyzeDocumentErrors(key, response).errors` */
  errors: readonly CorefError[];
}

/** A side's distinct spans (first copy wins) with the entity of each. */
interface SideIndex {
  /** span id → entity index (first copy) */
  entityOf: Map<number, number>;
  /** per entity: its kept mentions, in reading order */
  mentions: Mention[][];
  repeated: number;
}

function indexSide(entities: readonly Entity[]): SideIndex {
  const entityOf = new Map<number, number>();
  const mentions: Mention[][] = [];
  let repeated = 0;
  entities.forEach((entity, e) => {
    const kept: Mention[] = [];
    for (const m of entity ?? []) {
      if (!m) continue;
      const id = spanId(m[0], m[1]);
      if (entityOf.has(id)) {
        repeated++;
        continue;
      }
      entityOf.set(id, e);
      kept.push(m);
    }
    mentions.push(kept);
  });
  return { entityOf, mentions, repeated };
}

/** Compares spans by start, then end. */
function bySpan(a: Mention, b: Mention): number {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * For each entity of one side, its "staying" entity on the other side: the other side's
 * entity holding the counterpart of its earliest (start, end) mention that has one, or -1.
 * `counterpart(m)` gives the other side's entity of mention `m`, and the span to order by.
 */
function stayingPartners(mentions: readonly Mention[][], counterpart: (m: Mention) => { entity: number; at: Mention } | null): Int32Array {
  const staying = new Int32Array(mentions.length).fill(-1);
  mentions.forEach((list, e) => {
    let best: Mention | null = null;
    for (const m of list) {
      const c = counterpart(m);
      if (!c) continue;
      if (best === null || bySpan(c.at, best) < 0) {
        best = c.at;
        staying[e] = c.entity;
      }
    }
  });
  return staying;
}

/** The sentences of a document as `[from, to)` token ranges. */
function sentenceRanges(tokenCount: number, sentenceStarts: readonly number[]): [number, number][] {
  const starts: number[] = [];
  for (const s of sentenceStarts) if (Number.isInteger(s) && s >= 0 && s < tokenCount && (starts.length === 0 || s > starts[starts.length - 1])) starts.push(s);
  if (tokenCount > 0 && starts[0] !== 0) starts.unshift(0);
  return starts.map((s, i) => [s, i + 1 < starts.length ? starts[i + 1] : tokenCount]);
}

function show(m: Mention): string {
  return `[${m[0]}, ${m[1]}]`;
}

function showList(mentions: readonly Mention[], max = 3): string {
  const shown = mentions.slice(0, max).map(show).join(", ");
  return mentions.length > max ? `${shown} and ${mentions.length - max} more` : shown;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * An error's sentence with the shared entity numbers (the scorer's own message numbers each
 * side's entities separately, by index).
 *
 * @param error the error
 * @param keyNumber shared number of a key entity index
 * @param responseNumber shared number of a response entity index
 * @returns one English sentence naming token spans `[start, end]` and shared entity numbers;
 *   never throws
 */
export function describeError(error: CorefError, keyNumber: (index: number) => number, responseNumber: (index: number) => number): string {
  const spans = error.mentions;
  const k = (i: number) => keyNumber(error.keyEntities[i]);
  const r = (i: number) => responseNumber(error.responseEntities[i]);
  switch (error.kind) {
    case "span":
      return `Response span ${error.responseSpan ? show(error.responseSpan) : "?"} of entity ${r(0)} should be ${show(spans[0])} (key entity ${k(0)}).`;
    case "missing-mention":
      return `Key mention ${show(spans[0])} of entity ${k(0)} is missing from the response.`;
    case "extra-mention":
      return `Response mention ${show(spans[0])} in entity ${r(0)} is not a key mention.`;
    case "missing-entity":
      return `Key entity ${k(0)} (${plural(spans.length, "mention")}: ${showList(spans)}) is missing from the response.`;
    case "extra-entity":
      return `Response entity ${r(0)} (${plural(spans.length, "mention")}: ${showList(spans)}) is not in the key.`;
    case "divided":
      return `Key entity ${k(0)} is divided: ${showList(spans)} ${spans.length === 1 ? "is" : "are"} in response entity ${r(0)}, apart from response entity ${r(1)}.`;
    case "conflated":
      return `Response entity ${r(0)} conflates key entity ${k(0)} (${showList(spans)}) with key entity ${k(1)}.`;
  }
}

/** An entity's place in the shared numbering: its side, index, and earliest mention (on either side, for a pair). */
interface Slot {
  side: DocSide;
  index: number;
  at: Mention;
}

/**
 * The shared numbering (see the module doc): paired entities first, in document order of their
 * earliest mention on either side (ties: lower key index); then the entities without a partner,
 * key and response together, in the same order (ties: key before response, then index).
 *
 * @param keyMentions each key entity's kept mentions (`SideIndex.mentions`)
 * @param responseMentions each response entity's kept mentions
 * @param keyPartner each key entity's paired response entity, -1 for none
 * @param responsePartner each response entity's paired key entity, -1 for none
 * @returns the 1-based number of each entity by index per side (0 for an entity left empty by
 *   repeated spans), and the entity totals
 */
function numberEntities(
  keyMentions: readonly Mention[][],
  responseMentions: readonly Mention[][],
  keyPartner: Int32Array,
  responsePartner: Int32Array,
): { keyNumbers: number[]; responseNumbers: number[]; entities: EntitySummary } {
  const first = (list: readonly Mention[]): Mention | null => list.reduce<Mention | null>((best, m) => (best === null || bySpan(m, best) < 0 ? m : best), null);
  const keyFirst = keyMentions.map(first);
  const responseFirst = responseMentions.map(first);
  const pairs: Slot[] = [];
  const single: Slot[] = [];
  keyFirst.forEach((at, k) => {
    if (!at) return;
    const r = keyPartner[k];
    if (r >= 0) {
      const other = responseFirst[r]!;
      pairs.push({ side: "key", index: k, at: bySpan(other, at) < 0 ? other : at });
    } else single.push({ side: "key", index: k, at });
  });
  responseFirst.forEach((at, r) => {
    if (at && responsePartner[r] < 0) single.push({ side: "response", index: r, at });
  });
  pairs.sort((a, b) => bySpan(a.at, b.at) || a.index - b.index);
  single.sort((a, b) => bySpan(a.at, b.at) || (a.side === b.side ? 0 : a.side === "key" ? -1 : 1) || a.index - b.index);
  const keyNumbers: number[] = new Array(keyPartner.length).fill(0);
  const responseNumbers: number[] = new Array(responsePartner.length).fill(0);
  pairs.forEach((slot, i) => {
    keyNumbers[slot.index] = i + 1;
    responseNumbers[keyPartner[slot.index]] = i + 1;
  });
  single.forEach((slot, i) => {
    (slot.side === "key" ? keyNumbers : responseNumbers)[slot.index] = pairs.length + i + 1;
  });
  return {
    keyNumbers,
    responseNumbers,
    entities: { matched: pairs.length, keyOnly: single.filter((s) => s.side === "key").length, responseOnly: single.filter((s) => s.side === "response").length },
  };
}

/**
 * The errors as the view shows them, in the analysis's order: each reworded with the shared
 * numbers ({@link describeError}), with the spans it involves on each side and its anchor
 * (`err-<index>`).
 */
function describeErrors(errors: readonly CorefError[], sides: readonly ErrorSides[], keyNumbers: readonly number[], responseNumbers: readonly number[]): ViewError[] {
  return errors.map((e, i) => ({
    kind: e.kind,
    message: describeError(
      e,
      (k) => keyNumbers[k] ?? 0,
      (r) => responseNumbers[r] ?? 0,
    ),
    key: sides[i].key,
    response: sides[i].response,
    anchor: `err-${i}`,
  }));
}

/** One side's spans (by {@link spanId}) → the indexes of the errors involving them, in order, each once. */
function errorsBySpan(sides: readonly ErrorSides[], side: DocSide): Map<number, number[]> {
  const map = new Map<number, number[]>();
  sides.forEach((s, i) => {
    for (const m of s[side]) {
      const id = spanId(m[0], m[1]);
      const list = map.get(id);
      if (!list) map.set(id, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return map;
}

/**
 * Builds the document view: pairs key and response entities (the error analysis's own
 * pairing, see the module doc), numbers them once for both sides, marks the mentions that
 * differ, and indexes the shown mentions by start token for rendering.
 *
 * @param input the document's token count and sentence starts, its key and response
 *   entities as scored (inclusive `[start, end]` token spans), and their errors
 * @returns the {@link DocumentView}; numbers are 1-based, colours index {@link DOC_PALETTE}.
 *   Linear in tokens + mentions + error spans, plus sorting; never throws
 */
export function buildDocumentView(input: DocumentViewInput): DocumentView {
  const { tokenCount, errors } = input;
  const key = indexSide(input.key);
  const response = indexSide(input.response);

  // Span errors: a response span corrected onto a key span, and back.
  const keyOfResponse = new Map<number, Mention>();
  const responseOfKey = new Map<number, Mention>();
  for (const e of errors) {
    if (e.kind !== "span" || !e.responseSpan || !e.mentions[0]) continue;
    keyOfResponse.set(spanId(e.responseSpan[0], e.responseSpan[1]), e.mentions[0]);
    responseOfKey.set(spanId(e.mentions[0][0], e.mentions[0][1]), e.responseSpan);
  }
  /** the response span standing for key mention m (its twin or the span corrected onto it), or null */
  const responseSpanOf = (m: Mention): Mention | null => {
    const id = spanId(m[0], m[1]);
    if (response.entityOf.has(id)) return m;
    const corrected = responseOfKey.get(id);
    return corrected && response.entityOf.has(spanId(corrected[0], corrected[1])) ? corrected : null;
  };
  /** the key span standing for response mention m, or null */
  const keySpanOf = (m: Mention): Mention | null => {
    const id = spanId(m[0], m[1]);
    if (key.entityOf.has(id)) return m;
    const corrected = keyOfResponse.get(id);
    return corrected && key.entityOf.has(spanId(corrected[0], corrected[1])) ? corrected : null;
  };

  // Each entity's staying piece on the other side, ordered in key coordinates as the analysis does.
  const keyStaying = stayingPartners(key.mentions, (m) => {
    const other = responseSpanOf(m);
    return other ? { entity: response.entityOf.get(spanId(other[0], other[1]))!, at: m } : null;
  });
  const responseStaying = stayingPartners(response.mentions, (m) => {
    const other = keySpanOf(m);
    return other ? { entity: key.entityOf.get(spanId(other[0], other[1]))!, at: other } : null;
  });
  const keyPartner = new Int32Array(input.key.length).fill(-1);
  const responsePartner = new Int32Array(input.response.length).fill(-1);
  keyStaying.forEach((r, k) => {
    if (r >= 0 && responseStaying[r] === k) {
      keyPartner[k] = r;
      responsePartner[r] = k;
    }
  });

  // Numbering: pairs first, then the entities without a partner, each in document order.
  const { keyNumbers, responseNumbers, entities } = numberEntities(key.mentions, response.mentions, keyPartner, responsePartner);

  // The errors, reworded, with the spans each involves on each side.
  const sides = errorSides(errors);
  const viewErrors = describeErrors(errors, sides, keyNumbers, responseNumbers);
  const errorsOf = (side: DocSide) => errorsBySpan(sides, side);

  const keySide = buildSide("key", key, tokenCount, keyNumbers, keyPartner, errorsOf("key"), (m) => {
    const other = responseSpanOf(m);
    return other ? { span: other, entity: response.entityOf.get(spanId(other[0], other[1]))! } : null;
  });
  const responseSide = buildSide("response", response, tokenCount, responseNumbers, responsePartner, errorsOf("response"), (m) => {
    const other = keySpanOf(m);
    return other ? { span: other, entity: key.entityOf.get(spanId(other[0], other[1]))! } : null;
  });

  return {
    tokenCount,
    sentences: sentenceRanges(tokenCount, input.sentenceStarts),
    key: keySide,
    response: responseSide,
    errors: viewErrors,
    entities,
    keyNumbers,
    responseNumbers,
  };
}

/** One side's shown mentions with their numbers, colours and differences. */
function buildSide(
  side: DocSide,
  index: SideIndex,
  tokenCount: number,
  numbers: readonly number[],
  partner: Int32Array,
  errorsBySpan: ReadonlyMap<number, number[]>,
  counterpart: (m: Mention) => { span: Mention; entity: number } | null,
): ViewSide {
  const startsAt = new Map<number, ViewMention[]>();
  const shown = new Set<number>();
  let outside = 0;
  let differences = 0;
  index.mentions.forEach((list, e) => {
    const number = numbers[e];
    const matched = partner[e] >= 0;
    for (const m of list) {
      const [start, end] = m;
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= tokenCount) {
        outside++;
        continue;
      }
      const id = spanId(start, end);
      shown.add(id);
      const marks: DifferenceKind[] = [];
      const other = counterpart(m);
      if (!other) marks.push(side === "key" ? "missing" : "extra");
      else {
        if (other.span[0] !== start || other.span[1] !== end) marks.push("boundary");
        if (partner[e] !== other.entity) marks.push("wrong-entity");
      }
      if (marks.length > 0) differences++;
      const mention: ViewMention = {
        start,
        end,
        number,
        colour: (number - 1) % DOC_PALETTE.length,
        matched,
        differences: marks,
        errors: errorsBySpan.get(id) ?? [],
        anchor: mentionAnchor(side, start, end),
      };
      const at = startsAt.get(start);
      if (at) at.push(mention);
      else startsAt.set(start, [mention]);
    }
  });
  for (const list of startsAt.values()) list.sort((a, b) => b.end - a.end || a.number - b.number);
  return { side, startsAt, shown, differences, outside, repeated: index.repeated };
}

/** Where a document sits among its dataset's documents, for the previous/next links. */
export interface DocumentNeighbours {
  /** 0-based position, or -1 when the id is not in the list */
  position: number;
  total: number;
  previous: string | null;
  next: string | null;
}

/**
 * The documents before and after one document.
 *
 * @param ids the key's document ids in order
 * @param id the document shown
 * @returns its position (-1 when absent: then no previous or next) and its neighbours' ids
 */
export function documentNeighbours(ids: readonly string[], id: string): DocumentNeighbours {
  const position = ids.indexOf(id);
  return {
    position,
    total: ids.length,
    previous: position > 0 ? ids[position - 1] : null,
    next: position >= 0 && position + 1 < ids.length ? ids[position + 1] : null,
  };
}
