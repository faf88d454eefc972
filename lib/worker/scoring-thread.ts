/**
 * The task of a scoring thread: parses the gold key and the response, runs `evaluate` and
 * the run analyses, and returns one {@link ThreadResult}. Threads are kept warm in a piscina
 * pool (`scoring-pool.ts`), which loads this file through `scoring-thread.mjs`.
 *
 * Scoring runs in a thread so that the job can enforce a wall-clock limit (the thread is
 * terminated) and a heap limit (`resourceLimits`) on synchronous CPU work, and so that the
 * worker process keeps answering pg-boss, heartbeats and signals while a big file is scored.
 *
 * Gold content never leaves this thread in an error: a gold parse error reports only its
 * line and column.
 */
import { evaluate, type Report } from "../../scoring/index";
import { analyzeRun, ENGLISH_PRONOUNS, parsePronounLexicon, type RunAnalysisResult } from "../../scoring/analysis/index";
import { FormatError, readCorpus } from "../../scoring/formats/index";
import type { Corpus } from "../../scoring/types";

/** What the job passes to the thread (structured-cloned). */
export interface ThreadInput {
  keyBytes: Uint8Array;
  keyFile: string;
  responseBytes: Uint8Array;
  responseFile: string;
  removeSingletons: boolean;
  /** compute the optional mapped cluster F metric (`mcf`) */
  mappedClusterF: boolean;
  /** the task's pronoun list (scoring/analysis/pronouns.ts format), or null for English */
  pronounLexicon: string | null;
}

/** The one message the thread posts. */
export type ThreadResult =
  | { kind: "report"; report: Report; analysis: RunAnalysisResult }
  /** The gold key does not parse (position only: gold content must not leak). */
  | { kind: "key-format"; line: number; column: number }
  /** The response does not parse. */
  | { kind: "response-format"; location: ReturnType<FormatError["toJSON"]>; excerpt: string; message: string }
  /** `evaluate` (or a reader) threw something other than a FormatError: a scorer bug. */
  | { kind: "internal"; message: string };

/**
 * Scores one submission (the pool's task function).
 *
 * @param input the gold key and the response, uncompressed, and the task's settings
 * @returns the report and analyses, or what went wrong (never throws for bad input)
 */
export default function scoreInThread(input: ThreadInput): ThreadResult {
  let key: Corpus;
  try {
    key = readCorpus(input.keyBytes, input.keyFile);
  } catch (error) {
    if (error instanceof FormatError) return { kind: "key-format", line: error.line, column: error.column };
    return { kind: "internal", message: `reading the gold key: ${describe(error)}` };
  }
  let response: Corpus;
  try {
    response = readCorpus(input.responseBytes, input.responseFile);
  } catch (error) {
    if (error instanceof FormatError) {
      return { kind: "response-format", location: error.toJSON(), excerpt: error.excerpt, message: error.message };
    }
    return { kind: "internal", message: `reading the submission: ${describe(error)}` };
  }
  try {
    const report = evaluate(key, response, { removeSingletons: input.removeSingletons, mappedClusterF: input.mappedClusterF });
    // The task's list was validated when it was saved; a failure here is a platform bug.
    const lexicon = input.pronounLexicon === null ? ENGLISH_PRONOUNS : parsePronounLexicon(input.pronounLexicon, "the task's pronoun list");
    const analysis = analyzeRun(key, response, { removeSingletons: input.removeSingletons, lexicon });
    return { kind: "report", report, analysis };
  } catch (error) {
    return { kind: "internal", message: `scoring: ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
