import { describe, expect, it } from "vitest";
import { evaluate } from "../../scoring";
import { readCorpus } from "../../scoring/formats";
import { evaluateOptionsFor, goldFitsProfile, runEvaluation, taskEvaluationProfile } from "./evaluation";

const task = (evaluationProfile: string, extra: Partial<{ mentionMatching: string; keepSingletons: boolean; zeroMatching: string }> = {}) => ({
  evaluationProfile,
  mentionMatching: "exact",
  keepSingletons: true,
  zeroMatching: "dependent",
  ...extra,
});

describe("evaluation profiles", () => {
  it("conll2012 is the reference scorer's setting with no variants", () => {
    const p = taskEvaluationProfile(task("conll2012"));
    expect(p.primary).toMatchObject({ match: "exact", removeSingletons: false });
    expect(p.variants).toEqual([]);
    expect(goldFitsProfile("gold.conll", p)).toBeNull();
  });

  it("crac is head match without singletons, with CRAC 2024's three variants, and needs .conllu gold", () => {
    const p = taskEvaluationProfile(task("crac"));
    expect(p.primary).toMatchObject({ match: "head", zeroMatch: "dependent", removeSingletons: true });
    expect(p.variants.map((v) => [v.id, v.preset.match, v.preset.removeSingletons])).toEqual([
      ["partial", "partial", true],
      ["exact", "exact", true],
      ["singletons", "head", false],
    ]);
    expect(goldFitsProfile("gold.conllu", p)).toBeNull();
    expect(goldFitsProfile("gold.conll", p)).toMatch(/CorefUD CoNLL-U/);
    expect(runEvaluation(p).variants.map((v) => v.id)).toEqual(["partial", "exact", "singletons"]);
  });

  it("custom takes the task's match, singleton and zero settings; a head-less custom profile takes .conll gold", () => {
    const p = taskEvaluationProfile(task("custom", { mentionMatching: "partial", keepSingletons: false, zeroMatching: "linear" }));
    expect(p.primary).toMatchObject({ match: "partial", zeroMatch: "linear", removeSingletons: true });
    expect(runEvaluation(p).primary).toEqual({ match: "partial", zeroMatch: "linear", removeSingletons: true, removeZeros: false });
    expect(goldFitsProfile("gold.conll", taskEvaluationProfile(task("custom", { keepSingletons: false })))).toBeNull();
  });

  it("drops the zero score for gold without empty nodes, and the options score as evaluate does", () => {
    const p = taskEvaluationProfile(task("custom"));
    expect(evaluateOptionsFor(p.primary, true).metrics).toContain("zero");
    const options = evaluateOptionsFor(p.primary, false);
    expect(options.metrics).not.toContain("zero");
    const key = readCorpus(["#begin document (d); part 000", "a\t(1)", "b\t(1)", "#end document", ""].join("\n"), "k.conll");
    const report = evaluate(key, key, options);
    expect(report.metrics.conll?.f1).toBe(1);
    expect(report.metrics.mor?.f1).toBe(1);
    expect(report.metrics.zero).toBeUndefined();
  });
});
