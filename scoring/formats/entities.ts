/**
 * Entity numbering shared by the CoNLL-2012 and CorefUD readers: entities are numbered by
 * first sight of their chain id, as the CoNLL reference scorer (v8.01, `CorScorer.pm`
 * `GetCoreference`) numbers them. That order decides which copy of a span repeated in two
 * response entities is scored (see `metrics/alignment.ts`).
 */
import type { Entity } from "../types.js";

/** One document's entities, keyed by chain id while they are read. */
export class EntityNumbering {
  /** The entities in order of first sight of their id; each mention in the order added. */
  readonly entities: Entity[] = [];
  private readonly indexOf = new Map<string, number>();

  /**
   * The index of the entity with chain id `id` in `entities`; at the first sight of `id`, an
   * empty entity is appended for it (it gets its mentions from `add`).
   */
  index(id: string): number {
    let e = this.indexOf.get(id);
    if (e === undefined) {
      e = this.entities.length;
      this.indexOf.set(id, e);
      this.entities.push([]);
    }
    return e;
  }

  /**
   * Appends mention `[start, end]` (inclusive token indices) to the entity with chain id `id`.
   * @returns that entity's index
   */
  add(id: string, start: number, end: number): number {
    const e = this.index(id);
    this.entities[e].push([start, end]);
    return e;
  }
}
