/**
 * Reader for the JSON-lines coreference format of neural systems (e2e-coref, SpanBERT,
 * coref-hoi, s2e, LingMess, Maverick and others, after Lee et al. 2017's `*.jsonlines`).
 *
 * Layout: one JSON object per line, one document per object:
 * `{"doc_key": string, "sentences": string[][], "clusters": [[[start, end], ...], ...]}`.
 * Token indices run over the concatenated sentences (0-based) and `end` is inclusive.
 * Other fields (`speakers`, `constituents`, `predicted_clusters`, ...) are ignored. Blank
 * lines are skipped.
 *
 * Choices made here:
 * - `doc_key` is used verbatim as the document id (no `_0` part-number split);
 * - entities keep the order of `clusters`, mentions the order within each cluster;
 * - an empty cluster is dropped with a warning; a span annotated twice gives the same
 *   `repeated-span-same-entity` / `repeated-span-other-entity` warnings as the CoNLL readers;
 * - arrays and objects may nest at most {@link MAX_JSON_DEPTH} levels deep (the format needs
 *   4). A line is checked for that before `JSON.parse` sees it, so that no deeply nested value
 *   is ever built or walked: `JSON.stringify` of a value 10,000 levels deep overflows the
 *   call stack (`RangeError`).
 */
import { FormatError, quote, type Corpus, type Document, type Entity, type Warning } from "../types.js";
import { resolveLimits, type ReadLimits } from "./limits.js";
import { decodeInput, forEachLine, type Input } from "./text.js";
import { RepeatedSpanLog } from "./repeats.js";

type Path = readonly (string | number)[];

/**
 * How deeply arrays and objects may nest in one line: the format needs 4 (`clusters`), and
 * other fields of known systems (`constituents`, `speakers`, `ner`) fewer than 8.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads a JSON-lines coreference file into a `Corpus`.
 *
 * @param input the file's text or raw bytes
 * @param file the file name, used in error messages and warnings
 * @param limits optional bounds on documents, tokens and mentions (each one not given is
 *   unbounded; `readCorpus` fills in `DEFAULT_LIMITS`)
 * @returns one document per non-blank line (`id` and `name` the `doc_key`, `part` null,
 *   `tokens` the concatenated sentences, `sentenceStarts` the index of each sentence's first
 *   token) with entities as inclusive `[start, end]` token indices, and warnings for empty
 *   clusters and repeated spans.
 * @throws FormatError (and nothing else) for a binary or empty file, a line nested more than
 *   {@link MAX_JSON_DEPTH} levels deep (at its first bracket that is too deep), a line that is not
 *   valid JSON (column from the `JSON.parse` message when it gives a position, else 1), a
 *   missing or ill-typed `doc_key`, `sentences` or `clusters`, a mention that is not
 *   `[start, end]` with integers `0 <= start <= end < token count`, a repeated `doc_key`, or
 *   a limit exceeded. Field errors point at the offending value in the line.
 */
export function readJsonLines(input: Input, file: string, limits: ReadLimits = {}): Corpus {
  const text = decodeInput(input, file);
  const { maxDocuments, maxTokensPerDocument, maxMentionsPerDocument } = resolveLimits(limits);
  const documents: Document[] = [];
  const warnings: Warning[] = [];
  const seenIds = new Map<string, number>();

  forEachLine(text, (line, lineNumber) => {
    if (line.trim() === "") return;
    const fail = (path: Path | number, expected: string, found: string): FormatError => {
      const at = typeof path === "number" ? path : locateValue(line, path);
      return new FormatError({ file, line: lineNumber, column: at + 1, expected, found, lineText: line });
    };
    checkNesting(line, fail);
    const value = parseLine(line, fail);
    if (documents.length >= maxDocuments) {
      throw fail([], `at most ${maxDocuments} documents in one file`, "one more document line");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw fail([], 'a JSON object {"doc_key": ..., "sentences": ..., "clusters": ...}', describe(value));
    }
    const obj = value as Record<string, unknown>;
    for (const key of ["doc_key", "sentences", "clusters"]) {
      if (!Object.hasOwn(obj, key)) throw fail([], `a "${key}" field`, "an object without it");
    }
    const name = obj.doc_key;
    if (typeof name !== "string" || name === "") {
      throw fail(["doc_key"], '"doc_key" as a non-empty string', describe(name));
    }
    const firstAt = seenIds.get(name);
    if (firstAt !== undefined) {
      throw fail(["doc_key"], "a doc_key not used earlier in the file", `${quote(name)} again (first at line ${firstAt})`);
    }
    seenIds.set(name, lineNumber);

    const { tokens, sentenceStarts } = readSentences(obj.sentences, maxTokensPerDocument, fail);
    const entities = readClusters(obj.clusters, tokens.length, maxMentionsPerDocument, fail);
    const kept = entities.filter((e) => e.length > 0);
    const empty = entities.length - kept.length;
    if (empty > 0) {
      warnings.push({
        code: "empty-cluster-dropped",
        message: `document ${quote(name)}: ${empty} empty cluster(s) dropped`,
        file,
        line: lineNumber,
        document: name,
      });
    }
    const repeats = new RepeatedSpanLog();
    repeats.recordAll(kept, lineNumber);
    warnings.push(...repeats.warnings(file, name, "reference"));
    documents.push({ id: name, name, part: null, tokens, sentenceStarts, entities: kept, line: lineNumber });
  });
  return { file, documents, warnings };
}

type Fail = (path: Path | number, expected: string, found: string) => FormatError;

/**
 * Throws at the first `[` or `{` (outside strings) that opens a level deeper than
 * {@link MAX_JSON_DEPTH}. One pass over the line with a counter, whatever the line holds:
 * brackets inside strings (with their `\"` escapes) are skipped; anything else that is not
 * JSON is left to `JSON.parse`.
 */
function checkNesting(line: string, fail: Fail): void {
  let depth = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = line.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) {
        throw fail(i, `arrays and objects nested at most ${MAX_JSON_DEPTH} levels deep`, `'${line[i]}' at level ${depth}`);
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
}

/** `JSON.parse` of one line, its error turned into a `FormatError`. */
function parseLine(line: string, fail: Fail): unknown {
  try {
    return JSON.parse(line);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const position = / at position (\d+)/.exec(message);
    let at = position ? Number(position[1]) : 0;
    if (/^Unexpected end of JSON input/.test(message)) at = line.length;
    const reason = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
    throw fail(at, "one valid JSON object per line", `invalid JSON (${reason})`);
  }
}

/** The tokens of `sentences` (an array of arrays of strings) and each sentence's start. */
function readSentences(value: unknown, maxTokens: number, fail: Fail): { tokens: string[]; sentenceStarts: number[] } {
  if (!Array.isArray(value)) throw fail(["sentences"], '"sentences" as an array of arrays of token strings', describe(value));
  const tokens: string[] = [];
  const sentenceStarts: number[] = [];
  value.forEach((sentence: unknown, s) => {
    if (!Array.isArray(sentence)) {
      throw fail(["sentences", s], `sentence ${s} as an array of token strings`, describe(sentence));
    }
    if (sentence.length > 0) sentenceStarts.push(tokens.length);
    sentence.forEach((token: unknown, t) => {
      if (typeof token !== "string") {
        throw fail(["sentences", s, t], `token ${t} of sentence ${s} as a string`, describe(token));
      }
      if (tokens.length >= maxTokens) {
        throw fail(["sentences", s, t], `at most ${maxTokens} tokens in one document`, `token ${tokens.length + 1}`);
      }
      tokens.push(token);
    });
  });
  return { tokens, sentenceStarts };
}

/** The entities of `clusters`, each mention checked against the token count. */
function readClusters(value: unknown, tokenCount: number, maxMentions: number, fail: Fail): Entity[] {
  if (!Array.isArray(value)) throw fail(["clusters"], '"clusters" as an array of clusters', describe(value));
  let mentions = 0;
  return value.map((cluster: unknown, c): Entity => {
    if (!Array.isArray(cluster)) {
      throw fail(["clusters", c], `cluster ${c} as an array of [start, end] mentions`, describe(cluster));
    }
    return cluster.map((mention: unknown, m) => {
      const path = ["clusters", c, m];
      const what = `mention ${m} of cluster ${c}`;
      if (
        !Array.isArray(mention) ||
        mention.length !== 2 ||
        !mention.every((x) => Number.isSafeInteger(x) && (x as number) >= 0)
      ) {
        throw fail(path, `${what} as [start, end] with non-negative integer token indices`, compact(mention));
      }
      const [start, end] = mention as [number, number];
      if (start > end) throw fail(path, `${what} with start <= end`, `[${start}, ${end}]`);
      if (end >= tokenCount) {
        const range = tokenCount === 0 ? "but the document has no tokens" : `indices 0 to ${tokenCount - 1}`;
        throw fail(path, `${what} inside the document's ${tokenCount} token(s) (${range})`, `[${start}, ${end}]`);
      }
      if (++mentions > maxMentions) {
        throw fail(path, `at most ${maxMentions} mentions in one document`, `mention ${mentions}`);
      }
      return [start, end] as const;
    });
  });
}

/** A JSON value as compact JSON text, cut to at most 40 characters. */
function compact(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

/** A short description of a JSON value for messages. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : `an array of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${quote(value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/**
 * 0-based offset in `text` (valid JSON) of the value at `path` (object keys and array
 * indices), or of the nearest enclosing value that exists. Only skips over the text that
 * `JSON.parse` has already accepted; it builds no values.
 */
function locateValue(text: string, path: Path): number {
  let pos = skipSpace(text, 0);
  for (const step of path) {
    const inner = typeof step === "number" ? elementAt(text, pos, step) : memberAt(text, pos, step);
    if (inner < 0) return pos;
    pos = inner;
  }
  return pos;
}

function elementAt(text: string, pos: number, index: number): number {
  if (text[pos] !== "[") return -1;
  let at = skipSpace(text, pos + 1);
  for (let i = 0; i < index; i++) {
    at = skipSpace(text, skipValue(text, at));
    if (text[at] !== ",") return -1;
    at = skipSpace(text, at + 1);
  }
  return text[at] === "]" ? -1 : at;
}

function memberAt(text: string, pos: number, key: string): number {
  if (text[pos] !== "{") return -1;
  let at = skipSpace(text, pos + 1);
  let found = -1; // JSON.parse keeps the last of repeated keys
  while (text[at] === '"') {
    const keyEnd = skipValue(text, at);
    const name = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, skipSpace(text, keyEnd) + 1); // past ':'
    if (name === key) found = at;
    at = skipSpace(text, skipValue(text, at));
    if (text[at] === ",") at = skipSpace(text, at + 1);
  }
  return found;
}

/** Offset just past the JSON value that starts at `pos`. */
function skipValue(text: string, pos: number): number {
  let depth = 0;
  let i = pos;
  do {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{") {
      depth++;
    } else if (c === "]" || c === "}") {
      depth--;
    } else if (depth === 0) {
      while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1])) i++;
    }
    i++;
  } while (depth > 0 && i < text.length);
  return i;
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && (text[pos] === " " || text[pos] === "\t" || text[pos] === "\r" || text[pos] === "\n")) pos++;
  return pos;
}
