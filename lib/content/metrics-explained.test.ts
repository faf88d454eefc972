/**
 * The metric explanations: every metric has a complete page entry, and each worked example,
 * scored live by the scorer, gives the papers' published figures (B³ 16/21 vs 7/12, MUC 2/3,
 * …) and, where the papers print none, the values worked out by hand below.
 */
import { describe, expect, it } from "vitest";
import { LEADERBOARD_METRICS } from "../validations/metrics";
import { formatCitation, shortCitation } from "./citations";
import { fractionText, type ScorePart } from "./exact-fractions";
import { mathText } from "./formulas";
import { getMetricExplanation, isMetricId, METRIC_IDS, type MetricId } from "./metrics-explained";
import type { ExampleResponse, ScoreRow, ScoreRowId, WorkedExample } from "./worked-examples";

/** The explanation of a known id (fails the test otherwise). */
function explain(id: MetricId) {
  const e = getMetricExplanation(id);
  if (!e) throw new Error(`no explanation for ${id}`);
  return e;
}

/** A response's row by id. */
function rowOf(response: ExampleResponse, id: ScoreRowId): ScoreRow {
  const row = response.rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id} in ${response.label}`);
  return row;
}

/** A score part's reduced fraction as text, e.g. "16/21" (null when none). */
const exact = (p: ScorePart | null): string | null => (p?.exact ? fractionText(p.exact) : null);

/** Each response's [recall, precision, F1] of a row, as reduced fractions. */
function fractions(example: WorkedExample, id: ScoreRowId): (string | null)[][] {
  return example.responses.map((r) => {
    const row = rowOf(r, id);
    return [exact(row.recall), exact(row.precision), exact(row.f1)];
  });
}

describe("metric ids", () => {
  it("every metric has a page entry, and unknown ids have none", () => {
    expect(METRIC_IDS).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mcf", "mor", "zero", "conll"]);
    for (const id of METRIC_IDS) expect(getMetricExplanation(id)?.id).toBe(id);
    for (const id of ["", "nope", "MUC", "b3", "constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(getMetricExplanation(id)).toBeNull();
      expect(isMetricId(id)).toBe(false);
    }
  });

  it("every leaderboard metric has a page", () => {
    for (const m of LEADERBOARD_METRICS) expect(isMetricId(m)).toBe(true);
  });
});

describe.each(METRIC_IDS)("the %s page entry", (id) => {
  const e = explain(id);

  it("has a name, a one-line definition, a description, formulas, conventions and full citations", () => {
    expect(e.label.length).toBeGreaterThan(0);
    expect(e.name.length).toBeGreaterThan(0);
    expect(e.definition.length).toBeGreaterThan(20);
    expect(e.definition).not.toMatch(/\n/);
    expect(e.description.length).toBeGreaterThan(0);
    expect(e.conventions.length).toBeGreaterThan(0);
    expect(e.formulas.length).toBeGreaterThan(0);
    for (const f of e.formulas) {
      expect(f.label.length).toBeGreaterThan(0);
      expect(mathText(f.math)).toContain(" = ");
    }
    expect(e.citations.length).toBeGreaterThan(0);
    for (const c of e.citations) {
      expect(c.authors).toMatch(/\w/);
      expect(c.year).toBeGreaterThanOrEqual(1995);
      expect(c.title.length).toBeGreaterThan(5);
      expect(c.venue.length).toBeGreaterThan(5);
      expect(c.role.length).toBeGreaterThan(5);
      if (c.url) expect(c.url).toMatch(/^https:\/\/aclanthology\.org\/([A-Z]\d\d-\d{4}|\d{4}\.[a-z-]+\.\d+)\/$/);
      expect(formatCitation(c)).toContain(c.title);
    }
  });

  it("has a worked example, scored live, whose exact fractions reproduce the scorer's values and whose published figures agree", () => {
    const ex = e.example();
    expect(ex.key.length).toBeGreaterThan(0);
    expect(ex.responses.length).toBeGreaterThan(0);
    expect(ex.takeaway.length).toBeGreaterThan(0);
    for (const r of ex.responses) {
      expect(r.entities.length).toBeGreaterThan(0);
      expect(r.overlap).toHaveLength(ex.key.length);
      for (const cells of r.overlap) expect(cells).toHaveLength(r.entities.length);
      expect(r.rows.filter((row) => row.main)).toHaveLength(1);
      expect(r.rows.find((row) => row.main)?.id).toBe(id);
      for (const row of r.rows) {
        for (const p of [row.recall, row.precision, row.f1]) {
          if (!p) continue;
          expect(p.value).toBeGreaterThanOrEqual(0);
          expect(p.value).toBeLessThanOrEqual(1);
          expect(p.exact).not.toBeNull();
          expect(p.exact!.num / p.exact!.den).toBeCloseTo(p.value, 12);
          expect(p.expression.length).toBeGreaterThan(0);
        }
        for (const f of row.figures) expect(f.agrees, `${id} ${r.label} ${row.id} ${f.part} ${f.printed}`).toBe(true);
      }
    }
  });
});

describe("the papers' published figures, computed live", () => {
  it("MUC (Vilain et al. 1995, first example): recall 2/3, precision 2/2", () => {
    const ex = explain("muc").example();
    expect(ex.paper).toBe("Vilain et al. (1995)");
    const [response] = ex.responses;
    const muc = rowOf(response, "muc");
    expect(muc.recall?.expression).toBe("2/3");
    expect(exact(muc.recall)).toBe("2/3");
    expect(muc.precision?.expression).toBe("2/2");
    expect(muc.precision?.value).toBe(1);
    expect(muc.figures.map((f) => [f.part, f.figure.num, f.figure.den, f.agrees])).toEqual([
      ["recall", 2, 3, true],
      ["precision", 2, 2, true],
    ]);
  });

  it("B³ (Bagga & Baldwin 1998): precision 16/21 vs 7/12, recall 1 for both; per entity 39/49 vs 3/4; MUC 9/10 for both", () => {
    const ex = explain("bcub").example();
    expect(ex.responses.map((r) => r.label)).toEqual(["Figure 2", "Figure 4"]);
    expect(fractions(ex, "bcub").map(([r, p]) => [r, p])).toEqual([
      ["1", "16/21"],
      ["1", "7/12"],
    ]);
    expect(rowOf(ex.responses[0], "bcub").precision?.expression).toBe("(64/7)/12");
    expect(fractions(ex, "bcub-entity").map(([, p]) => p)).toEqual(["39/49", "3/4"]);
    for (const r of ex.responses) {
      const muc = rowOf(r, "muc");
      expect(muc.precision?.expression).toBe("9/10");
      expect(muc.figures).toEqual([expect.objectContaining({ part: "precision", figure: { num: 9, den: 10 }, agrees: true })]);
      expect(rowOf(r, "bcub").figures.map((f) => f.printed).sort()).toEqual(r.label === "Figure 2" ? ["100%", "16/21 (76%)"] : ["100%", "7/12 (58%)"]);
    }
  });
});

describe("the examples without published figures, against hand-worked values", () => {
  it("mention identification (Vilain et al.'s third example): J missed, A, F and I extra", () => {
    const ex = explain("mentions").example();
    expect(ex.key.flat().map((m) => m.token).join("")).toBe("BCDEGHJ");
    expect(fractions(ex, "mentions")).toEqual([["6/7", "2/3", "3/4"]]);
    expect(rowOf(ex.responses[0], "mentions").precision?.expression).toBe("6/9");
    const extra = ex.responses[0].entities.flat().filter((m) => m.keyEntity === null);
    expect(extra.map((m) => [m.token, m.span])).toEqual([
      ["A", [9, 9]],
      ["F", [14, 14]],
      ["I", [17, 17]],
    ]);
  });

  it("CEAFm and CEAFe: one-to-one alignments of Bagga & Baldwin's example", () => {
    // Figure 2: {1-5}↔{1-5} and {8 9 A B C}↔{6-C}: 10 shared mentions; φ4 = 1 + 10/12.
    // Figure 4: {1-5}↔{1 2 3 4 5 8 9 A B C} and {6 7}↔{6 7}: 7 mentions; φ4 = 10/15 + 1.
    expect(fractions(explain("ceafm").example(), "ceafm")).toEqual([
      ["5/6", "5/6", "5/6"],
      ["7/12", "7/12", "7/12"],
    ]);
    const ceafe = explain("ceafe").example();
    expect(fractions(ceafe, "ceafe")).toEqual([
      ["11/18", "11/12", "11/15"],
      ["5/9", "5/6", "2/3"],
    ]);
    expect(rowOf(ceafe.responses[0], "ceafe").recall?.expression).toBe("(11/6)/3");
  });

  it("LEA: importance = entity size; Figure 4 loses more precision", () => {
    // Figure 2: {6-C} keeps 1 + 10 of its 21 links: P = (5 + 7·11/21)/12 = 13/18.
    // Figure 4: {1-5 8-C} keeps 10 + 10 of its 45 links: P = (10·20/45 + 2)/12 = 29/54.
    expect(fractions(explain("lea").example(), "lea")).toEqual([
      ["1", "13/18", "26/31"],
      ["1", "29/54", "58/83"],
    ]);
  });

  it("BLANC: coreference and non-coreference links, averaged", () => {
    const ex = explain("blanc").example();
    // Key: 10 + 1 + 10 = 21 coreference links of 66 pairs; Figure 2 has 10 + 21, Figure 4 45 + 1.
    expect(ex.responses.map((r) => rowOf(r, "blanc-coref").precision?.expression)).toEqual(["21/31", "21/46"]);
    expect(ex.responses.map((r) => rowOf(r, "blanc-noncoref").recall?.expression)).toEqual(["35/45", "20/45"]);
    expect(fractions(ex, "blanc")).toEqual([
      ["8/9", "26/31", "175/208"],
      ["13/18", "67/92", "541/871"],
    ]);
    expect(rowOf(ex.responses[0], "blanc").recall?.expression).toBe("(1 + 7/9)/2");
    // The takeaway's claim: Figure 4 adds more than twice as many wrong coreference links.
    const wrong = ex.responses.map((r) => {
      const c = rowOf(r, "blanc-coref").precision!.expression.split("/").map(Number);
      return c[1] - c[0];
    });
    expect(wrong[1]).toBeGreaterThan(2 * wrong[0]);
  });

  it("CoNLL F1: the unweighted mean of the MUC, B³ and CEAFe F1", () => {
    const ex = explain("conll").example();
    for (const r of ex.responses) {
      const conll = rowOf(r, "conll");
      expect(conll.recall).toBeNull();
      expect(conll.precision).toBeNull();
      const mean = (rowOf(r, "muc").f1.value + rowOf(r, "bcub").f1.value + rowOf(r, "ceafe").f1.value) / 3;
      expect(conll.f1.value).toBeCloseTo(mean, 14);
    }
    // The takeaway's claim: MUC scores both responses alike.
    expect(new Set(ex.responses.map((r) => rowOf(r, "muc").f1.value)).size).toBe(1);
    // (18/19 + 32/37 + 11/15)/3 and (18/19 + 14/19 + 2/3)/3.
    expect(fractions(ex, "conll").map(([, , f]) => f)).toEqual(["26843/31635", "134/171"]);
  });

  it("mapped cluster F: each response entity mapped to its best key entity above 0.2", () => {
    const ex = explain("mcf").example();
    expect(ex.responses.map((r) => r.mapping?.map((m) => [m.response, m.key, exact(m.f)]))).toEqual([
      [
        [0, 0, "1"],
        [1, 2, "5/6"],
      ],
      [
        [0, 0, "2/3"],
        [1, 1, "1"],
      ],
    ]);
    // The takeaway's claims: one key entity is left unmapped in each response, and Figure 4's S1 ties K1 and K3.
    for (const r of ex.responses) {
      const mapped = new Set(r.mapping?.map((m) => m.key));
      expect(ex.key.map((_, k) => k).filter((k) => !mapped.has(k))).toHaveLength(1);
    }
    expect(ex.responses[1].overlap.map((cells) => cells[0])).toEqual([5, 0, 5]);
    expect(ex.key[0].length).toBe(ex.key[2].length);
    expect(fractions(ex, "mcf")).toEqual([
      ["5/6", "5/6", "5/6"],
      ["7/12", "7/12", "7/12"],
    ]);
  });
});

describe("the CorefUD scorer's metrics, on examples in the CorefUD format", () => {
  it("MOR: 6 of the 9 key words covered, every response word in a key mention; exact matching finds 1 of 4 mentions", () => {
    const e = explain("mor");
    expect(e.scorer).toBe("corefud");
    expect(e.optional).toBe(true);
    expect(e.citations[0].title).toBe("Findings of the Shared Task on Multilingual Coreference Resolution");
    const ex = e.example();
    expect(ex.sentences).toEqual(["1  The old man saw his dog near the river bank ."]);
    expect(ex.key.map((entity) => entity.map((m) => [m.token, m.position]))).toEqual([
      [
        ["The old man", "1:1,2,3"],
        ["his", "1:5"],
      ],
      [["his dog", "1:5,6"]],
      [["the river bank", "1:8,9,10"]],
    ]);
    // "his" is the one response mention the key holds.
    expect(ex.responses[0].entities.flat().map((m) => m.keyEntity)).toEqual([null, 0, null, null]);
    expect(ex.responses[0].overlap).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    // Pairs: The old man/old man 2, his/his 1, his dog/dog 1, the river bank/river bank 2.
    expect(rowOf(ex.responses[0], "mor").recall?.expression).toBe("6/9");
    expect(fractions(ex, "mor")).toEqual([["2/3", "1", "4/5"]]);
    expect(fractions(ex, "mentions")).toEqual([["1/4", "1/4", "1/4"]]);
  });

  it("zeros: one anaphor right, one wrongly linked, one missed: R = 1/3, P = 1/2", () => {
    const e = explain("zero");
    expect(e.scorer).toBe("corefud");
    expect(e.optional).toBe(true);
    const ex = e.example();
    expect(ex.sentences?.[1]).toBe("2  ∅ was tired .");
    expect(ex.key.map((entity) => entity.map((m) => m.position))).toEqual([
      ["1:1", "2:0.1"],
      ["3:1", "3:3.1", "4:0.1"],
    ]);
    expect(ex.key[1][2].token).toBe("∅");
    // TP (sentence 2), WL (sentence 3): recall 1/(1 + 1 + 1), precision 1/(1 + 0 + 1).
    expect(rowOf(ex.responses[0], "zero").recall?.expression).toBe("1/3");
    expect(rowOf(ex.responses[0], "zero").precision?.expression).toBe("1/2");
    expect(fractions(ex, "zero")).toEqual([["1/3", "1/2", "2/5"]]);
  });

  it("the CoNLL reference scorer's metrics say so", () => {
    for (const id of ["muc", "conll", "mcf"] as const) expect(explain(id).scorer).toBe("reference");
    expect(explain("conll").optional).toBe(false);
    expect(explain("mcf").optional).toBe(true);
  });
});

describe("display helpers", () => {
  it("short citations", () => {
    expect(shortCitation({ authors: "Xiaoqiang Luo", year: 2005 })).toBe("Luo (2005)");
    expect(shortCitation({ authors: "Nafise Sadat Moosavi and Michael Strube", year: 2016 })).toBe("Moosavi & Strube (2016)");
    expect(shortCitation(explain("muc").citations[0])).toBe("Vilain et al. (1995)");
  });

  it("formulas as text", () => {
    expect(mathText(explain("mentions").formulas[0].math)).toBe("R = (|M_K ∩ M_S|)/(|M_K|)");
    expect(mathText(explain("conll").formulas[0].math)).toBe("F_CoNLL = (F_MUC + F_B³ + F_CEAFe)/(3)");
  });
});
