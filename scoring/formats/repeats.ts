/**
 * Bookkeeping for spans annotated more than once in a document, shared by the readers.
 * A repeated span is scorable (the reference scorer tolerates it) but worth a warning:
 * - `repeated-span-same-entity`: the same span twice in one entity (the copies count once
 *   for mention identification);
 * - `repeated-span-other-entity`: the same span in two entities. Its message names the rule the
 *   scoring applies (`SpanRule`): the CoNLL reference scorer's for CoNLL-2012 and JSON lines
 *   input, the CorefUD scorer's for CorefUD CoNLL-U input.
 * One warning per document and kind, with the count and the first occurrence.
 */
import { quote, spanKey, type Entity, type Warning } from "../types.js";

interface First {
  start: number;
  end: number;
  line?: number;
}

/**
 * Whose rule scores a span held by two entities:
 * - `reference` (CoNLL-2012, JSON lines): the CoNLL reference scorer v8.01 keeps a response
 *   span only in the entity that appears first in the file (`metrics/alignment.ts`);
 * - `corefud` (CorefUD CoNLL-U): the CorefUD scorer v1.2 keeps the span in every entity that
 *   holds it, and its mention-to-entity lookup gives the last of them in udapi's entity order
 *   (`corefud/align.ts`), in key and response alike.
 */
export type SpanRule = "reference" | "corefud";

const OTHER_ENTITY_RULE: Record<SpanRule, string> = {
  reference: "in a response only the copy in the entity that appears first is scored, as the CoNLL reference scorer does",
  corefud:
    "each entity keeps its copy, and the span is looked up in the last of its entities in udapi's entity order (by first mention, then by eid), as the CorefUD scorer does",
};

/** Counts a document's repeated spans and turns them into warnings. */
export class RepeatedSpanLog {
  private same = 0;
  private other = 0;
  private firstSame: First | null = null;
  private firstOther: First | null = null;

  /**
   * Records one repeat of span `[start, end]`, read at `line` (1-based) when known.
   * @param kind `same` when the earlier copy is in the same entity, else `other`
   */
  record(kind: "same" | "other", start: number, end: number, line?: number): void {
    if (kind === "same") {
      this.same++;
      this.firstSame ??= { start, end, line };
    } else {
      this.other++;
      this.firstOther ??= { start, end, line };
    }
  }

  /**
   * Finds and records every repeat in finished entities (for readers that do not track
   * spans while reading). A span in entities A, B and B again counts as one `other` and
   * one `same` repeat.
   */
  recordAll(entities: readonly Entity[], line?: number): void {
    const owners = new Map<number, Set<number>>();
    entities.forEach((entity, e) => {
      for (const [start, end] of entity) {
        const key = spanKey(start, end);
        const seen = owners.get(key);
        if (!seen) owners.set(key, new Set([e]));
        else {
          this.record(seen.has(e) ? "same" : "other", start, end, line);
          seen.add(e);
        }
      }
    });
  }

  /**
   * The warnings for document `document` of `file`: at most one `repeated-span-same-entity`
   * and one `repeated-span-other-entity`, each with the count and the first repeat (its
   * `line` when it was recorded); none when nothing repeated.
   *
   * @param rule whose rule the `repeated-span-other-entity` message names (`SpanRule`)
   */
  warnings(file: string, document: string, rule: SpanRule): Warning[] {
    const out: Warning[] = [];
    const where = (f: First) => `first: tokens ${f.start === f.end ? f.start : `${f.start}-${f.end}`}${f.line ? `, line ${f.line}` : ""}`;
    if (this.firstSame) {
      out.push({
        code: "repeated-span-same-entity",
        message: `document ${quote(document)}: ${this.same} span(s) annotated twice in the same entity (${where(this.firstSame)}); the copies count once for mention identification`,
        file,
        line: this.firstSame.line,
        document,
      });
    }
    if (this.firstOther) {
      out.push({
        code: "repeated-span-other-entity",
        message: `document ${quote(document)}: ${this.other} span(s) annotated in two entities (${where(this.firstOther)}); ${OTHER_ENTITY_RULE[rule]}`,
        file,
        line: this.firstOther.line,
        document,
      });
    }
    return out;
  }
}
