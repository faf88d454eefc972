/**
 * writeConll2012 is the inverse of readConll2012 on what the scorer uses.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Document, Entity } from "../types.js";
import { dataDir } from "../test/data-dir.js";
import { readConll2012 } from "./conll2012.js";
import { writeConll2012 } from "./write-conll2012.js";

const sortEntities = (entities: Entity[]) =>
  entities.map((e) => [...e].sort((a, b) => a[0] - b[0] || a[1] - b[1])).sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1]);

describe("writeConll2012", () => {
  it("round-trips random nested, same-span-free documents", () => {
    const doc = fc
      .uniqueArray(
        fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 4 })).map(([s, l]) => [s, Math.min(s + l, 30)] as const),
        { selector: (m) => `${m[0]},${m[1]}`, maxLength: 20 },
      )
      .chain((spans) =>
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: spans.length, maxLength: spans.length }).map((groups) => {
          const entities: Entity[] = [];
          spans.forEach((s, i) => (entities[groups[i]] ??= []).push(s));
          return entities.filter(Boolean);
        }),
      );
    fc.assert(
      fc.property(doc, (entities) => {
        // Crossing mentions of one entity cannot be written unambiguously; skip those.
        for (const e of entities)
          for (const a of e) for (const b of e) if (a[0] < b[0] && b[0] <= a[1] && a[1] < b[1]) return;
        const original: Document = { id: "d/part 0", name: "d", part: 0, tokens: Array.from({ length: 31 }, (_, i) => `t${i}`), sentenceStarts: [0, 10, 20], entities, line: 1 };
        const back = readConll2012(writeConll2012([original]), "round-trip.conll").documents[0];
        expect(back.id).toBe("d/part 0");
        expect(back.tokens).toEqual(original.tokens);
        expect(back.sentenceStarts).toEqual([0, 10, 20]);
        expect(sortEntities(back.entities)).toEqual(sortEntities(entities));
      }),
      { numRuns: 300 },
    );
  });

  const data = dataDir();
  if (!data) console.log("skipping the LitBank round trip: no shared data (set COREFBOARD_DATA_DIR)");
  it.skipIf(!data)("round-trips the litbank-demo documents", () => {
    const dir = join(data!, "litbank-demo/conll");
    for (const f of readdirSync(dir)) {
      const doc = readConll2012(readFileSync(join(dir, f)), f).documents[0];
      const back = readConll2012(writeConll2012([doc]), f).documents[0];
      expect(back.id).toBe(doc.id);
      expect(back.tokens).toEqual(doc.tokens);
      expect(back.sentenceStarts).toEqual(doc.sentenceStarts);
      expect(sortEntities(back.entities)).toEqual(sortEntities(doc.entities));
    }
  });
});
