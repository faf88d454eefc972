/**
 * The 108 GUM documents in CorefUD CoNLL-U (shared/data/gum/corefud-conllu, GUM's own Entity
 * attribute without a head field: heads are the first word, as the reference reader makes
 * them) scored against themselves give 100 % on every metric in every matching mode, zero
 * mode and singleton setting, MOR included. The zero score is 0/0 there (GUM's 64 empty nodes
 * carry no mentions), so it is checked to have no anaphors at all rather than to be 100 %.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { evaluate } from "../evaluate.js";
import { dataDir } from "./data-dir.js";

const data = dataDir();
if (!data) console.log("skipping GUM CorefUD self-scoring: no ../shared/data next to the repo and COREFBOARD_DATA_DIR is not set");

describe.skipIf(!data)("GUM CorefUD key against itself", () => {
  it("is 100 % on every metric in every mode", () => {
    const dir = join(data!, "gum", "corefud-conllu");
    const files = readdirSync(dir).filter((f) => f.endsWith(".conllu")).sort();
    expect(files).toHaveLength(108);
    const text = files.map((f) => readFileSync(join(dir, f), "utf8")).join("");
    const key = readCorefUD(text, "gum-key.conllu");
    const response = readCorefUD(text, "gum-response.conllu");
    expect(key.documents).toHaveLength(108);
    for (const match of ["exact", "partial", "head"] as const) {
      for (const zeroMatch of ["dependent", "linear"] as const) {
        for (const removeSingletons of [false, true]) {
          const label = `${match}/${zeroMatch}/${removeSingletons ? "no singletons" : "singletons"}`;
          const m = evaluate(key, response, {
            match,
            zeroMatch,
            removeSingletons,
            metrics: ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mor", "zero"],
          }).metrics;
          for (const name of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mor"] as const) {
            expect(m[name]!.recall, `${label} ${name} recall`).toBe(1);
            expect(m[name]!.precision, `${label} ${name} precision`).toBe(1);
            expect(m[name]!.f1, `${label} ${name} f1`).toBe(1);
          }
          expect(m.conll!.f1, `${label} conll`).toBe(1);
          expect(m.zero!.recallDen + m.zero!.precisionDen, `${label} zero anaphors`).toBe(0);
        }
      }
    }
  });
});
