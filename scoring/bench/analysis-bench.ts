/**
 * Benchmark (d): the analyses of one run on the full LitBank corpus (100 documents) — the
 * Kummerfeld & Klein error analysis, the pronoun disclosure, and the paired bootstrap
 * (1,000 samples) against a second run plus a 95 % interval — as the worker and the pages
 * compute them. Target: under 2 s together.
 *
 * The two runs are deterministic perturbations of the key (dropped, shifted and spurious
 * mentions; merged and split entities), so every error category occurs. LitBank is read
 * from `COREFBOARD_DATA_DIR` or `../shared/data` (see `scoring/test/data-dir.ts`); the
 * benchmark is skipped, with the reason printed, when it is absent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { analyzeRun } from "../analysis/index.js";
import { bootstrapInterval, DEFAULT_BOOTSTRAP_SAMPLES, pairedBootstrap, reportDocuments } from "../analysis/bootstrap.js";
import { evaluate } from "../evaluate.js";
import { readConll2012 } from "../formats/conll2012.js";
import { dataDir } from "../test/data-dir.js";
import type { Corpus, Entity, Mention } from "../types.js";

/** What the benchmark prints (seconds of wall time, one process). */
export interface AnalysisBenchResult {
  documents: number;
  tokens: number;
  keyMentions: number;
  parseSeconds: number;
  evaluateSeconds: number;
  analysisSeconds: number;
  bootstrapSeconds: number;
  maxRssMiB: number;
}

/** A deterministic system-like response: `variant` picks which mentions and entities are changed. */
function perturb(key: Corpus, variant: number): Corpus {
  return {
    ...key,
    documents: key.documents.map((doc) => {
      const out: Entity[] = [];
      let n = 0;
      doc.entities.forEach((entity, e) => {
        const kept: Mention[] = [];
        for (const m of entity) {
          n++;
          if (n % (7 + variant) === 0) continue; // missing mention
          if (n % (11 + variant) === 0 && m[1] + 1 < doc.tokens.length) kept.push([m[0], m[1] + 1]); // span error
          else kept.push(m);
        }
        if (kept.length === 0) return;
        if (e % (5 + variant) === 1 && out.length > 0) out[out.length - 1].push(...kept); // conflated
        else if (kept.length >= 6 && e % 3 === variant % 3) out.push(kept.slice(0, 3), kept.slice(3)); // divided
        else out.push(kept);
      });
      for (let t = variant; t < doc.tokens.length; t += 97) out.push([[t, t]]); // extra entities
      return { ...doc, entities: out };
    }),
  };
}

/** Runs the benchmark once, or returns the reason it cannot run. */
export function runAnalysisBench(): AnalysisBenchResult | string {
  const root = dataDir();
  if (!root) return "no corpus folder (set COREFBOARD_DATA_DIR or place shared/data beside the checkout)";
  const folder = join(root, "litbank", "conll");
  let files: string[];
  try {
    files = readdirSync(folder).filter((f) => f.endsWith(".conll")).sort();
  } catch {
    return `${folder} is missing`;
  }
  const texts = files.map((f) => readFileSync(join(folder, f), "utf8"));
  const t0 = performance.now();
  const parts = texts.map((t, i) => readConll2012(t, files[i]));
  const key: Corpus = { file: "litbank", documents: parts.flatMap((p) => p.documents), warnings: [] };
  const t1 = performance.now();
  const responseA = perturb(key, 0);
  const responseB = perturb(key, 1);
  const t2 = performance.now();
  const reportA = evaluate(key, responseA);
  const t3 = performance.now();
  const reportB = evaluate(key, responseB);
  const t4 = performance.now();
  analyzeRun(key, responseA);
  const t5 = performance.now();
  const docsA = reportDocuments(reportA);
  pairedBootstrap(docsA, reportDocuments(reportB), { samples: DEFAULT_BOOTSTRAP_SAMPLES });
  bootstrapInterval(docsA, "conll", { samples: DEFAULT_BOOTSTRAP_SAMPLES });
  const t6 = performance.now();
  return {
    documents: key.documents.length,
    tokens: key.documents.reduce((a, d) => a + d.tokens.length, 0),
    keyMentions: reportA.metrics.mentions!.recallDen,
    parseSeconds: (t1 - t0) / 1000,
    evaluateSeconds: (t3 - t2) / 1000,
    analysisSeconds: (t5 - t4) / 1000,
    bootstrapSeconds: (t6 - t5) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}
