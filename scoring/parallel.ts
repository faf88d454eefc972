/**
 * Scoring one key file against one response file on several threads, with exactly the result
 * of `evaluate` on the whole files.
 *
 * Reading is most of a large evaluation's time (case (e) of `npm run bench`: 0.53 s of reading,
 * 0.28 s of scoring) and every document is read and scored on its own, so the work splits by
 * documents:
 * 1. `splitForThreads` cuts the key where a document starts (`conll2012DocumentStart`,
 *    `corefudDocumentStart`: the readers' own rules), into parts of about equal size, and the
 *    response at the same documents. Each part is its slice of the file behind as many blank
 *    lines as come before it (and, for CoNLL-U, the `# global.Entity` declaration in force),
 *    so every line number, warning and error is the one the whole file gives.
 * 2. `scorePart` reads a part's key and response and scores its key documents
 *    (`planEvaluation`, `scoreDocument`), in the calling thread or in a worker thread.
 * 3. `combineParts` puts the report together in key order (`assembleReport`).
 *
 * Whenever the parts could differ from the whole, the result is `null` and the caller scores
 * the whole files as usual, which gives the exact output (warnings, errors) in every case:
 * a part that throws (any format error, any bad setting), a document read without a name,
 * a document id in two parts (the whole file repeats it), a CorefUD eid used in two parts (udapi
 * joins their entities across documents), more documents than the limit, a
 * response document whose key document is in another part or not in the key at all, or parts
 * that plan different scoring. So the split only ever speeds up well-formed input.
 *
 * Worker threads load this module from the compiled CLI bundle (`scripts/build-cli.mjs`): a
 * `.ts` source cannot start a worker thread without a loader, so from sources
 * (`threadsAvailable()` false) scoring stays in one thread. The CLI uses one thread unless
 * `--threads` asks for more: on the 2-core benchmark machine more threads are slower (see
 * {@link threadsFor}).
 */
import { availableParallelism } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import {
  assembleReport,
  planEvaluation,
  scoreDocument,
  type EvaluateOptions,
  type EvaluationPlan,
  type Report,
  type ScoredDocument,
} from "./evaluate.js";
import { CONLL2012_DOCUMENT_MARKER, conll2012DocumentStart } from "./formats/conll2012.js";
import { COREFUD_DOCUMENT_MARKER, corefudDocumentStart } from "./formats/conllu.js";
import { DEFAULT_LIMITS, readCorpus, type CorpusFormat, type ReadLimits } from "./formats/index.js";
import type { Document, Warning } from "./types.js";

/** Formats whose files `splitForThreads` can cut at documents. */
export type SplittableFormat = Extract<CorpusFormat, "conll2012" | "conllu">;

/** One part of a split: a slice of each file, padded so that its lines keep their numbers. */
export interface Part {
  key: string;
  response: string;
}

/** What `scorePart` needs besides the part: the same for every part. */
export interface PartSettings {
  format: SplittableFormat;
  keyFile: string;
  responseFile: string;
  options: EvaluateOptions;
  limits?: ReadLimits;
}

/** A part scored: its documents' reports, or `ok: false` when the part cannot stand for the whole. */
export type PartResult =
  | {
      ok: true;
      /** The part's key and response document ids, in file order. */
      keyIds: string[];
      responseIds: string[];
      keyWarnings: Warning[];
      responseWarnings: Warning[];
      /**
       * The file-wide eids of the part's CorefUD key and response documents
       * (`CorefUDDocument.fileWideEids`): an eid also used in an earlier part would be an
       * entity carried across documents, which a part cannot see.
       */
      keyEids: string[];
      responseEids: string[];
      /** Each key document scored, in key order. */
      scored: ScoredDocument[];
      /** `planEvaluation`'s plan for the part (its scoring settings must agree between parts). */
      plan: EvaluationPlan;
    }
  | { ok: false };

/** Inputs of at least this many characters (key and response together) are worth more threads. */
export const PARALLEL_MIN_CHARS = 2 * 1024 * 1024;
/** At most this many threads for one evaluation (beyond it, copying parts costs more than it saves). */
export const MAX_SCORING_THREADS = 4;

/** True when this module runs compiled (the CLI bundle), so that it can be a worker thread's entry. */
export function threadsAvailable(): boolean {
  return !import.meta.url.endsWith(".ts");
}

/**
 * How many threads a file pair can use at most: 1 for JSON lines and inputs under
 * `PARALLEL_MIN_CHARS` (splitting costs more than it saves), else the machine's parallelism up
 * to `MAX_SCORING_THREADS`.
 *
 * Callers use one thread unless asked for more: measured on the 2-core benchmark machine, two
 * threads are slower than one (case (e): 1.40 s against 1.15 s as a whole process, 2.2 s of CPU
 * against 1.4 s). Each thread compiles and warms up the scorer on its own, keeps its own heap,
 * and competes with V8's own garbage-collection and compiler threads, which one thread already
 * keeps busy. Machines with more cores may gain; not measured here.
 *
 * @param chars the key's and the response's length in characters (or bytes), together
 * @param format the input format
 * @returns a thread count from 1 to `MAX_SCORING_THREADS`
 */
export function threadsFor(chars: number, format: CorpusFormat): number {
  if (format === "jsonlines" || chars < PARALLEL_MIN_CHARS) return 1;
  return Math.max(1, Math.min(availableParallelism(), MAX_SCORING_THREADS));
}

/** A place where a part may begin: see `corefudDocumentStart` and `conll2012DocumentStart`. */
interface DocumentStart {
  offset: number;
  id: string;
  declaration: string | null;
}

/** How to find document starts in a format: the text their lines hold, and the reader's own check. */
interface DocumentStarts {
  marker: string;
  at: (text: string, lineStart: number) => DocumentStart | null;
}

const DOCUMENT_STARTS: Record<SplittableFormat, DocumentStarts> = {
  conllu: { marker: COREFUD_DOCUMENT_MARKER, at: corefudDocumentStart },
  conll2012: { marker: CONLL2012_DOCUMENT_MARKER, at: conll2012DocumentStart },
};

/** Marker lines looked at on each side of the expected place of a response document before giving up. */
const RESPONSE_SEARCH_LIMIT = 256;

/**
 * Cuts key and response into at most `parts` parts at the same documents: the key at the
 * first document start after each `1/parts` of its text, the response at the documents of the
 * same ids (looked for around the same fraction of the response).
 *
 * @param key the key file's decoded text (`decodeInput`; a leading byte-order mark is fine)
 * @param response the response file's decoded text
 * @param format the format both are read as
 * @param parts the most parts wanted (≥ 2)
 * @returns the parts in file order, each part after the first padded with blank lines (and for
 *   CoNLL-U the `# global.Entity` line in force) so that its lines keep their numbers; or null
 *   when the key has no place to cut or the response does not start the same documents, in
 *   the same order, near the same places
 */
export function splitForThreads(key: string, response: string, format: SplittableFormat, parts: number): Part[] | null {
  const starts = DOCUMENT_STARTS[format];
  const keyCuts: DocumentStart[] = [];
  const responseCuts: DocumentStart[] = [];
  for (let k = 1; k < parts; k++) {
    const previous = keyCuts.length > 0 ? keyCuts[keyCuts.length - 1].offset + 1 : 0;
    const cut = startAfter(key, Math.max(Math.floor((key.length * k) / parts), previous), starts);
    if (!cut) break;
    const at = startOf(response, cut.id, Math.floor((response.length * cut.offset) / key.length), starts);
    if (!at || (responseCuts.length > 0 && at.offset <= responseCuts[responseCuts.length - 1].offset)) return null;
    keyCuts.push(cut);
    responseCuts.push(at);
  }
  if (keyCuts.length === 0) return null;
  const keyParts = slices(key, keyCuts);
  const responseParts = slices(response, responseCuts);
  return keyParts.map((k, i) => ({ key: k, response: responseParts[i] }));
}

/** The first document start whose line begins at or after offset `from`, or null. */
function startAfter(text: string, from: number, starts: DocumentStarts): DocumentStart | null {
  for (let at = text.indexOf(starts.marker, from); at >= 0; at = text.indexOf(starts.marker, at + 1)) {
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const start = lineStart >= from ? starts.at(text, lineStart) : null;
    if (start && start.offset > 0) return start;
  }
  return null;
}

/** The start of document `id` among the marker lines nearest to offset `near` (on either side), or null. */
function startOf(text: string, id: string, near: number, starts: DocumentStarts): DocumentStart | null {
  let forward = text.indexOf(starts.marker, near);
  let backward = near > 0 ? text.lastIndexOf(starts.marker, near - 1) : -1;
  for (let tries = 0; tries < RESPONSE_SEARCH_LIMIT && (forward >= 0 || backward >= 0); tries++) {
    for (const at of [forward, backward]) {
      if (at < 0) continue;
      const start = starts.at(text, text.lastIndexOf("\n", at) + 1);
      if (start && start.id === id && start.offset > 0) return start;
    }
    if (forward >= 0) forward = text.indexOf(starts.marker, forward + 1);
    backward = backward > 0 ? text.lastIndexOf(starts.marker, backward - 1) : -1;
  }
  return null;
}

/** `text` cut before each of `cuts`; each part after the first padded so that its lines keep their numbers. */
function slices(text: string, cuts: readonly DocumentStart[]): string[] {
  const out = [text.slice(0, cuts[0].offset)];
  let line = 1;
  let counted = 0;
  cuts.forEach((cut, i) => {
    for (let at = text.indexOf("\n", counted); at >= 0 && at < cut.offset; at = text.indexOf("\n", at + 1)) line++;
    counted = cut.offset;
    const end = i + 1 < cuts.length ? cuts[i + 1].offset : text.length;
    // Blank lines, the last of them the `# global.Entity` line in force when there is one.
    const padding = cut.declaration ? `${"\n".repeat(line - 2)}${cut.declaration}\n` : "\n".repeat(line - 1);
    out.push(padding + text.slice(cut.offset, end));
  });
  return out;
}

/**
 * Reads and scores one part (any thread).
 *
 * @returns the part's documents scored in key order with the readers' warnings, or
 *   `{ ok: false }` when reading or planning throws (the whole files give that error) or a
 *   document has no name (its generated name depends on the whole file)
 */
export function scorePart(part: Part, settings: PartSettings): PartResult {
  try {
    const read = { format: settings.format, words: false, limits: settings.limits };
    const key = readCorpus(part.key, settings.keyFile, read);
    const response = readCorpus(part.response, settings.responseFile, read);
    const warnings = [...key.warnings, ...response.warnings];
    if (warnings.some((w) => w.code === "unnamed-document")) return { ok: false };
    const plan = planEvaluation(key, response, settings.options);
    const responseById = new Map(response.documents.map((d) => [d.id, d]));
    const files = { key: settings.keyFile, response: settings.responseFile };
    return {
      ok: true,
      keyIds: key.documents.map((d) => d.id),
      responseIds: response.documents.map((d) => d.id),
      keyWarnings: key.warnings,
      responseWarnings: response.warnings,
      keyEids: fileWideEids(key.documents),
      responseEids: fileWideEids(response.documents),
      scored: key.documents.map((d) => scoreDocument(plan, d, responseById.get(d.id), files)),
      plan,
    };
  } catch {
    return { ok: false };
  }
}

/** The distinct file-wide eids of CorefUD documents (`CorefUDDocument.fileWideEids`). */
function fileWideEids(documents: readonly Document[]): string[] {
  const out = new Set<string>();
  for (const d of documents) if (d.corefud?.fileWideEids) for (const eid of d.corefud.eids) out.add(eid);
  return [...out];
}

/**
 * The report of the whole files from their parts' results, or null when the parts cannot stand
 * for the whole (see the module header; the caller then scores the whole files).
 *
 * @param results each part's result, in file order
 * @param settings the parts' settings
 * @returns exactly what `evaluate` returns for the whole files, or null
 */
export function combineParts(results: readonly PartResult[], settings: PartSettings): Report | null {
  const maxDocuments = settings.limits?.maxDocuments ?? DEFAULT_LIMITS.maxDocuments;
  const keyIds = new Set<string>();
  const responseIds = new Set<string>();
  const keyEids = new Set<string>();
  const responseEids = new Set<string>();
  let scoring: string | null = null;
  for (const r of results) {
    if (!r.ok) return null;
    // An eid of an earlier part: its entity is carried across documents (see `PartResult`).
    if (r.keyEids.some((e) => keyEids.has(e)) || r.responseEids.some((e) => responseEids.has(e))) return null;
    for (const e of r.keyEids) keyEids.add(e);
    for (const e of r.responseEids) responseEids.add(e);
    const s = JSON.stringify(r.plan.scoring);
    if (scoring !== null && s !== scoring) return null;
    scoring = s;
    const partKeys = new Set(r.keyIds);
    for (const id of r.keyIds) {
      if (keyIds.has(id)) return null;
      keyIds.add(id);
    }
    for (const id of r.responseIds) {
      if (responseIds.has(id) || !partKeys.has(id)) return null;
      responseIds.add(id);
    }
  }
  if (keyIds.size > maxDocuments || responseIds.size > maxDocuments) return null;
  const ok = results as readonly Extract<PartResult, { ok: true }>[];
  return assembleReport(ok[0].plan, {
    readerWarnings: [...ok.flatMap((r) => r.keyWarnings), ...ok.flatMap((r) => r.responseWarnings)],
    scored: ok.flatMap((r) => r.scored),
    responseOnly: [],
    responseFile: settings.responseFile,
  });
}

/** `workerData` that makes this module a scoring thread. */
const WORKER_TAG = "corefboard-score-part";

/**
 * Worker threads started before the input is read, so that their start-up overlaps the
 * reading. Each scores one part and ends.
 */
export class ScoringThreads {
  private readonly workers: Worker[];

  /**
   * @param count how many worker threads to start (0 or more)
   * @throws Error when a thread cannot be started (only from sources: see `threadsAvailable`)
   */
  constructor(count: number) {
    if (count > 0 && !threadsAvailable()) throw new Error("scoring threads need the compiled module (scripts/build-cli.mjs)");
    this.workers = Array.from({ length: count }, () => new Worker(new URL(import.meta.url), { workerData: { [WORKER_TAG]: true } }));
  }

  /** The number of worker threads. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Scores `parts[0]` in this thread and the others in the worker threads, then ends them.
   *
   * @param parts at most `size + 1` parts
   * @returns each part's result in order; a thread that fails gives `{ ok: false }`
   */
  async run(parts: readonly Part[], settings: PartSettings): Promise<PartResult[]> {
    const pending = parts.slice(1).map(
      (part, i) =>
        new Promise<PartResult>((resolve) => {
          const worker = this.workers[i];
          worker.once("message", (result: PartResult) => resolve(result));
          worker.once("error", () => resolve({ ok: false }));
          worker.once("exit", () => resolve({ ok: false }));
          worker.postMessage({ part, settings });
        }),
    );
    const results = [scorePart(parts[0], settings), ...(await Promise.all(pending))];
    this.close();
    return results;
  }

  /** Ends every worker thread (at once; safe to call more than once). */
  close(): void {
    for (const w of this.workers) void w.terminate();
  }
}

/**
 * Scores whole files, on `threads.size + 1` threads when they split.
 *
 * @returns `evaluate`'s report for the whole files, or null when they do not split or the parts
 *   cannot stand for the whole (then the caller scores the whole files in one thread); never
 *   throws, and ends the threads
 */
export async function evaluateInParts(
  key: string,
  response: string,
  settings: PartSettings,
  threads: ScoringThreads,
): Promise<Report | null> {
  try {
    const parts = splitForThreads(key, response, settings.format, threads.size + 1);
    return parts ? combineParts(await threads.run(parts, settings), settings) : null;
  } catch {
    return null; // never expected; the whole files then give the answer
  } finally {
    threads.close();
  }
}

if (!isMainThread && parentPort && (workerData as Record<string, unknown> | null)?.[WORKER_TAG] === true) {
  const port = parentPort;
  port.once("message", ({ part, settings }: { part: Part; settings: PartSettings }) => {
    port.postMessage(scorePart(part, settings));
  });
}
