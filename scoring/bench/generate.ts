/**
 * Deterministic synthetic corpora for the scoring benchmark (seeded with pure-rand).
 *
 * A key document has entities of geometric-like sizes over non-overlapping one- to
 * three-token mentions; its response keeps most key mentions, moves some boundaries, adds
 * spurious mentions, and splits and merges entities, so every metric has real work.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { Document, Entity, Mention } from "../types.js";

type Rng = ReturnType<typeof xoroshiro128plus>;

/** Parameters of one synthetic document. */
export interface DocumentSpec {
  name: string;
  tokens: number;
  keyEntities: number;
  keyMentions: number;
  /** Target number of response entities (the response re-partitions its mentions). */
  responseEntities: number;
}

/** A key document and its response. */
export interface DocumentPair {
  key: Document;
  response: Document;
}

/**
 * Generates a key/response pair for `spec` with the generator `seed`.
 * The same spec and seed always give the same documents.
 */
export function generatePair(spec: DocumentSpec, seed: number): DocumentPair {
  const rng = xoroshiro128plus(seed);
  const int = (lo: number, hi: number) => uniformInt(rng, lo, hi);

  // Non-overlapping mention slots of 1-3 tokens spread over the document.
  const slots: Mention[] = [];
  const stride = Math.max(1, Math.floor(spec.tokens / spec.keyMentions));
  for (let i = 0; i < spec.keyMentions; i++) {
    const start = Math.min(i * stride, spec.tokens - 1);
    const length = Math.min(int(1, 3), stride, spec.tokens - start);
    slots.push([start, start + Math.max(1, length) - 1]);
  }
  // Key: every entity gets one mention, the rest are spread with a skew to big entities.
  const key: Entity[] = Array.from({ length: spec.keyEntities }, () => []);
  const order = shuffle(slots.map((_, i) => i), rng);
  order.forEach((slot, i) => {
    const e = i < spec.keyEntities ? i : skewed(spec.keyEntities, rng);
    key[e].push(slots[slot]);
  });
  for (const e of key) e.sort((a, b) => a[0] - b[0]);

  // Response: keep ~88 % of key mentions, shift ~4 % of boundaries, add ~8 % spurious ones,
  // then group them into `responseEntities` entities that mostly follow the key.
  const responseMentions: { mention: Mention; keyEntity: number }[] = [];
  key.forEach((entity, e) => {
    for (const m of entity) {
      const roll = int(0, 99);
      if (roll < 12) continue;
      const shifted: Mention = roll < 16 && m[1] + 1 < spec.tokens ? [m[0], m[1] + 1] : m;
      responseMentions.push({ mention: shifted, keyEntity: e });
    }
  });
  const spurious = Math.floor(spec.keyMentions * 0.08);
  for (let i = 0; i < spurious; i++) {
    const slot = slots[int(0, slots.length - 1)];
    const end = Math.min(slot[1] + 1, spec.tokens - 1);
    responseMentions.push({ mention: [slot[0], end], keyEntity: -1 });
  }
  const K = spec.keyEntities;
  const R = spec.responseEntities;
  const response: Entity[] = Array.from({ length: spec.responseEntities }, () => []);
  const seen = new Set<string>();
  for (const { mention, keyEntity } of responseMentions) {
    const id = `${mention[0]},${mention[1]}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const roll = int(0, 99);
    // Mostly follow the key; split some entities (next group) and merge some (random group).
    const split = R > K && roll < 30;
    const group = keyEntity < 0 || roll >= 90 ? int(0, R - 1) : split ? K + (keyEntity % (R - K)) : keyEntity % R;
    response[group].push(mention);
  }
  const tokens = Array.from({ length: spec.tokens }, (_, i) => `w${i % 1000}`);
  const sentenceStarts: number[] = [];
  for (let t = 0; t < spec.tokens; t += 25) sentenceStarts.push(t);
  const doc = (entities: Entity[]): Document => ({
    id: spec.name,
    name: spec.name,
    part: 0,
    tokens,
    sentenceStarts,
    entities: entities.filter((e) => e.length > 0).map((e) => e.sort((a, b) => a[0] - b[0] || a[1] - b[1])),
    line: 1,
  });
  return { key: doc(key), response: doc(response) };
}

/** A skewed pick in [0, n): small indices (big entities) are more likely. */
function skewed(n: number, rng: Rng): number {
  const u = uniformInt(rng, 0, 1_000_000) / 1_000_001;
  return Math.min(n - 1, Math.floor(n * u ** 1.5));
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
