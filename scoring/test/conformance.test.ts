/**
 * Conformance with the CoNLL reference scorer: every case of the reference scorer's own
 * test suite (113 cases; fixtures and licence in fixtures/reference-scorer/), every metric.
 * - `scorer` values (what scorer.pl printed) must match within 1e-9 on fractions, and the
 *   numerators/denominators within 1e-9 too;
 * - the 125 upstream-asserted values (`upstream_expected`) must match at the file's stated
 *   tolerance: the sum of |Δ| over recall, precision and F1 below 1e-4 (upstream test.pl).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readConll2012 } from "../formats/conll2012.js";
import { evaluate, type Report } from "../evaluate.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "reference-scorer");

interface ExpectedCounts {
  recall_num: number;
  recall_den: number;
  precision_num: number;
  precision_den: number;
  recall: number;
  precision: number;
  f1: number;
}
interface ExpectedCase {
  id: string;
  key: string;
  response: string;
  upstream_expected?: Record<string, { recall: number; precision: number; f1: number }>;
  scorer: Record<string, unknown> & {
    blanc?: { recall: number; precision: number; f1: number; coref_links: ExpectedCounts; noncoref_links: ExpectedCounts };
    conll?: { f1: number };
  };
}

const expected = JSON.parse(readFileSync(join(root, "expected.json"), "utf8")) as {
  summary: { cases: number; upstream_checks: number };
  cases: ExpectedCase[];
};

function score(c: ExpectedCase): Report {
  const key = readConll2012(readFileSync(join(root, c.key)), c.key);
  const response = readConll2012(readFileSync(join(root, c.response)), c.response);
  return evaluate(key, response);
}

const COUNT_METRICS = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"] as const;
const TOL = 1e-9;

describe("reference scorer conformance", () => {
  it("has all 113 cases and 125 upstream checks", () => {
    expect(expected.cases).toHaveLength(113);
    expect(expected.summary.cases).toBe(113);
    let checks = 0;
    for (const c of expected.cases) checks += Object.keys(c.upstream_expected ?? {}).length;
    expect(checks).toBe(125);
  });

  for (const c of expected.cases) {
    it(`${c.id}: matches scorer.pl on every metric`, () => {
      const report = score(c);
      let compared = 0;
      for (const m of COUNT_METRICS) {
        const want = c.scorer[m] as ExpectedCounts | undefined;
        if (!want) continue;
        const got = report.metrics[m]!;
        for (const field of ["recall_num", "recall_den", "precision_num", "precision_den"] as const) {
          const ours = got[field.replace(/_(\w)/, (_, x: string) => x.toUpperCase()) as "recallNum"];
          expect(Math.abs(ours - want[field]), `${m}.${field}: ${ours} vs ${want[field]}`).toBeLessThan(TOL);
        }
        for (const field of ["recall", "precision", "f1"] as const) {
          expect(Math.abs(got[field] - want[field]), `${m}.${field}: ${got[field]} vs ${want[field]}`).toBeLessThan(TOL);
        }
        compared++;
      }
      const wantBlanc = c.scorer.blanc;
      if (wantBlanc) {
        const got = report.metrics.blanc!;
        for (const field of ["recall", "precision", "f1"] as const) {
          expect(Math.abs(got[field] - wantBlanc[field]), `blanc.${field}`).toBeLessThan(TOL);
        }
        for (const [ours, want] of [
          [got.coref, wantBlanc.coref_links],
          [got.noncoref, wantBlanc.noncoref_links],
        ] as const) {
          expect(ours.recallNum).toBe(want.recall_num);
          expect(ours.recallDen).toBe(want.recall_den);
          expect(ours.precisionNum).toBe(want.precision_num);
          expect(ours.precisionDen).toBe(want.precision_den);
        }
        compared++;
      }
      if (c.scorer.conll) {
        expect(Math.abs(report.metrics.conll!.f1 - c.scorer.conll.f1)).toBeLessThan(TOL);
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(7);
    });
  }

  const upstream = expected.cases.filter((c) => c.upstream_expected);
  for (const c of upstream) {
    it(`${c.id}: matches the upstream expected values (Σ|Δ| < 1e-4)`, () => {
      const report = score(c);
      for (const [metric, want] of Object.entries(c.upstream_expected!)) {
        const got = report.metrics[metric as keyof typeof report.metrics] as { recall: number; precision: number; f1: number };
        const delta = Math.abs(got.recall - want.recall) + Math.abs(got.precision - want.precision) + Math.abs(got.f1 - want.f1);
        expect(delta, `${metric}: R ${got.recall} P ${got.precision} F ${got.f1} vs ${JSON.stringify(want)}`).toBeLessThan(1e-4);
      }
    });
  }
});
