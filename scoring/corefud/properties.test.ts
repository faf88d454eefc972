/**
 * Properties of CorefUD scoring on random documents written as CorefUD CoNLL-U:
 * - identity: a document scored against itself gives 100 % on every metric in every matching
 *   mode and zero mode, with and without singletons;
 * - exact match on contiguous mentions without zeros equals the CoNLL-2012 path (the same
 *   entities written as CoNLL-2012 and scored as the reference scorer does), on every metric
 *   the two define alike (BLANC's link counts always; its averaged scores when the key has both
 *   coreference and non-coreference links, where the two averaging rules agree);
 * - swapping key and response swaps recall and precision (exact match; head match when every
 *   head is used by one mention per side, so head matching is symmetric). Partial match is
 *   not symmetric by definition (the response must lie inside the key), and the zero score is
 *   anaphor-based, so neither is checked here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readConll2012 } from "../formats/conll2012.js";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate, type EvaluateOptions, type MetricScores } from "../evaluate.js";

const SENTENCES = 3;
const WORDS = 8;

/** A generated mention: sentence, first and last word (1-based IDs), head offset, entity. */
interface GenMention {
  sentence: number;
  start: number;
  end: number;
  head: number;
  entity: number;
}
/** A generated zero: an empty node `after.1` in a sentence, with DEPS parent and relation. */
interface GenZero {
  sentence: number;
  after: number;
  parent: number;
  deprel: string;
  entity: number;
}

const mentionArb = fc
  .record({
    sentence: fc.integer({ min: 0, max: SENTENCES - 1 }),
    start: fc.integer({ min: 1, max: WORDS }),
    length: fc.integer({ min: 0, max: 3 }),
    head: fc.nat(3),
    entity: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ sentence, start, length, head, entity }) => {
    const end = Math.min(WORDS, start + length);
    return { sentence, start, end, head: head % (end - start + 1), entity };
  });

const zeroArb = fc.record({
  sentence: fc.integer({ min: 0, max: SENTENCES - 1 }),
  after: fc.integer({ min: 1, max: WORDS }),
  parent: fc.integer({ min: 1, max: WORDS }),
  deprel: fc.constantFrom("nsubj", "obj", "nsubj:pass"),
  entity: fc.integer({ min: 0, max: 4 }),
});

/** Keeps one mention per span and no two mentions of one entity nested at the same start. */
function clean(mentions: GenMention[]): GenMention[] {
  const seen = new Set<string>();
  const out: GenMention[] = [];
  for (const m of mentions) {
    const span = `${m.sentence}:${m.start}-${m.end}`;
    // Same-entity mentions may not overlap (their brackets would be ambiguous to pair).
    if (seen.has(span)) continue;
    if (out.some((o) => o.entity === m.entity && o.sentence === m.sentence && o.start <= m.end && m.start <= o.end)) continue;
    seen.add(span);
    out.push(m);
  }
  return out;
}

/** Writes CorefUD CoNLL-U: one document, `SENTENCES` sentences of `WORDS` words. */
function writeConllu(mentions: GenMention[], zeros: GenZero[] = []): string {
  const lines = ["# newdoc id = doc", "# global.Entity = eid-etype-head"];
  for (let s = 0; s < SENTENCES; s++) {
    lines.push(`# sent_id = s${s + 1}`);
    const rows: { id: string; deps: string; brackets: string }[] = [];
    for (let w = 1; w <= WORDS; w++) {
      const opens = mentions
        .filter((m) => m.sentence === s && m.start === w && m.end > w)
        .sort((a, b) => b.end - a.end)
        .map((m) => `(e${m.entity}-x-${m.head + 1}`);
      const singles = mentions.filter((m) => m.sentence === s && m.start === w && m.end === w).map((m) => `(e${m.entity}-x-1)`);
      const closes = mentions
        .filter((m) => m.sentence === s && m.end === w && m.start < w)
        .sort((a, b) => b.start - a.start)
        .map((m) => `e${m.entity})`);
      rows.push({ id: String(w), deps: `${w === 1 ? 0 : 1}:dep`, brackets: [...closes, ...opens, ...singles].join("") });
      const zero = zeros.filter((z) => z.sentence === s && z.after === w);
      zero.forEach((z, i) => rows.push({ id: `${w}.${i + 1}`, deps: `${z.parent}:${z.deprel}`, brackets: `(e${z.entity}-x-1)` }));
    }
    for (const r of rows) {
      const form = r.id.includes(".") ? "_" : `w${s}_${r.id}`;
      lines.push([r.id, form, "_", "_", "_", "_", r.id.includes(".") ? "_" : "0", r.id.includes(".") ? "_" : "dep", r.deps, r.brackets ? `Entity=${r.brackets}` : "_"].join("\t"));
    }
    lines.push("");
  }
  return lines.join("\n") + "\n";
}

/** Writes the same mentions as CoNLL-2012 (words only, one document). */
function writeConll2012(mentions: GenMention[]): string {
  const lines = ["#begin document (doc); part 000"];
  for (let s = 0; s < SENTENCES; s++) {
    for (let w = 1; w <= WORDS; w++) {
      const items: string[] = [];
      for (const m of mentions.filter((x) => x.sentence === s && x.start === w && x.end > w).sort((a, b) => b.end - a.end)) items.push(`(${m.entity}`);
      for (const m of mentions.filter((x) => x.sentence === s && x.start === w && x.end === w)) items.push(`(${m.entity})`);
      for (const m of mentions.filter((x) => x.sentence === s && x.end === w && x.start < w).sort((a, b) => b.start - a.start)) items.push(`${m.entity})`);
      lines.push(["doc", "0", String(w - 1), `w${s}_${w}`, items.length ? items.join("|") : "-"].join("\t"));
    }
    lines.push("");
  }
  lines.push("#end document");
  return lines.join("\n") + "\n";
}

const ALL = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mor", "zero"] as const;

function score(key: string, response: string, options: EvaluateOptions): MetricScores {
  return evaluate(readCorefUD(key, "key.conllu"), readCorefUD(response, "response.conllu"), { metrics: [...ALL], ...options }).metrics;
}

describe("CorefUD scoring properties", () => {
  it("a document against itself is 100 % in every mode", () => {
    fc.assert(
      fc.property(fc.array(mentionArb, { maxLength: 14 }), fc.array(zeroArb, { maxLength: 3 }), (raw, zeros) => {
        const text = writeConllu(clean(raw), zeros);
        for (const match of ["exact", "partial", "head"] as const) {
          for (const zeroMatch of ["dependent", "linear"] as const) {
            for (const removeSingletons of [false, true]) {
              const s = score(text, text, { match, zeroMatch, removeSingletons });
              for (const m of ALL) {
                const v = s[m]!;
                const defined = m === "blanc" ? s.blanc!.coref.recallDen + s.blanc!.noncoref.recallDen > 0 : (v as { recallDen: number }).recallDen > 0;
                if (!defined) continue;
                expect(v.recall, `${match}/${zeroMatch}/${removeSingletons} ${m} recall`).toBeCloseTo(1, 12);
                expect(v.precision, `${match}/${zeroMatch}/${removeSingletons} ${m} precision`).toBeCloseTo(1, 12);
              }
            }
          }
        }
      }),
      { numRuns: 60, seed: 9001 },
    );
  });

  it("exact match on contiguous mentions without zeros equals the CoNLL-2012 path", () => {
    fc.assert(
      fc.property(fc.array(mentionArb, { maxLength: 14 }), fc.array(mentionArb, { maxLength: 14 }), fc.boolean(), (k, r, removeSingletons) => {
        const key = clean(k);
        const response = clean(r);
        const corefud = score(writeConllu(key), writeConllu(response), { match: "exact", removeSingletons });
        const conll = evaluate(readConll2012(writeConll2012(key), "key.conll"), readConll2012(writeConll2012(response), "response.conll"), {
          metrics: [...ALL],
          removeSingletons,
        }).metrics;
        for (const m of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mor"] as const) {
          for (const f of ["recallNum", "recallDen", "precisionNum", "precisionDen", "recall", "precision", "f1"] as const) {
            expect(corefud[m]![f], `${m}.${f}`).toBeCloseTo(conll[m]![f], 12);
          }
        }
        for (const part of ["coref", "noncoref"] as const) expect(corefud.blanc![part]).toEqual(conll.blanc![part]);
        if (conll.blanc!.coref.recallDen > 0 && conll.blanc!.noncoref.recallDen > 0) {
          expect(corefud.blanc!.f1).toBeCloseTo(conll.blanc!.f1, 12);
        }
        expect(corefud.conll!.f1).toBeCloseTo(conll.conll!.f1, 12);
      }),
      { numRuns: 300, seed: 9002 },
    );
  });

  it("swapping key and response swaps recall and precision", () => {
    const uniqueHeads = (ms: GenMention[]) => {
      const seen = new Set<string>();
      return ms.filter((m) => {
        const h = `${m.sentence}:${m.start + m.head}`;
        if (seen.has(h)) return false;
        seen.add(h);
        return true;
      });
    };
    fc.assert(
      fc.property(fc.array(mentionArb, { maxLength: 14 }), fc.array(mentionArb, { maxLength: 14 }), (k, r) => {
        for (const match of ["exact", "head"] as const) {
          const key = writeConllu(uniqueHeads(clean(k)));
          const response = writeConllu(uniqueHeads(clean(r)));
          const ab = score(key, response, { match });
          const ba = score(response, key, { match });
          for (const m of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mor"] as const) {
            expect(ab[m]!.recall, `${match} ${m}`).toBeCloseTo(ba[m]!.precision, 12);
            expect(ab[m]!.precision, `${match} ${m}`).toBeCloseTo(ba[m]!.recall, 12);
          }
          for (const part of ["coref", "noncoref"] as const) {
            expect(ab.blanc![part].recallDen).toBe(ba.blanc![part].precisionDen);
            expect(ab.blanc![part].recallNum).toBe(ba.blanc![part].precisionNum);
          }
        }
      }),
      { numRuns: 300, seed: 9003 },
    );
  });
});
