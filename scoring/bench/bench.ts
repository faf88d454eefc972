/**
 * `npm run bench`: times the scorer on three deterministic synthetic inputs and prints
 * wall time and peak memory for each. Each input runs in its own child process so that
 * its peak resident memory (maxRSS) is its own.
 *
 * (a) CoNLL-2012 English test scale: 350 documents, ~170,000 tokens, ~20,000 key mentions.
 *     Target: under 1 s for all metrics.
 * (b) one document with 900 key and 1,100 response entities (~2,700 mentions).
 *     Target: under 0.5 s.
 * (c) one document with 5,000 key entities. Target: under 5 s.
 * Times are reported for parsing (CoNLL-2012 text of key and response) and for scoring
 * (`evaluate` with every metric) separately, plus their sum.
 * (d) the analyses of one run on the full LitBank corpus (error analysis, pronoun
 *     disclosure, paired bootstrap with 1,000 samples and a 95 % interval; see
 *     `analysis-bench.ts`). Target: under 2 s.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { evaluate } from "../evaluate.js";
import { readConll2012 } from "../formats/conll2012.js";
import { writeConll2012 } from "../formats/write-conll2012.js";
import { generatePair, type DocumentSpec } from "./generate.js";
import { runAnalysisBench } from "./analysis-bench.js";

interface Case {
  id: string;
  label: string;
  targetSeconds: number;
  specs: DocumentSpec[];
}

const CASES: Case[] = [
  {
    id: "a",
    label: "(a) 350 documents, ~170k tokens, ~20k mentions",
    targetSeconds: 1,
    specs: Array.from({ length: 350 }, (_, i) => ({
      name: `bench/doc_${i}`,
      tokens: 400 + ((i * 37) % 171),
      keyEntities: 14 + (i % 9),
      keyMentions: 50 + ((i * 13) % 15),
      responseEntities: 16 + (i % 11),
    })),
  },
  {
    id: "b",
    label: "(b) 1 document, 900 key / 1,100 response entities, ~2,700 mentions",
    targetSeconds: 0.5,
    specs: [{ name: "bench/large", tokens: 9000, keyEntities: 900, keyMentions: 2700, responseEntities: 1210 }],
  },
  {
    id: "c",
    label: "(c) 1 document, 5,000 key entities",
    targetSeconds: 5,
    specs: [{ name: "bench/huge", tokens: 60000, keyEntities: 5000, keyMentions: 15000, responseEntities: 5200 }],
  },
];

function runCase(c: Case): void {
  const pairs = c.specs.map((s, i) => generatePair(s, 1000 + i));
  const keyText = writeConll2012(pairs.map((p) => p.key));
  const responseText = writeConll2012(pairs.map((p) => p.response));
  const t0 = performance.now();
  const key = readConll2012(keyText, "key.conll");
  const response = readConll2012(responseText, "response.conll");
  const t1 = performance.now();
  const report = evaluate(key, response);
  const t2 = performance.now();
  const tokens = key.documents.reduce((a, d) => a + d.tokens.length, 0);
  const keyMentions = report.metrics.mentions!.recallDen;
  const responseMentions = report.metrics.mentions!.precisionDen;
  const keyEntities = key.documents.reduce((a, d) => a + d.entities.length, 0);
  const responseEntities = response.documents.reduce((a, d) => a + d.entities.length, 0);
  const result = {
    id: c.id,
    documents: key.documents.length,
    tokens,
    keyMentions,
    responseMentions,
    keyEntities,
    responseEntities,
    parseSeconds: (t1 - t0) / 1000,
    scoreSeconds: (t2 - t1) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    conllF1: report.metrics.conll!.f1,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const only = process.argv[2];
if (only === "d") {
  process.stdout.write(`${JSON.stringify(runAnalysisBench())}\n`);
} else if (only) {
  const c = CASES.find((x) => x.id === only);
  if (!c) throw new Error(`unknown case ${only}`);
  runCase(c);
} else {
  const self = fileURLToPath(import.meta.url);
  console.log("Corefboard scoring benchmark (all metrics: mentions, MUC, B³, CEAFm, CEAFe, LEA, BLANC)\n");
  for (const c of CASES) {
    const child = spawnSync(process.execPath, ["--import", "tsx", self, c.id], { encoding: "utf8" });
    if (child.status !== 0) {
      console.error(child.stderr);
      process.exitCode = 1;
      continue;
    }
    const r = JSON.parse(child.stdout.trim().split("\n").pop()!);
    const total = r.parseSeconds + r.scoreSeconds;
    console.log(c.label);
    console.log(
      `  input: ${r.documents} docs, ${r.tokens} tokens, ${r.keyMentions} key / ${r.responseMentions} response mentions, ${r.keyEntities} key / ${r.responseEntities} response entities`,
    );
    console.log(
      `  wall time: parse ${r.parseSeconds.toFixed(3)} s + score ${r.scoreSeconds.toFixed(3)} s = ${total.toFixed(3)} s (target < ${c.targetSeconds} s: ${r.scoreSeconds < c.targetSeconds ? "met" : "MISSED"} for scoring, ${total < c.targetSeconds ? "met" : "missed"} with parsing)`,
    );
    console.log(`  peak memory (maxRSS of the process): ${r.maxRssMiB.toFixed(1)} MiB; CoNLL F1 ${(r.conllF1 * 100).toFixed(2)}\n`);
  }
  const child = spawnSync(process.execPath, ["--import", "tsx", self, "d"], { encoding: "utf8" });
  console.log("(d) analyses of one run on the full LitBank corpus: error analysis + pronoun disclosure, paired bootstrap (1,000 samples) + 95 % interval");
  if (child.status !== 0) {
    console.error(child.stderr);
    process.exitCode = 1;
  } else {
    const r = JSON.parse(child.stdout.trim().split("\n").pop()!);
    if (typeof r === "string") console.log(`  skipped: ${r}\n`);
    else {
      const total = r.analysisSeconds + r.bootstrapSeconds;
      console.log(`  input: ${r.documents} docs, ${r.tokens} tokens, ${r.keyMentions} key mentions`);
      console.log(`  wall time: error analysis + disclosure ${r.analysisSeconds.toFixed(3)} s + bootstrap ${r.bootstrapSeconds.toFixed(3)} s = ${total.toFixed(3)} s (target < 2 s: ${total < 2 ? "met" : "MISSED"})`);
      console.log(`  for reference: parse ${r.parseSeconds.toFixed(3)} s, evaluate ${r.evaluateSeconds.toFixed(3)} s; peak memory ${r.maxRssMiB.toFixed(1)} MiB\n`);
    }
  }
}
