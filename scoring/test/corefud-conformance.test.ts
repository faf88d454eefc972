/**
 * Conformance with the CorefUD scorer v1.2 (ufal/corefud-scorer, the CRAC shared task's
 * official scorer): its 111 unit-test cases (fixtures, licence and attribution in
 * fixtures/corefud-scorer/), every metric under each case's settings, within 1e-9, on the
 * fractions and on the numerators and denominators. That includes the 3 cases upstream skips
 * (test_OLMC5–7): `expected.json` has the scorer's real output for them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate, type MentionMatch, type Report } from "../evaluate.js";
import type { Score } from "../metrics/counts.js";

const root = fileURLToPath(new URL("./fixtures/corefud-scorer/", import.meta.url));

interface ExpectedPart {
  recall: number;
  precision: number;
  f1: number;
  recall_num: number;
  recall_den: number;
  precision_num: number;
  precision_den: number;
  averaged?: boolean;
}
interface Entry {
  test: string;
  key: string;
  response: string;
  settings: { match: MentionMatch; keep_singletons: boolean; keep_zeros: boolean; zero_match_method: "linear" | "dependent" };
  metrics: Record<string, ExpectedPart & { coref?: ExpectedPart; noncoref?: ExpectedPart }>;
  conll: { f1: number };
}

const expected = JSON.parse(readFileSync(join(root, "expected.json"), "utf8")) as { entries: Entry[] };
const TOL = 1e-9;

function score(e: Entry): Report {
  const key = readCorefUD(readFileSync(join(root, "data", e.key)), e.key);
  const response = readCorefUD(readFileSync(join(root, "data", e.response)), e.response);
  return evaluate(key, response, {
    match: e.settings.match,
    zeroMatch: e.settings.zero_match_method,
    removeSingletons: !e.settings.keep_singletons,
    removeZeros: !e.settings.keep_zeros,
    metrics: ["muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero"],
  });
}

/** The mismatches between an expected part and our score, as readable strings. */
function diff(name: string, want: ExpectedPart, got: Score | undefined): string[] {
  if (!got) return [`${name}: missing`];
  const pairs: [string, number, number][] = [
    ["recall", want.recall, got.recall],
    ["precision", want.precision, got.precision],
    ["f1", want.f1, got.f1],
    ["recall_num", want.recall_num, got.recallNum],
    ["recall_den", want.recall_den, got.recallDen],
    ["precision_num", want.precision_num, got.precisionNum],
    ["precision_den", want.precision_den, got.precisionDen],
  ];
  return pairs.filter(([, w, g]) => !(Math.abs(w - g) <= TOL)).map(([f, w, g]) => `${name}.${f}: expected ${w}, got ${g}`);
}

describe("CorefUD scorer conformance", () => {
  it("has all 111 entries", () => {
    expect(expected.entries).toHaveLength(111);
  });

  for (const e of expected.entries) {
    it(`${e.test}: ${e.key} vs ${e.response} (${e.settings.match}, ${e.settings.zero_match_method}${e.settings.keep_zeros ? "" : ", no zeros"})`, () => {
      const report = score(e);
      const problems: string[] = [];
      for (const [name, want] of Object.entries(e.metrics)) {
        if (name === "blanc") {
          const got = report.metrics.blanc;
          if (!got) {
            problems.push("blanc: missing");
            continue;
          }
          for (const f of ["recall", "precision", "f1"] as const) {
            if (!(Math.abs(want[f] - got[f]) <= TOL)) problems.push(`blanc.${f}: expected ${want[f]}, got ${got[f]}`);
          }
          problems.push(...diff("blanc.coref", want.coref!, { ...got.coref, ...partScore(got.coref) }));
          problems.push(...diff("blanc.noncoref", want.noncoref!, { ...got.noncoref, ...partScore(got.noncoref) }));
          continue;
        }
        problems.push(...diff(name, want, report.metrics[name as "muc"]));
      }
      const conll = report.metrics.conll?.f1;
      if (conll === undefined || !(Math.abs(conll - e.conll.f1) <= TOL)) problems.push(`conll: expected ${e.conll.f1}, got ${conll}`);
      expect(problems).toEqual([]);
    });
  }
});

/** A BLANC part's R, P, F as upstream's `get_prf` computes them. */
function partScore(c: { recallNum: number; recallDen: number; precisionNum: number; precisionDen: number }) {
  const recall = c.recallNum === 0 ? 0 : c.recallNum / c.recallDen;
  const precision = c.precisionNum === 0 ? 0 : c.precisionNum / c.precisionDen;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { recall, precision, f1 };
}
