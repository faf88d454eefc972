/**
 * Scoring two files' contents as they come from disk (text or raw bytes), as the CLI does.
 *
 * `evaluateInputs` returns exactly `evaluate(readCorpus(key), readCorpus(response), options)`:
 * the same report, warnings in the same order, and the same error when there is one. For
 * CorefUD CoNLL-U and CoNLL-2012 it first tries `evaluateStream`, which scores each document as
 * soon as both files have given it and then lets it go, so that memory holds one document of
 * each file instead of both whole files. The garbage collector then no longer copies every
 * document read so far from one space to the next: on the 108 GUM documents of
 * `npm run bench` case (e) the whole process took about 17 % less time and 50 MB less memory.
 */
import { evaluate, assembleReport, planEvaluation, scoreDocument, type EvaluateOptions, type EvaluationPlan, type Report, type ScoredDocument } from "./evaluate.js";
import { Conll2012DocumentStream } from "./formats/conll2012.js";
import { CorefUDDocumentStream } from "./formats/conllu.js";
import type { DocumentStream } from "./formats/document-stream.js";
import { DEFAULT_LIMITS, detectFormat, readCorpus, type CorpusFormat, type ReadLimits } from "./formats/index.js";
import type { Input } from "./formats/text.js";
import type { Corpus, Document } from "./types.js";

/** Where two inputs come from and how to read them. */
export interface InputSettings {
  /** The key's and the response's file names (for messages, and the format when `format` is not given). */
  keyFile: string;
  responseFile: string;
  /** The format of both files; by default each file's own `detectFormat`. */
  format?: CorpusFormat;
  /** Reading limits, as `readCorpus` takes them (each one not given is `DEFAULT_LIMITS`'s). */
  limits?: ReadLimits;
  /** `readCorpus`'s `words` option (CoNLL-2012 only). */
  words?: boolean;
}

/** The formats `evaluateStream` reads document by document. */
export type StreamFormat = Extract<CorpusFormat, "conllu" | "conll2012">;

/**
 * Reads and scores a key and a response.
 *
 * @param key the key file's text or raw bytes; `response` likewise
 * @param settings the file names, format, limits and `words` (see `InputSettings`)
 * @param options as `evaluate`'s
 * @returns `evaluate(readCorpus(key, ...), readCorpus(response, ...), options)`
 * @throws FormatError or RangeError exactly as that expression does (reading the key first,
 *   then the response, then planning and scoring)
 */
export function evaluateInputs(key: Input, response: Input, settings: InputSettings, options: EvaluateOptions = {}): Report {
  const keyFormat = settings.format ?? detectFormat(settings.keyFile);
  const responseFormat = settings.format ?? detectFormat(settings.responseFile);
  if (keyFormat === responseFormat && (keyFormat === "conllu" || keyFormat === "conll2012")) {
    const report = evaluateStream(keyFormat, key, response, settings, options);
    if (report !== null) return report;
  }
  const read = { format: settings.format, limits: settings.limits, words: settings.words };
  return evaluate(readCorpus(key, settings.keyFile, read), readCorpus(response, settings.responseFile, read), options);
}

/**
 * Scores two inputs of one format document by document while reading them
 * (`CorefUDDocumentStream`, `Conll2012DocumentStream`): key document i is scored against
 * response document i as soon as both are read.
 *
 * That is `evaluate` on the whole corpora when both files hold the same documents in the same
 * order (the usual case: a response is written from its key) and nothing goes wrong. Anything
 * else gives null, and the caller reads the whole files instead, which then gives the exact
 * result or error: documents in another order, missing or extra, and every error (a format
 * error in either file, a RangeError of the settings, a scoring error), because the whole
 * files decide which error comes first (the key's reading, then the response's, then the
 * settings, then the first key document that fails to score).
 *
 * @param format the format both inputs are read as
 * @param key the key file's text or raw bytes; `response` likewise
 * @param settings the file names, limits and `words` (`format` is not looked at)
 * @param options as `evaluate`'s
 * @returns the report `evaluate` gives for the whole files, or null (see above); never throws
 */
export function evaluateStream(
  format: StreamFormat,
  key: Input,
  response: Input,
  settings: InputSettings,
  options: EvaluateOptions = {},
): Report | null {
  const files = { key: settings.keyFile, response: settings.responseFile };
  try {
    const limits = { ...DEFAULT_LIMITS, ...settings.limits };
    const open = (input: Input, file: string): DocumentStream =>
      format === "conllu" ? new CorefUDDocumentStream(input, file, limits) : new Conll2012DocumentStream(input, file, limits, { words: settings.words });
    const keyDocuments = open(key, files.key);
    const responseDocuments = open(response, files.response);
    const scored: ScoredDocument[] = [];
    let plan: EvaluationPlan | null = null;
    for (;;) {
      const k = keyDocuments.next();
      const r = responseDocuments.next();
      if (k === null || r === null) {
        if (k !== null || r !== null) return null; // one file has more documents
        break;
      }
      if (k.id !== r.id) return null;
      // The plan depends on the corpora only through whether their documents carry a CorefUD
      // view, which every document of one reader does or none does: the first pair decides as
      // all would.
      plan ??= planEvaluation(corpusOf(files.key, k), corpusOf(files.response, r), options);
      scored.push(scoreDocument(plan, k, r, files));
    }
    keyDocuments.finish();
    responseDocuments.finish();
    if (plan === null) return null; // never: `finish` throws for a file without documents
    return assembleReport(plan, {
      readerWarnings: [...keyDocuments.warnings, ...responseDocuments.warnings],
      scored,
      responseOnly: [],
      responseFile: files.response,
    });
  } catch {
    return null;
  }
}

/** A one-document corpus (for `planEvaluation`). */
function corpusOf(file: string, document: Document): Corpus {
  return { file, documents: [document], warnings: [] };
}
