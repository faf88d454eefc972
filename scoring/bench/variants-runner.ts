/**
 * A tiny benchmark runner: reads a key and a response file once, then scores them with
 * `evaluate` in each CRAC variant asked for, and prints one JSON line with the times, the
 * CoNLL F1 of each variant and the process's peak memory.
 *
 *   node variants-runner.mjs KEY RESPONSE VARIANT[,VARIANT...]
 *
 * VARIANT is one of `CRAC_VARIANTS`' names (`crac-variants.ts`): `head` (the CRAC primary setting, `CRAC_PRESET`),
 * `partial`, `exact`, `head+singletons`. Every variant computes every selectable metric (the
 * CRAC metrics plus mention identification). The benchmark (`bench.ts`) bundles this file with
 * esbuild, as `scripts/build-cli.mjs` bundles the CLI, so that a whole process runs compiled
 * code; it also runs under tsx (`npx tsx scoring/bench/variants-runner.ts ...`).
 *
 * Output: `{"documents", "keyMentions", "readSeconds", "variants": [{"name", "seconds", "conll",
 * "mentions"}], "maxRssMiB"}`; seconds of wall time, `conll` the CoNLL F1 as a fraction.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { evaluate } from "../evaluate.js";
import { readCorpus } from "../formats/index.js";
import { CRAC_VARIANT_NAMES, CRAC_VARIANTS, type CracVariant } from "./crac-variants.js";

function run(argv: string[]): void {
  const [keyPath, responsePath, list] = argv;
  if (!keyPath || !responsePath || !list) throw new Error("usage: variants-runner KEY RESPONSE VARIANT[,VARIANT...]");
  const names = list.split(",") as CracVariant[];
  for (const name of names) {
    if (!CRAC_VARIANT_NAMES.includes(name)) throw new Error(`unknown variant ${JSON.stringify(name)}; known: ${CRAC_VARIANT_NAMES.join(", ")}`);
  }
  const t0 = performance.now();
  const key = readCorpus(readFileSync(keyPath), keyPath);
  const response = readCorpus(readFileSync(responsePath), responsePath);
  const t1 = performance.now();
  const variants = names.map((name) => {
    const start = performance.now();
    const report = evaluate(key, response, CRAC_VARIANTS[name]);
    return { name, seconds: (performance.now() - start) / 1000, conll: report.metrics.conll?.f1 ?? null, mentions: report.metrics.mentions ?? null };
  });
  const keyMentions = key.documents.reduce((n, d) => n + (d.corefud ? d.corefud.entities : d.entities).reduce((m, e) => m + e.length, 0), 0);
  process.stdout.write(
    `${JSON.stringify({
      documents: key.documents.length,
      keyMentions,
      readSeconds: (t1 - t0) / 1000,
      variants,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  );
}

run(process.argv.slice(2));
