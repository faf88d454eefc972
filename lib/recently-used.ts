/**
 * A small map that keeps at most `capacity` entries, dropping the least recently used one
 * when a new key would go over (JavaScript's `Map` keeps insertion order; a read moves the
 * entry to the end). For in-memory caches of immutable values, e.g. the document ids of a
 * gold key version by its sha256 (`upload-pool/pool.ts`), or parsed stored
 * files (`lib/runs/analysis.ts`).
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  /** @param capacity the most entries kept (a whole number ≥ 1) */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`RecentlyUsed: capacity must be a whole number ≥ 1, got ${capacity}`);
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The value of `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Sets `key` as the most recently used entry; drops the least recently used one when over capacity. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }
}
