/**
 * One entry point for every coreference file format the scorer reads.
 *
 * The format is the one asked for, else guessed from the file extension (see
 * `detectFormat`). Each reader throws only `FormatError`.
 */
import type { Corpus } from "../types.js";
import { readConll2012 } from "./conll2012.js";
import { readCorefUD } from "./conllu.js";
import { readJsonLines } from "./jsonlines.js";
import { DEFAULT_LIMITS, type ReadLimits } from "./limits.js";
import type { Input } from "./text.js";

export { FormatError } from "../types.js";
export { readConll2012 } from "./conll2012.js";
export { DEFAULT_LIMITS, type ReadLimits } from "./limits.js";
export { checkMentionDensity, maxMentionsFor, MAX_MENTIONS_PER_TOKEN, MENTION_DENSITY_FLOOR } from "./density.js";
export { readCorefUD } from "./conllu.js";
export { readJsonLines } from "./jsonlines.js";

/** The formats `readCorpus` knows. */
export type CorpusFormat = "conll2012" | "conllu" | "jsonlines";

/** Every `CorpusFormat`, e.g. for command-line choices and form validation. */
export const CORPUS_FORMATS: readonly CorpusFormat[] = ["conll2012", "conllu", "jsonlines"];

/**
 * Guesses a file's format from its extension, case-insensitively.
 *
 * @param file a file name or path
 * @returns `"conllu"` for `.conllu`; `"jsonlines"` for `.jsonl`, `.jsonlines` and `.json`;
 *   `"conll2012"` for anything else (`.conll`, `.gold_conll`, `.v4_gold_conll`, no extension).
 */
export function detectFormat(file: string): CorpusFormat {
  const name = file.toLowerCase();
  if (name.endsWith(".conllu")) return "conllu";
  if (name.endsWith(".jsonl") || name.endsWith(".jsonlines") || name.endsWith(".json")) return "jsonlines";
  return "conll2012";
}

/**
 * Reads a coreference file in any supported format.
 *
 * @param input the file's text or raw bytes
 * @param file the file name, used for messages and, without `options.format`, to pick the
 *   reader by `detectFormat`
 * @param options `format` to force a reader, `limits` passed on to it (each limit not
 *   given defaults to `DEFAULT_LIMITS`), `words: false` to keep only token counts of CoNLL-2012
 *   input (`readConll2012`; other formats keep their words, which CorefUD scoring compares)
 * @returns the `Corpus` the chosen reader returns
 * @throws FormatError (and nothing else) as the chosen reader does: `readConll2012`,
 *   `readCorefUD` or `readJsonLines`; a `RangeError` for a `format` outside
 *   `CORPUS_FORMATS` (a caller's bug, only possible from untyped code)
 */
export function readCorpus(
  input: Input,
  file: string,
  options: { format?: CorpusFormat; limits?: ReadLimits; words?: boolean } = {},
): Corpus {
  const format = options.format ?? detectFormat(file);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  switch (format) {
    case "conllu":
      return readCorefUD(input, file, limits);
    case "jsonlines":
      return readJsonLines(input, file, limits);
    case "conll2012":
      return readConll2012(input, file, limits, { words: options.words });
    default:
      throw new RangeError(`unknown corpus format ${JSON.stringify(format satisfies never)}`);
  }
}
