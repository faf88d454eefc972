/**
 * The paired bootstrap over documents: exact observed values, p-values and intervals on
 * runs scored by `evaluate`, reproducibility, and input checks.
 */
import { describe, expect, it } from "vitest";
import type { Corpus, Document, Entity } from "../types.js";
import { evaluate, type EvaluateOptions } from "../evaluate.js";
import {
  BOOTSTRAP_SEED,
  DEFAULT_BOOTSTRAP_SAMPLES,
  bootstrapInterval,
  pairedBootstrap,
  reportDocuments,
  stratifiedBootstrapInterval,
  stratifiedPairedBootstrap,
  type DocumentCounts,
  type RunDocuments,
} from "./bootstrap.js";

function doc(id: string, entities: Entity[]): Document {
  return { id, name: id, part: null, tokens: [], sentenceStarts: [0], entities, line: 1 };
}
function corpus(docs: Document[]): Corpus {
  return { file: "test", documents: docs, warnings: [] };
}
/** Entities of one-token mentions: [[0, 1, 2], [3, 4]] -> {0 1 2} {3 4}. */
function chains(groups: number[][]): Entity[] {
  return groups.map((g) => g.map((t) => [t, t] as const));
}

/**
 * Key document i: three entities of 3 + (i % 4) one-token mentions each, in a row.
 * The "good" response is the key; the "bad" one cuts every entity in two and joins the
 * second half of each to the first half of the next, so about half its links are wrong.
 */
function keyGroups(i: number): number[][] {
  const size = 3 + (i % 4);
  return [0, 1, 2].map((e) => Array.from({ length: size }, (_, k) => e * size + k));
}
function badGroups(i: number): number[][] {
  const groups = keyGroups(i);
  const half = (g: number[]) => Math.floor(g.length / 2);
  return groups.map((g, e) => {
    const next = groups[(e + 1) % groups.length];
    return [...g.slice(half(g)), ...next.slice(0, half(next))];
  });
}

const N = 30;
const ids = Array.from({ length: N }, (_, i) => `doc${String(i).padStart(2, "0")}`);
const key = corpus(ids.map((id, i) => doc(id, chains(keyGroups(i)))));
const good = corpus(ids.map((id, i) => doc(id, chains(keyGroups(i)))));
const bad = corpus(ids.map((id, i) => doc(id, chains(badGroups(i)))));
/** Good on even documents, bad on odd ones: a run close to `alternate2`. */
const alternate = corpus(ids.map((id, i) => doc(id, chains(i % 2 === 0 ? keyGroups(i) : badGroups(i)))));
const alternate2 = corpus(ids.map((id, i) => doc(id, chains(i % 3 === 0 ? badGroups(i) : keyGroups(i)))));

function run(response: Corpus, options?: EvaluateOptions): RunDocuments {
  return reportDocuments(evaluate(key, response, options));
}

describe("pairedBootstrap", () => {
  it("identical runs: delta 0, p = 1 and ci95 [0, 0] on every metric", () => {
    const a = run(bad);
    const r = pairedBootstrap(a, run(bad));
    expect(r).toMatchObject({ documents: N, samples: DEFAULT_BOOTSTRAP_SAMPLES, seed: BOOTSTRAP_SEED });
    expect(r.metrics.map((m) => m.metric)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"]);
    for (const m of r.metrics) {
      expect(m.delta).toBe(0);
      expect(m.pValue).toBe(1);
      expect(m.ci95).toEqual([0, 0]);
    }
  });

  it("observed values are evaluate's corpus F1, to the last bit", () => {
    const reportA = evaluate(key, alternate);
    const reportB = evaluate(key, bad);
    const r = pairedBootstrap(reportDocuments(reportA), reportDocuments(reportB));
    for (const m of r.metrics) {
      const name = m.metric as keyof typeof reportA.metrics;
      expect(m.a).toBe(reportA.metrics[name]?.f1);
      expect(m.b).toBe(reportB.metrics[name]?.f1);
      expect(m.delta).toBe(m.a - m.b);
    }
  });

  it("a clearly better run: p < 0.05 on muc, bcub, ceafe and conll, with intervals above 0", () => {
    const samples = 1000;
    const r = pairedBootstrap(run(good), run(bad), { samples });
    for (const metric of ["muc", "bcub", "ceafe", "conll"]) {
      const m = r.metrics.find((x) => x.metric === metric)!;
      expect(m.a).toBe(1);
      expect(m.delta).toBeGreaterThan(0.2);
      expect(m.pValue).toBeLessThan(0.05);
      // Run B is worse on every document, so no resample comes near a zero difference.
      expect(m.pValue).toBe(1 / (samples + 1));
      expect(m.ci95[0]).toBeGreaterThan(0);
      expect(m.ci95[0]).toBeLessThanOrEqual(m.delta);
      expect(m.ci95[1]).toBeGreaterThanOrEqual(m.delta);
    }
    // Both responses find every key mention: no difference in mention detection.
    expect(r.metrics.find((x) => x.metric === "mentions")).toMatchObject({ delta: 0, pValue: 1 });
  });

  it("is symmetric: swapping the runs negates delta and keeps p", () => {
    // (The nearest-rank interval is not exactly mirrored: its ranks are ⌈0.025·B⌉ and
    // ⌈0.975·B⌉ from the bottom, so it is not checked here.)
    const ab = pairedBootstrap(run(alternate), run(alternate2), { samples: 300 });
    const ba = pairedBootstrap(run(alternate2), run(alternate), { samples: 300 });
    // (+ 0 turns −0 into 0: the comparisons below are by Object.is.)
    const neg = (x: number) => -x + 0;
    ab.metrics.forEach((m, k) => {
      expect(ba.metrics[k].delta).toBe(neg(m.delta));
      expect(ba.metrics[k].pValue).toBe(m.pValue);
    });
  });

  it("the same seed gives identical results; another seed (likely) another p in a borderline case", () => {
    const a = run(alternate);
    const b = run(alternate2);
    const one = pairedBootstrap(a, b, { samples: 200, seed: 7 });
    expect(pairedBootstrap(a, b, { samples: 200, seed: 7 })).toEqual(one);
    const conll = one.metrics.find((m) => m.metric === "conll")!;
    expect(conll.pValue).toBeGreaterThan(0.01);
    expect(conll.pValue).toBeLessThan(1);
    const other = pairedBootstrap(a, b, { samples: 200, seed: 8 }).metrics.find((m) => m.metric === "conll")!;
    expect(other.delta).toBe(conll.delta);
    expect(other.pValue).not.toBe(conll.pValue);
  });

  it("does not depend on the maps' insertion order", () => {
    const a = run(alternate);
    const b = run(alternate2);
    const reversed = (m: RunDocuments): RunDocuments => new Map([...m].reverse());
    const r1 = pairedBootstrap(a, b, { samples: 200 });
    const r2 = pairedBootstrap(reversed(a), reversed(b), { samples: 200 });
    r1.metrics.forEach((m, k) => {
      expect(r2.metrics[k].metric).toBe(m.metric);
      expect(r2.metrics[k].pValue).toBe(m.pValue);
      expect(r2.metrics[k].delta).toBeCloseTo(m.delta, 14);
      expect(r2.metrics[k].ci95[0]).toBeCloseTo(m.ci95[0], 14);
      expect(r2.metrics[k].ci95[1]).toBeCloseTo(m.ci95[1], 14);
    });
  });

  it("with one document every sample is the observed statistic", () => {
    const one = corpus([key.documents[3]]);
    const a = reportDocuments(evaluate(one, corpus([good.documents[3]])));
    const b = reportDocuments(evaluate(one, corpus([bad.documents[3]])));
    const samples = 50;
    const r = pairedBootstrap(a, b, { samples });
    for (const m of r.metrics) {
      expect(m.ci95).toEqual([m.delta, m.delta]);
      expect(m.pValue).toBe(m.delta === 0 ? 1 : 1 / (samples + 1));
    }
    const interval = bootstrapInterval(b, "bcub", { samples });
    expect(interval.lo).toBe(interval.value);
    expect(interval.hi).toBe(interval.value);
  });

  it("sums counts over the sampled documents (micro-average), by hand", () => {
    // Two documents: MUC 1/1 both ways, and 0/3 both ways. Corpus: R = P = 1/4, F1 = 1/4
    // (the macro-average would be 1/2). A sample holds doc x twice (F1 1), doc y twice
    // (F1 0) or both (F1 1/4), with probabilities 1/4, 1/4, 1/2: with 1000 samples the
    // 2.5th and 97.5th nearest-rank percentiles are 0 and 1.
    const run: RunDocuments = new Map<string, DocumentCounts>([
      ["x", { muc: { recallNum: 1, recallDen: 1, precisionNum: 1, precisionDen: 1 } }],
      ["y", { muc: { recallNum: 0, recallDen: 3, precisionNum: 0, precisionDen: 3 } }],
    ]);
    expect(bootstrapInterval(run, "muc")).toEqual({ metric: "muc", value: 0.25, lo: 0, hi: 1 });
    const empty: RunDocuments = new Map([
      ["x", { muc: { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 } }],
      ["y", { muc: { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 } }],
    ]);
    const r = pairedBootstrap(run, empty);
    expect(r.metrics).toHaveLength(1);
    expect(r.metrics[0]).toMatchObject({ metric: "muc", a: 0.25, b: 0, delta: 0.25 });
  });

  it("keeps only metrics present in every document of both runs, optional ones last", () => {
    const withMcf = run(alternate, { mappedClusterF: true });
    const r = pairedBootstrap(withMcf, run(bad, { mappedClusterF: true }), { samples: 20 });
    expect(r.metrics.map((m) => m.metric)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll", "mcf"]);
    const mixed = pairedBootstrap(withMcf, run(bad), { samples: 20 });
    expect(mixed.metrics.map((m) => m.metric)).not.toContain("mcf");
    const noConll = pairedBootstrap(run(alternate, { metrics: ["muc", "lea"] }), run(bad), { samples: 20 });
    expect(noConll.metrics.map((m) => m.metric)).toEqual(["muc", "lea"]);
  });

  it("rejects different document sets, naming the documents, and empty runs", () => {
    const a = run(good);
    const b = new Map(run(bad));
    b.delete("doc05");
    b.set("extra", b.get("doc06")!);
    expect(() => pairedBootstrap(a, b)).toThrow(RangeError);
    expect(() => pairedBootstrap(a, b)).toThrow(/only in run A: "doc05"; only in run B: "extra"/);
    expect(() => pairedBootstrap(new Map(), new Map())).toThrow(RangeError);
    expect(() => bootstrapInterval(new Map(), "muc")).toThrow(RangeError);
  });

  it("rejects invalid options and malformed counts", () => {
    const a = run(good);
    for (const samples of [0, -1, 1.5, 1_000_001, Number.NaN]) {
      expect(() => pairedBootstrap(a, a, { samples })).toThrow(RangeError);
      expect(() => bootstrapInterval(a, "muc", { samples })).toThrow(RangeError);
    }
    for (const seed of [-1, 0.5, 2 ** 32, Number.POSITIVE_INFINITY]) {
      expect(() => pairedBootstrap(a, a, { seed })).toThrow(RangeError);
    }
    expect(() => pairedBootstrap(a, a, { samples: 1, seed: 2 ** 32 - 1 })).not.toThrow();
    expect(() => bootstrapInterval(a, "nope")).toThrow(/not in every document/);
    const broken: RunDocuments = new Map([["x", { muc: { recallNum: Number.NaN, recallDen: 1, precisionNum: 0, precisionDen: 1 } }]]);
    expect(() => bootstrapInterval(broken, "muc")).toThrow(TypeError);
    const reserved = new Map([["x", { conll: { recallNum: 0, recallDen: 1, precisionNum: 0, precisionDen: 1 } }]]);
    expect(() => bootstrapInterval(reserved, "conll")).toThrow(TypeError);
  });
});

describe("bootstrapInterval", () => {
  it("contains the observed value, and is degenerate when every document is the same", () => {
    const r = run(alternate);
    for (const metric of ["muc", "bcub", "ceafe", "blanc", "conll"]) {
      const i = bootstrapInterval(r, metric);
      expect(i.metric).toBe(metric);
      expect(i.lo).toBeLessThanOrEqual(i.value);
      expect(i.hi).toBeGreaterThanOrEqual(i.value);
      expect(i.lo).toBeLessThan(i.hi);
    }
    // Every document the same (document 0's pair 30 times over): every sample is the same
    // average, so the interval has no width.
    const same = corpus(ids.map((id) => doc(id, chains(badGroups(0)))));
    const keySame = corpus(ids.map((id) => doc(id, chains(keyGroups(0)))));
    const i = bootstrapInterval(reportDocuments(evaluate(keySame, same)), "muc");
    expect(i.lo).toBeCloseTo(i.value, 12);
    expect(i.hi).toBeCloseTo(i.value, 12);
    expect(bootstrapInterval(run(good), "conll")).toEqual({ metric: "conll", value: 1, lo: 1, hi: 1 });
  });

  it("matches the pairedBootstrap draws: a run against an all-zero run gives the same interval", () => {
    const r = run(alternate, { metrics: ["muc"] });
    const zero: RunDocuments = new Map([...r.keys()].map((id) => [id, { muc: { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 } }]));
    const i = bootstrapInterval(r, "muc", { samples: 400, seed: 3 });
    const p = pairedBootstrap(r, zero, { samples: 400, seed: 3 }).metrics[0];
    expect(p.ci95).toEqual([i.lo, i.hi]);
  });
});

describe("scale", () => {
  // Speed is measured by `npm run bench` (case d), not here.
  it("1,000 samples over 100 documents give every metric, mapped F included", () => {
    const n = 100;
    const many = Array.from({ length: n }, (_, i) => `d${i}`);
    const k = corpus(many.map((id, i) => doc(id, chains(keyGroups(i)))));
    const a = reportDocuments(evaluate(k, corpus(many.map((id, i) => doc(id, chains(i % 2 ? keyGroups(i) : badGroups(i))))), { mappedClusterF: true }));
    const b = reportDocuments(evaluate(k, corpus(many.map((id, i) => doc(id, chains(i % 3 ? keyGroups(i) : badGroups(i))))), { mappedClusterF: true }));
    const r = pairedBootstrap(a, b, { samples: 1000 });
    expect(r.metrics.map((m) => m.metric)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll", "mcf"]);
    expect(r.documents).toBe(n);
  });
});

describe("stratifiedPairedBootstrap (macro-average over datasets, resampled within each)", () => {
  /** MUC counts of one document: `rn/rd` both ways (recall = precision = F1 = rn/rd). */
  const muc = (rn: number, rd: number): DocumentCounts => ({ muc: { recallNum: rn, recallDen: rd, precisionNum: rn, precisionDen: rd } });
  const docs = (entries: [string, DocumentCounts][]): RunDocuments => new Map(entries);

  it("with one stratum equals pairedBootstrap and bootstrapInterval on the same seed, to the last bit", () => {
    const a = run(alternate);
    const b = run(alternate2);
    for (const seed of [BOOTSTRAP_SEED, 7]) {
      expect(stratifiedPairedBootstrap([{ a, b }], { samples: 300, seed })).toEqual(pairedBootstrap(a, b, { samples: 300, seed }));
      expect(stratifiedBootstrapInterval([a], "conll", { samples: 300, seed })).toEqual(bootstrapInterval(a, "conll", { samples: 300, seed }));
    }
    // The BLANC rule is passed on.
    expect(stratifiedPairedBootstrap([{ a, b, blancRule: "corefud" }], { samples: 50 })).toEqual(pairedBootstrap(a, b, { samples: 50, blancRule: "corefud" }));
  });

  it("averages each dataset's micro-averaged F1 (not the pooled counts)", () => {
    // Dataset X: one document, MUC 1/1; dataset Y: one document, MUC 0/9. Pooled: 1/10;
    // macro-average: (1 + 0) / 2 = 1/2.
    const x = docs([["x", muc(1, 1)]]);
    const y = docs([["y", muc(0, 9)]]);
    const zero = (d: RunDocuments) => docs([...d].map(([id]) => [id, muc(0, 1)]));
    const r = stratifiedPairedBootstrap([{ a: x, b: zero(x) }, { a: y, b: zero(y) }], { samples: 20 });
    expect(r.documents).toBe(2);
    expect(r.metrics).toEqual([{ metric: "muc", a: 0.5, b: 0, delta: 0.5, pValue: 1 / 21, ci95: [0.5, 0.5] }]);
  });

  it("never draws documents across datasets", () => {
    // Dataset X has one document, on which A is perfect and B scores 0; dataset Y has 20
    // documents on which the runs agree, half perfect and half 0. Resampled within each
    // dataset, every sample holds X's document exactly once, so the difference is 1/2 in
    // every sample: interval [1/2, 1/2] and the smallest p. Pooling the 21 documents would
    // leave X's document out of about a third of the samples (difference 0 there) and put
    // it in others twice or more, spreading the interval and raising p.
    const xa = docs([["x", muc(1, 1)]]);
    const xb = docs([["x", muc(0, 1)]]);
    const y = docs(Array.from({ length: 20 }, (_, i): [string, DocumentCounts] => [`y${String(i).padStart(2, "0")}`, muc(i % 2, 1)]));
    const samples = 500;
    const r = stratifiedPairedBootstrap([{ a: xa, b: xb }, { a: y, b: y }], { samples });
    expect(r.metrics).toHaveLength(1);
    expect(r.metrics[0].delta).toBe(0.5);
    // (1/2 up to float noise: (F1_X + F1_Y) / 2 − F1_Y / 2.)
    for (const end of r.metrics[0].ci95) expect(end).toBeCloseTo(0.5, 14);
    expect(r.metrics[0].pValue).toBe(1 / (samples + 1));
    // The same runs as one pool of documents (what stratification avoids) give another answer.
    const pooled = pairedBootstrap(new Map([...xa, ...y]), new Map([...xb, ...y]), { samples });
    expect(pooled.metrics[0].ci95[0]).toBeLessThan(0.04);
    expect(pooled.metrics[0].pValue).toBeGreaterThan(0.05);
    // Each run's macro interval: X's document is in every sample, so A's lower end stays ≥ 1/2.
    const ia = stratifiedBootstrapInterval([xa, y], "muc", { samples });
    expect(ia.value).toBe(0.75);
    expect(ia.lo).toBeGreaterThanOrEqual(0.5);
    const ib = stratifiedBootstrapInterval([xb, y], "muc", { samples });
    expect(ia.lo - ib.lo).toBeCloseTo(0.5, 14);
  });

  it("a dataset a run left out counts 0 in the observed value and in every sample", () => {
    const x = docs([
      ["x1", muc(1, 1)],
      ["x2", muc(1, 2)],
    ]);
    const y = docs([
      ["y1", muc(1, 1)],
      ["y2", muc(0, 1)],
    ]);
    // B left dataset X out; a third dataset both left out still counts in the average.
    const r = stratifiedPairedBootstrap([{ a: x, b: null }, { a: y, b: y }, { a: null, b: null }], { samples: 200 });
    expect(r.documents).toBe(4);
    const m = r.metrics[0];
    expect(m.a).toBe((2 / 3 + 1 / 2) / 3);
    expect(m.b).toBe(1 / 2 / 3);
    // The difference is X's F1 / 3 in every sample, always > 0.
    expect(m.ci95[0]).toBeGreaterThan(0);
    expect(m.pValue).toBe(1 / 201);
    const missing = stratifiedBootstrapInterval([null, y], "muc", { samples: 200 });
    expect(missing.value).toBe(0.25);
    expect(missing.hi).toBeLessThanOrEqual(0.5);
  });

  it("keeps the metrics every dataset has, and rejects unpaired or empty input", () => {
    const full = run(alternate);
    const mucOnly = docs([["z", muc(1, 2)]]);
    const r = stratifiedPairedBootstrap([{ a: full, b: full }, { a: mucOnly, b: mucOnly }], { samples: 10 });
    expect(r.metrics.map((m) => m.metric)).toEqual(["muc"]);
    expect(() => stratifiedPairedBootstrap([])).toThrow(RangeError);
    expect(() => stratifiedPairedBootstrap([{ a: null, b: null }])).toThrow(/at least one stratum with documents/);
    expect(() => stratifiedPairedBootstrap([{ a: mucOnly, b: docs([["w", muc(1, 2)]]) }])).toThrow(/only in run A: "z"; only in run B: "w"/);
    expect(() => stratifiedBootstrapInterval([mucOnly], "bcub")).toThrow(/metric "bcub"/);
    expect(() => stratifiedPairedBootstrap([{ a: mucOnly, b: mucOnly }], { samples: 0 })).toThrow(RangeError);
  });
});
