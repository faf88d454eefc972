/**
 * The fast metrics against the literal oracles of oracle.ts on many random small
 * documents, including the awkward inputs the reference scorer tolerates: the same span in
 * two key entities, repeated response spans (matched and twinless), twinless mentions and
 * singletons on both sides.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Entity } from "../types.js";
import { alignDocument } from "../metrics/alignment.js";
import { bcub } from "../metrics/bcub.js";
import { blanc } from "../metrics/blanc.js";
import { ceaf } from "../metrics/ceaf.js";
import { lea } from "../metrics/lea.js";
import { muc } from "../metrics/muc.js";
import type { Counts } from "../metrics/counts.js";
import { bcubOracle, blancOracle, ceafOracle, leaOracle, mucOracle } from "./oracle.js";

/** Random entities over a small span space so that overlaps and repeats are common. */
const entities = (maxEntities: number) =>
  fc.array(
    fc.array(
      fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 })).map(([s, len]) => [s, s + len] as const),
      { minLength: 1, maxLength: 5 },
    ),
    { maxLength: maxEntities },
  ) as fc.Arbitrary<Entity[]>;

/** Same, but no span twice on one side (the common, well-formed case). */
const partition = (maxEntities: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 14 }).chain((spans) =>
    fc.array(fc.integer({ min: 0, max: maxEntities - 1 }), { minLength: spans.length, maxLength: spans.length }).map((groups) => {
      const out: Entity[] = [];
      spans.forEach((s, i) => {
        (out[groups[i]] ??= []).push([s, s]);
      });
      return out.filter(Boolean);
    }),
  );

function close(a: Counts, b: Counts): void {
  expect(a.recallNum).toBeCloseTo(b.recallNum, 9);
  expect(a.recallDen).toBeCloseTo(b.recallDen, 9);
  expect(a.precisionNum).toBeCloseTo(b.precisionNum, 9);
  expect(a.precisionDen).toBeCloseTo(b.precisionDen, 9);
}

function checkAll(key: Entity[], response: Entity[]): void {
  const d = alignDocument(key, response);
  close(muc(d), mucOracle(d));
  close(bcub(d), bcubOracle(d));
  close(lea(d), leaOracle(d));
  const b = blanc(d);
  const o = blancOracle(d);
  close(b.coref, o.coref);
  close(b.noncoref, o.noncoref);
  if (d.key.length <= 6 && d.response.length <= 7) {
    close(ceaf(d, "mention"), ceafOracle(d, "mention"));
    close(ceaf(d, "entity"), ceafOracle(d, "entity"));
  }
}

describe("fast metrics agree with the literal oracles", () => {
  it("on well-formed partitions", () => {
    fc.assert(fc.property(partition(6), partition(7), (k, r) => checkAll(k, r)), { numRuns: 400 });
  });
  it("on inputs with repeated, shared and twinless spans", () => {
    fc.assert(fc.property(entities(6), entities(7), (k, r) => checkAll(k, r)), { numRuns: 400 });
  });
  it("CEAF on larger groups (assignment solver vs exhaustive search)", () => {
    fc.assert(
      fc.property(partition(7), partition(7), (k, r) => {
        const d = alignDocument(k, r);
        if (d.key.length > 7 || d.response.length > 7) return;
        close(ceaf(d, "entity"), ceafOracle(d, "entity"));
        close(ceaf(d, "mention"), ceafOracle(d, "mention"));
      }),
      { numRuns: 300 },
    );
  });
});
