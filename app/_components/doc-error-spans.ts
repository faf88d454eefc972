/**
 * Where each error of a document's error view sits on each side of the text: the key spans
 * and the response spans it involves, so the error list can link to them and the text can
 * mark them. Pure functions, linear in the number of error spans. Server-safe.
 */
import type { CorefError } from "../../lib/services/analysis";

/** An inclusive token span `[start, end]`. */
export type Span = CorefError["mentions"][number];

/** The spans one error involves on the key side and on the response side (each sorted by start, end). */
export interface ErrorSides {
  key: Span[];
  response: Span[];
}

/** A span as one number (as `scoring/`'s `spanKey`), for maps and sets keyed by span. */
export function spanId(start: number, end: number): number {
  return start * 67108864 + end;
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
        return { key: e.mentions, response: [] };
      case "extra-mention":
      case "extra-entity":
        return { key: [], response: e.mentions };
      default: {
        const response = e.mentions.map((m) => correctedFrom.get(spanId(m[0], m[1])) ?? m);
        return { key: e.mentions, response: [...response].sort((x, y) => x[0] - y[0] || x[1] - y[1]) };
      }
    }
  });
}

/**
 * The messages of the errors touching each span, per side: what the text view puts in the
 * `title` of a marked mention.
 */
export function errorMessagesBySpan(errors: readonly CorefError[], sides: readonly ErrorSides[]): { key: Map<number, string[]>; response: Map<number, string[]> } {
  const key = new Map<number, string[]>();
  const response = new Map<number, string[]>();
  const add = (map: Map<number, string[]>, s: Span, message: string) => {
    const id = spanId(s[0], s[1]);
    const list = map.get(id);
    if (!list) map.set(id, [message]);
    else if (list[list.length - 1] !== message) list.push(message);
  };
  errors.forEach((e, i) => {
    for (const s of sides[i].key) add(key, s, e.message);
    for (const s of sides[i].response) add(response, s, e.message);
  });
  return { key, response };
}
