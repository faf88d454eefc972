/**
 * The CorefUD scorer's own numbers on real data: the 108 GUM CorefUD documents against a
 * seeded perturbation of them (scoring/bench/perturb-conllu.ts, seed 42), in the four CRAC
 * variants (head, partial and exact match without singletons; head match with singletons),
 * every metric's counts equal to what the Python scorer gave (fixtures/corefud-gum/, made by
 * make_expected.py there) within 1e-9 relative. Needs shared/data; skips without it.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate, type MentionMatch } from "../evaluate.js";
import { perturbCorefUD } from "../bench/perturb-conllu.js";
import { dataDir } from "./data-dir.js";
import { FIXTURE_METRICS, scorerCounts } from "./corefud-counts.js";

const data = dataDir();
if (!data) console.log("skipping the GUM comparison with the CorefUD scorer: no ../shared/data and COREFBOARD_DATA_DIR is not set");

const expected = JSON.parse(readFileSync(new URL("./fixtures/corefud-gum/expected-perturbed.json", import.meta.url), "utf8")) as {
  key_sha256: string;
  response_sha256: string;
  variants: Record<string, { match: MentionMatch; keep_singletons: boolean; counts: Record<string, number[]> }>;
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.skipIf(!data)("GUM CorefUD against the CorefUD scorer's numbers", () => {
  it("equals the Python scorer's counts in the four CRAC variants", () => {
    const dir = join(data!, "gum", "corefud-conllu");
    const keyText = readdirSync(dir).filter((f) => f.endsWith(".conllu")).sort().map((f) => readFileSync(join(dir, f), "utf8")).join("");
    expect(sha256(keyText)).toBe(expected.key_sha256);
    const responseText = perturbCorefUD(keyText, { seed: 42 }).text;
    expect(sha256(responseText), "the perturbation changed: regenerate the fixture").toBe(expected.response_sha256);
    const key = readCorefUD(keyText, "gum-key.conllu");
    const response = readCorefUD(responseText, "gum-response.conllu");
    for (const [name, v] of Object.entries(expected.variants)) {
      const ours = scorerCounts(
        evaluate(key, response, { match: v.match, removeSingletons: !v.keep_singletons, zeroMatch: "dependent", metrics: FIXTURE_METRICS }).metrics,
      );
      for (const [metric, want] of Object.entries(v.counts)) {
        const got = ours[metric];
        got.forEach((g, i) => expect(Math.abs(g - want[i]), `${name} ${metric}[${i}]: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-9 * Math.max(1, want[i])));
      }
    }
  });
});
