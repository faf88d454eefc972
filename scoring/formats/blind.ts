/**
 * Blind test input: a gold key with its coreference removed, what participants run their
 * systems on (issue 24 §3). The result is also a valid response that predicts nothing, so
 * a copy of it is a scorable sample submission.
 *
 * CorefUD CoNLL-U (`blindCorefUD`): every line of the key is kept as it is, except that
 * - `Entity=…`, `Bridge=…` and `SplitAnte=…` are removed from MISC (the other MISC items keep
 *   their order; MISC becomes `_` when nothing is left), on words, empty nodes and
 *   multiword-token lines alike;
 * - with `dropEntityDeclaration`, the `# global.Entity = …` comment lines are removed;
 * - with `emptyNodes: "drop"`, the empty-node lines (ids like `3.1`, the zeros) are removed,
 *   and so are the enhanced dependencies (DEPS) of the remaining nodes that point at an empty
 *   node (DEPS becomes `_` when nothing is left). Word ids do not change: CoNLL-U numbers
 *   empty nodes apart from words. With `"keep"` (the default) DEPS is left unchanged.
 *
 * CoNLL-2012 (`blindConll2012`): the last column of every token line (the coreference
 * column) becomes `-`; every other line and column is kept as it is.
 *
 * Both check the key with the format's reader first (`readCorefUD`, `readConll2012`), and
 * then cut lines as those readers do: `#` comments and markers, blank lines between sentences,
 * every other line a token (after the check, each one inside a document). Line breaks are
 * written `\n` (a CRLF key gives an LF file), and the file ends with one.
 */
import { readConll2012 } from "./conll2012.js";
import { readCorefUD } from "./conllu.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { decodeInput, forEachLine, type Input } from "./text.js";

/** The formats a blind input can be derived from (a dataset's `format`). */
export type BlindFormat = "conllu" | "conll2012";

/** What a CorefUD blind input keeps (the organizer's choice). */
export interface BlindOptions {
  /** `"keep"` (default) the empty nodes (zeros) with their lines and DEPS; `"drop"` them and the DEPS that point at them */
  emptyNodes?: "keep" | "drop";
  /** remove the `# global.Entity = …` declarations (default false: keep them) */
  dropEntityDeclaration?: boolean;
}

const GLOBAL_ENTITY = /^#\s*global\.Entity\s*=/;
const EMPTY_ID = /^[0-9]+\.[1-9][0-9]*$/;
const COREF_MISC = /^(Entity|Bridge|SplitAnte)=/;
/** The MISC items that carry coreference in CorefUD: what a blind input never holds. */
export const COREFUD_COREFERENCE_ATTRIBUTES: readonly string[] = ["Entity", "Bridge", "SplitAnte"];

/**
 * The blind input of a CorefUD CoNLL-U gold key (see the module comment).
 *
 * @param key the gold key's text or bytes
 * @param file its name, for error messages
 * @param options which empty nodes and declarations to keep
 * @returns the blind file's text, ending with a blank line (`\n\n`), as CoNLL-U files do
 * @throws FormatError when the key does not read as CorefUD CoNLL-U (`readCorefUD`, with the
 *   default limits)
 */
export function blindCorefUD(key: Input, file: string, options: BlindOptions = {}): string {
  const text = decodeInput(key, file);
  readCorefUD(text, file, DEFAULT_LIMITS);
  const dropEmpty = options.emptyNodes === "drop";
  const out: string[] = [];
  forEachLine(text, (line) => {
    if (line.startsWith("#")) {
      if (!(options.dropEntityDeclaration && GLOBAL_ENTITY.test(line))) out.push(line);
      return;
    }
    if (line.trim() === "") {
      out.push(line);
      return;
    }
    const columns = line.split("\t");
    if (dropEmpty && EMPTY_ID.test(columns[0])) return;
    if (dropEmpty && columns.length > 8 && columns[8] !== "_") {
      // DEPS: `head:deprel` items joined by `|`; the head of a dropped empty node is `N.M`.
      const deps = columns[8].split("|").filter((item) => !EMPTY_ID.test(item.split(":", 1)[0]));
      columns[8] = deps.length === 0 ? "_" : deps.join("|");
    }
    if (columns.length > 9 && columns[9] !== "_") {
      const misc = columns[9].split("|").filter((item) => !COREF_MISC.test(item));
      columns[9] = misc.length === 0 ? "_" : misc.join("|");
    }
    out.push(columns.join("\t"));
  });
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n\n`;
}

/**
 * The coreference items a CorefUD CoNLL-U file still holds: which of
 * {@link COREFUD_COREFERENCE_ATTRIBUTES} occur in the MISC column (the 10th) of any word,
 * empty-node or multiword-token line. Comment lines (`# global.Entity = …` included) and the
 * other columns are not looked at, so a word whose form is `Entity=x` is not taken for one.
 * Used to refuse a "blind input" that is really a gold key.
 *
 * @param input the file's text or bytes (UTF-8)
 * @param file its name, for decoding errors
 * @returns the attributes found, in {@link COREFUD_COREFERENCE_ATTRIBUTES}' order (empty: none)
 * @throws FormatError when the bytes are not UTF-8 (`decodeInput`)
 */
export function corefudCoreferenceAttributes(input: Input, file: string): string[] {
  const text = decodeInput(input, file);
  const found = new Set<string>();
  forEachLine(text, (line) => {
    if (found.size === COREFUD_COREFERENCE_ATTRIBUTES.length || line.startsWith("#") || line.trim() === "") return;
    const columns = line.split("\t");
    if (columns.length < 10 || columns[9] === "_") return;
    for (const item of columns[9].split("|")) {
      const match = COREF_MISC.exec(item);
      if (match) found.add(match[1]);
    }
  });
  return COREFUD_COREFERENCE_ATTRIBUTES.filter((a) => found.has(a));
}

/**
 * The blind input of a CoNLL-2012 gold key: the coreference column of every token line is
 * `-` (see the module comment).
 *
 * @param key the gold key's text or bytes
 * @param file its name, for error messages
 * @returns the blind file's text, ending with `\n`
 * @throws FormatError when the key does not read as CoNLL-2012 (`readConll2012`, with the
 *   default limits)
 */
export function blindConll2012(key: Input, file: string): string {
  const text = decodeInput(key, file);
  readConll2012(text, file, DEFAULT_LIMITS, { words: false });
  const out: string[] = [];
  forEachLine(text, (line) => {
    const trimmed = line.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) {
      out.push(line);
      return;
    }
    if (line.includes("\t")) {
      const columns = line.split("\t");
      columns[columns.length - 1] = "-";
      out.push(columns.join("\t"));
    } else {
      // Columns separated by runs of spaces (the reader's rule for lines without a tab).
      out.push(line.replace(/\S+(\s*)$/, "-$1"));
    }
  });
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n`;
}

/**
 * The blind input of a gold key in the given format.
 *
 * @param key the gold key's text or bytes
 * @param format the dataset's format
 * @param file the key's name, for error messages
 * @param options CorefUD only (ignored for CoNLL-2012)
 * @returns the blind file's text
 * @throws FormatError as {@link blindCorefUD} / {@link blindConll2012}; RangeError for
 *   another format (a caller's bug)
 */
export function blindInput(key: Input, format: BlindFormat, file: string, options: BlindOptions = {}): string {
  switch (format) {
    case "conllu":
      return blindCorefUD(key, file, options);
    case "conll2012":
      return blindConll2012(key, file);
    default:
      throw new RangeError(`blindInput: no blind input for the format ${JSON.stringify(format satisfies never)}`);
  }
}
