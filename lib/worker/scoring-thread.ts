/**
 * The task of a scoring thread: parses the gold key and the response once, runs `evaluate`
 * under every setting of the task's evaluation profile (the primary setting, then each
 * secondary variant) and the run analyses, and returns one {@link ThreadResult}. Threads are
 * kept warm in a piscina pool (`scoring-pool.ts`), which loads this file through
 * `scoring-thread.mjs`.
 *
 * Scoring runs in a thread so that the job can enforce a wall-clock limit (the thread is
 * terminated) and a heap limit (`resourceLimits`) on synchronous CPU work, and so that the
 * worker process keeps answering pg-boss, heartbeats and signals while a big file is scored.
 * Both limits cover the whole task: one parse of each file and every setting's evaluation
 * (4 for the `crac` profile). Only the primary report is kept whole; a variant's per-document
 * counts are dropped as soon as its corpus scores are taken, so the heap holds the two corpora,
 * the primary report and at most one variant evaluation at a time.
 *
 * Gold content never leaves this thread in an error or a warning: a gold parse error reports
 * only its line and column, and the gold reader's own warnings (repeated spans in the key, ...)
 * are not among the run's warnings.
 */
import { evaluate, type EvaluateOptions, type MetricScores, type Report, type Warning } from "../../scoring/index";
import { planEvaluation } from "../../scoring/evaluate";
import { analyzeRun, ENGLISH_PRONOUNS, parsePronounLexicon, type RunAnalysisResult } from "../../scoring/analysis/index";
import { FormatError, readCorpus } from "../../scoring/formats/index";
import type { Corpus } from "../../scoring/types";

/** One secondary variant to score: its id (`scores.variant`) and its `evaluate` options. */
export interface ThreadVariant {
  id: string;
  options: EvaluateOptions;
}

/** What the job passes to the thread (structured-cloned: plain data only). */
export interface ThreadInput {
  keyBytes: Uint8Array;
  keyFile: string;
  responseBytes: Uint8Array;
  responseFile: string;
  /**
   * `evaluate` options of the profile's primary setting
   * (`evaluateOptionsFor(profile.primary, corefud, { mappedClusterF })`, `lib/tasks/evaluation.ts`);
   * its `removeSingletons` also applies to the error analysis
   */
  primary: EvaluateOptions;
  /** the profile's secondary variants, in its order (`evaluateOptionsFor(variant.preset, corefud)`) */
  variants: ThreadVariant[];
  /** the task's pronoun list (scoring/analysis/pronouns.ts format), or null for English */
  pronounLexicon: string | null;
}

/** The one message the thread posts. */
export type ThreadResult =
  | {
      kind: "report";
      /** the primary setting's report (corpus and per-document scores) */
      report: Report;
      /** each variant's corpus scores, in the input's order */
      variants: { id: string; metrics: MetricScores }[];
      /**
       * the primary report's warnings about the response (`missing-document`,
       * `response-only-document`, the response reader's warnings, ...); the gold reader's own
       * warnings are left out
       */
      warnings: Warning[];
      analysis: RunAnalysisResult;
    }
  /** The gold key does not parse (position only: gold content must not leak). */
  | { kind: "key-format"; line: number; column: number }
  /**
   * A setting of the profile cannot score this gold key (`evaluate`'s RangeError, e.g. head
   * match on a key without heads); `message` is the RangeError's, which names the key file.
   */
  | { kind: "settings"; message: string }
  /** The response does not parse, or does not fit the key (CorefUD: other sentences or words). */
  | { kind: "response-format"; location: ReturnType<FormatError["toJSON"]>; excerpt: string; message: string }
  /** The response is in another format than the key (CorefUD CoNLL-U against not, or the other way round). */
  | { kind: "response-mismatch"; message: string }
  /** `evaluate` (or a reader) threw something else: a scorer bug. */
  | { kind: "internal"; message: string };

/**
 * Scores one submission (the pool's task function).
 *
 * 1. Reads the key, and checks every setting against it alone (`planEvaluation(key, key, …)`,
 *    the checks `evaluate` runs first): a setting the key cannot be scored with gives
 *    `settings` before the response is even read.
 * 2. Reads the response.
 * 3. Runs `evaluate` with `input.primary`, then with each variant's options, and the run
 *    analyses.
 *
 * @param input the gold key and the response, uncompressed, and the task's settings
 * @returns the report, variant scores, warnings and analyses, or what went wrong (never
 *   throws for bad input)
 */
export default function scoreInThread(input: ThreadInput): ThreadResult {
  // When both files have the same name (a CRAC submission is named like the gold file), a
  // FormatError raised while scoring could not tell them apart: the key gets a distinct name.
  const keyFile = input.keyFile === input.responseFile ? `gold/${input.keyFile}` : input.keyFile;
  let key: Corpus;
  try {
    key = readCorpus(input.keyBytes, keyFile);
  } catch (error) {
    if (error instanceof FormatError) return { kind: "key-format", line: error.line, column: error.column };
    return { kind: "internal", message: `reading the gold key: ${describe(error)}` };
  }
  for (const options of [input.primary, ...input.variants.map((v) => v.options)]) {
    try {
      planEvaluation(key, key, options);
    } catch (error) {
      if (error instanceof RangeError) return { kind: "settings", message: error.message };
      return { kind: "internal", message: `checking the settings: ${describe(error)}` };
    }
  }
  let response: Corpus;
  try {
    response = readCorpus(input.responseBytes, input.responseFile);
  } catch (error) {
    if (error instanceof FormatError) return responseFormat(error);
    return { kind: "internal", message: `reading the submission: ${describe(error)}` };
  }
  try {
    const report = evaluate(key, response, input.primary);
    const variants = input.variants.map((v) => ({ id: v.id, metrics: evaluate(key, response, v.options).metrics }));
    // The task's list was validated when it was saved; a failure here is a platform bug.
    const lexicon = input.pronounLexicon === null ? ENGLISH_PRONOUNS : parsePronounLexicon(input.pronounLexicon, "the task's pronoun list");
    const analysis = analyzeRun(key, response, { removeSingletons: input.primary.removeSingletons ?? false, lexicon });
    // `evaluate` lists the key reader's warnings first (`assembleReport`).
    const warnings = report.warnings.slice(key.warnings.length);
    return { kind: "report", report, variants, warnings, analysis };
  } catch (error) {
    if (error instanceof FormatError) {
      // CorefUD: the response's sentences or words differ from the key's, or a zero lacks the
      // DEPS that dependent matching needs (in the key: a gold problem, position only).
      if (error.file === keyFile) return { kind: "key-format", line: error.line, column: error.column };
      return responseFormat(error);
    }
    // The settings were checked against the key above, so a RangeError here is the format check.
    if (error instanceof RangeError && formatsDiffer(key, response)) return { kind: "response-mismatch", message: error.message };
    return { kind: "internal", message: `scoring: ${describe(error)}` };
  }
}

function responseFormat(error: FormatError): ThreadResult {
  return { kind: "response-format", location: error.toJSON(), excerpt: error.excerpt, message: error.message };
}

/** Whether one corpus was read as CorefUD CoNLL-U and the other not (as `evaluate` checks it). */
function formatsDiffer(key: Corpus, response: Corpus): boolean {
  const corefud = (c: Corpus) => c.documents.some((d) => d.corefud !== undefined);
  return key.documents.length > 0 && response.documents.length > 0 && corefud(key) !== corefud(response);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
