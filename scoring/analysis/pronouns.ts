/**
 * Pronoun lexicons: the pronoun types (lexical forms) a pronoun analysis counts, each with
 * grammatical categories that exclusions can name (Byron 2001, "The Uncommon Denominator:
 * A Proposal for Consistent Reporting of Pronoun Resolution Results", Computational
 * Linguistics 27(4), ACL Anthology J01-4006: one column per lexical type, referential
 * exclusions by category).
 *
 * - `ENGLISH_PRONOUNS` is the built-in English list; `ENGLISH_PRONOUN_CATEGORIES` its
 *   category vocabulary.
 * - `parsePronounLexicon` reads a task-supplied list; `formatPronounLexicon` writes one, so
 *   that `parsePronounLexicon(formatPronounLexicon(x))` deep-equals `x`.
 *
 * The list format, one pronoun type per line:
 *
 *     # Dutch personal pronouns (comment lines start with '#')
 *     @language nl
 *     hij: third-person, singular, personal
 *     zich: third-person, reflexive
 *
 * - `form: category, category, ...`: the form is lower-cased and holds no whitespace and no
 *   `:`; it may not start with `#` or `@`. Categories are separated by commas (spaces around
 *   them are ignored), each holds no whitespace and no comma, and they are kept as written
 *   (case-sensitive). A type may have no category (`form:`), but not the same one twice.
 * - `@language CODE` (a code without whitespace, e.g. `nl`) is optional and, when given,
 *   comes before the first type line, once. Without it the language is `"und"`
 *   (BCP 47 "undetermined").
 * - Blank lines and lines whose first non-blank character is `#` are ignored, and so is
 *   whitespace around a line, a form, a `:`, a category or a comma. Lines end with `\n` or `\r\n`; a leading byte-order
 *   mark is skipped.
 * - Limits: at most `MAX_PRONOUN_TYPES` (1,000) types, lines of at most
 *   `MAX_PRONOUN_LINE_LENGTH` (200) characters (UTF-16 code units, as columns are).
 */
import { FormatError, quote } from "../types.js";

/** One pronoun type: a lexical form and its grammatical categories. */
export interface PronounType {
  /** The form, lower case, without whitespace (matched against lower-cased token texts). */
  form: string;
  /** Category labels, e.g. `["third-person", "singular", "personal"]`; distinct. */
  categories: string[];
}

/** A pronoun list: its language and its types in column order. */
export interface PronounLexicon {
  /** A language code such as `en` or `nl`; `"und"` when a list does not say. */
  language: string;
  /** The pronoun types in column order; forms are distinct. */
  types: PronounType[];
}

/** The most pronoun types a list may hold. */
export const MAX_PRONOUN_TYPES = 1000;
/** The longest line a pronoun list may have, in characters (UTF-16 code units). */
export const MAX_PRONOUN_LINE_LENGTH = 200;
/** The language of a list without an `@language` directive (BCP 47 "undetermined"). */
export const UNDETERMINED_LANGUAGE = "und";

/**
 * The category vocabulary of `ENGLISH_PRONOUNS`: person (`first-person`,
 * `second-person`, `third-person`), number (`singular`, `plural`) and kind (`personal`,
 * `possessive`, `reflexive`, `demonstrative`).
 */
export const ENGLISH_PRONOUN_CATEGORIES: readonly string[] = Object.freeze([
  "first-person",
  "second-person",
  "third-person",
  "singular",
  "plural",
  "personal",
  "possessive",
  "reflexive",
  "demonstrative",
]);

/** `[form, ...categories]` rows of the English list, in column order. */
const ENGLISH_ROWS: readonly (readonly string[])[] = [
  // first person: personal, possessive, reflexive
  ["i", "first-person", "singular", "personal"],
  ["me", "first-person", "singular", "personal"],
  ["we", "first-person", "plural", "personal"],
  ["us", "first-person", "plural", "personal"],
  ["my", "first-person", "singular", "possessive"],
  ["mine", "first-person", "singular", "possessive"],
  ["our", "first-person", "plural", "possessive"],
  ["ours", "first-person", "plural", "possessive"],
  ["myself", "first-person", "singular", "reflexive"],
  ["ourselves", "first-person", "plural", "reflexive"],
  ["ourself", "first-person", "singular", "reflexive"], // the royal "we"'s reflexive
  // second person (with the archaic forms common in fiction)
  ["you", "second-person", "singular", "plural", "personal"],
  ["thou", "second-person", "singular", "personal"],
  ["thee", "second-person", "singular", "personal"],
  ["ye", "second-person", "plural", "personal"],
  ["your", "second-person", "singular", "plural", "possessive"],
  ["yours", "second-person", "singular", "plural", "possessive"],
  ["thy", "second-person", "singular", "possessive"],
  ["thine", "second-person", "singular", "possessive"],
  ["yourself", "second-person", "singular", "reflexive"],
  ["yourselves", "second-person", "plural", "reflexive"],
  ["thyself", "second-person", "singular", "reflexive"],
  // third person: personal ("her" is also the possessive determiner), possessive,
  // reflexive, demonstrative
  ["he", "third-person", "singular", "personal"],
  ["him", "third-person", "singular", "personal"],
  ["she", "third-person", "singular", "personal"],
  ["her", "third-person", "singular", "personal", "possessive"],
  ["it", "third-person", "singular", "personal"],
  ["they", "third-person", "plural", "personal"],
  ["them", "third-person", "plural", "personal"],
  ["his", "third-person", "singular", "possessive"],
  ["hers", "third-person", "singular", "possessive"],
  ["its", "third-person", "singular", "possessive"],
  ["their", "third-person", "plural", "possessive"],
  ["theirs", "third-person", "plural", "possessive"],
  ["himself", "third-person", "singular", "reflexive"],
  ["herself", "third-person", "singular", "reflexive"],
  ["itself", "third-person", "singular", "reflexive"],
  ["themselves", "third-person", "plural", "reflexive"],
  ["themself", "third-person", "singular", "reflexive"],
  ["this", "third-person", "singular", "demonstrative"],
  ["that", "third-person", "singular", "demonstrative"],
  ["these", "third-person", "plural", "demonstrative"],
  ["those", "third-person", "plural", "demonstrative"],
];

/**
 * The built-in English pronoun list (language `en`, 43 types, frozen): personal (subject
 * and object), possessive determiners and pronouns, reflexives and the demonstratives
 * this/that/these/those, plus the archaic thou/thee/thy/thine/thyself/ye common in
 * fiction. Types are ordered by person (first, second, third), then kind (personal,
 * possessive, reflexive, demonstrative), then singular before plural. Each type's
 * categories are its person, its number(s) and its kind(s), all from
 * `ENGLISH_PRONOUN_CATEGORIES`: `you`/`your`/`yours` are both singular and plural, `her`
 * is both personal and possessive. Source: standard English grammar; the column layout
 * follows Byron (2001), Table 2.
 */
export const ENGLISH_PRONOUNS: PronounLexicon = Object.freeze({
  language: "en",
  types: Object.freeze(
    ENGLISH_ROWS.map(([form, ...categories]) =>
      Object.freeze({ form, categories: Object.freeze(categories) as string[] }),
    ),
  ) as PronounType[],
}) as PronounLexicon;

/** Any Unicode whitespace. */
const WHITESPACE = /\s/u;

/** Whether `ch` (one UTF-16 code unit) is whitespace. */
function isBlank(ch: string): boolean {
  return WHITESPACE.test(ch);
}

/** Whether `form` is a form a list can hold (the parser's rules, for `formatPronounLexicon`). */
function validForm(form: string): boolean {
  return (
    form.length > 0 &&
    form === form.toLowerCase() &&
    !/[\s:]/u.test(form) &&
    form[0] !== "#" &&
    form[0] !== "@"
  );
}

/** Whether `category` is a category a list can hold. */
function validCategory(category: string): boolean {
  return category.length > 0 && !/[\s,]/u.test(category);
}

/**
 * Reads a task-supplied pronoun list (format in the module docstring).
 *
 * @param text the list's text
 * @param file the name used in error messages (default `"pronoun list"`)
 * @returns the lexicon: `language` from `@language` (else `"und"`), `types` in file order
 *   with lower-cased forms and categories as written
 * @throws FormatError naming `file`, the 1-based line and column, what was expected and
 *   what was found, for: a line longer than 200 characters; an unknown `@` directive, a
 *   `@language` without exactly one code, repeated or after the first type; a line
 *   without `:` after its form, or a form with whitespace; an empty form; an empty
 *   category (`a,,b`, trailing comma), a category with whitespace, a category repeated in
 *   one type; a form listed twice (after lower-casing); more than 1,000 types; a list with
 *   no type at all
 */
export function parsePronounLexicon(text: string, file = "pronoun list"): PronounLexicon {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  let language: string | null = null;
  const types: PronounType[] = [];
  const firstLine = new Map<string, number>();

  for (let index = 0; index < lines.length; index++) {
    let line = lines[index];
    if (line.endsWith("\r")) line = line.slice(0, -1);
    const at: ListLine = { file, number: index + 1, text: line };
    if (line.length > MAX_PRONOUN_LINE_LENGTH) {
      failAt(at, MAX_PRONOUN_LINE_LENGTH + 1, `a line of at most ${MAX_PRONOUN_LINE_LENGTH} characters`, `a line of ${line.length} characters`);
    }
    let pos = 0;
    while (pos < line.length && isBlank(line[pos])) pos++;
    if (pos === line.length || line[pos] === "#") continue;

    if (line[pos] === "@") {
      language = readLanguage(at, pos, language, types.length);
      continue;
    }
    const { formStart, formText, end } = readForm(at, pos);
    const form = formText.toLowerCase();
    const seenAt = firstLine.get(form);
    if (seenAt !== undefined) {
      failAt(at, formStart + 1, "a form not listed before", `${quote(form)} again (first at line ${seenAt})`);
    }
    if (types.length >= MAX_PRONOUN_TYPES) {
      failAt(at, formStart + 1, `at most ${MAX_PRONOUN_TYPES} pronoun types`, "one more pronoun type");
    }
    const categories = readCategories(at, end, form);
    firstLine.set(form, at.number);
    types.push({ form, categories });
  }

  if (types.length === 0) {
    const last = lines.length === 0 ? "" : lines[lines.length - 1].replace(/\r$/, "");
    failAt(
      { file, number: Math.max(1, lines.length), text: last },
      1,
      "at least one pronoun type line ('form: category, ...')",
      "no pronoun type in the whole list",
    );
  }
  return { language: language ?? UNDETERMINED_LANGUAGE, types };
}

/** One line of a pronoun list being read, for its errors: the list's name, the 1-based line number, its text (without `\r`). */
interface ListLine {
  file: string;
  number: number;
  text: string;
}

/** Throws the `FormatError` of `parsePronounLexicon` at 1-based `column` of the line `at`. */
function failAt(at: ListLine, column: number, expected: string, found: string): never {
  throw new FormatError({ file: at.file, line: at.number, column, expected, found, lineText: at.text });
}

/**
 * Reads the `@` directive that starts at `pos` of the line `at`: `@language CODE`.
 * @param language the language read so far (null before any `@language`)
 * @param typesSoFar the number of pronoun types read so far
 * @returns the language code
 * @throws FormatError for another directive, an `@language` after a type or repeated, or one
 *   without exactly one code
 */
function readLanguage(at: ListLine, pos: number, language: string | null, typesSoFar: number): string {
  const line = at.text;
  const words = [...line.matchAll(/\S+/gu)];
  const directive = words[0][0];
  if (directive !== "@language") {
    failAt(at, pos + 1, "'@language' (the only directive)", `the directive ${quote(directive)}`);
  }
  if (typesSoFar > 0) {
    failAt(at, pos + 1, "'@language' before the first pronoun type", "'@language' after a pronoun type");
  }
  if (language !== null) {
    failAt(at, pos + 1, "one '@language' directive", "a second '@language'");
  }
  if (words.length < 2) {
    failAt(at, line.trimEnd().length + 1, "a language code after '@language'", "the end of the line");
  }
  if (words.length > 2) {
    failAt(at, words[2].index + 1, "the end of the line after the language code", quote(line.slice(words[2].index).trimEnd()));
  }
  return words[1][0];
}

/**
 * Reads the form of a type line, from `pos` (its first non-blank character) to the `:` after it.
 * @returns the form as written, its 0-based start, and `end`, the position just past the `:`
 * @throws FormatError for an empty form, or a line without `:` after its form (a form with whitespace)
 */
function readForm(at: ListLine, pos: number): { formStart: number; formText: string; end: number } {
  const line = at.text;
  const formStart = pos;
  while (pos < line.length && line[pos] !== ":" && !WHITESPACE.test(line[pos])) pos++;
  const formText = line.slice(formStart, pos);
  if (formText === "") failAt(at, pos + 1, "a pronoun form before ':'", "':'");
  while (pos < line.length && isBlank(line[pos])) pos++;
  if (pos === line.length) {
    failAt(at, pos + 1, `':' after the form ${quote(formText)}`, "the end of the line");
  }
  if (line[pos] !== ":") {
    failAt(at, pos + 1, `':' after the form ${quote(formText)} (a form holds no whitespace)`, quote(line.slice(pos).trimEnd()));
  }
  return { formStart, formText, end: pos + 1 };
}

/**
 * Reads the comma-separated categories of the type `form`, from `pos` (just past its `:`) to
 * the end of the line `at`.
 * @returns the categories as written (none when the rest of the line is blank)
 * @throws FormatError for an empty category, a category with whitespace, or one repeated
 */
function readCategories(at: ListLine, pos: number, form: string): string[] {
  const line = at.text;
  const categories: string[] = [];
  while (pos < line.length && isBlank(line[pos])) pos++;
  if (pos === line.length) return categories;
  for (;;) {
    while (pos < line.length && isBlank(line[pos])) pos++;
    const start = pos;
    while (pos < line.length && line[pos] !== "," && !WHITESPACE.test(line[pos])) pos++;
    const category = line.slice(start, pos);
    if (category === "") {
      failAt(at, pos + 1, "a category", pos === line.length ? "the end of the line" : quote(line[pos]));
    }
    if (categories.includes(category)) {
      failAt(at, start + 1, `a category not given before for ${quote(form)}`, `${quote(category)} again`);
    }
    categories.push(category);
    while (pos < line.length && isBlank(line[pos])) pos++;
    if (pos === line.length) return categories;
    if (line[pos] !== ",") {
      failAt(
        at,
        pos + 1,
        `',' or the end of the line after the category ${quote(category)} (a category holds no whitespace)`,
        quote(line.slice(pos).trimEnd()),
      );
    }
    pos++; // past ','
  }
}

/**
 * Writes a lexicon in the list format: an `@language` line, then one `form: categories`
 * line per type (categories joined by `", "`), each line ending with `\n`.
 *
 * @param lexicon a lexicon the parser could have produced
 * @returns text for which `parsePronounLexicon(text)` deep-equals `lexicon`
 * @throws RangeError when `lexicon` cannot be written so that it reads back the same: a
 *   language that is empty or holds whitespace; no types or more than 1,000; a form that
 *   is empty, not lower case, holds whitespace or `:`, starts with `#` or `@`, or is
 *   repeated; a category that is empty, holds whitespace or a comma, or is repeated in
 *   one type; a line longer than 200 characters
 */
export function formatPronounLexicon(lexicon: PronounLexicon): string {
  const { language, types } = lexicon;
  if (language === "" || WHITESPACE.test(language)) {
    throw new RangeError(`pronoun lexicon language ${quote(language)} is empty or holds whitespace`);
  }
  if (types.length === 0 || types.length > MAX_PRONOUN_TYPES) {
    throw new RangeError(`a pronoun lexicon needs 1 to ${MAX_PRONOUN_TYPES} types, this one has ${types.length}`);
  }
  const out = [`@language ${language}`];
  const seen = new Set<string>();
  for (const { form, categories } of types) {
    if (!validForm(form)) {
      throw new RangeError(`pronoun form ${quote(form)} is empty, not lower case, holds whitespace or ':', or starts with '#' or '@'`);
    }
    if (seen.has(form)) throw new RangeError(`pronoun form ${quote(form)} is listed twice`);
    seen.add(form);
    for (const c of categories) {
      if (!validCategory(c)) throw new RangeError(`category ${quote(c)} of ${quote(form)} is empty or holds whitespace or ','`);
    }
    if (new Set(categories).size !== categories.length) {
      throw new RangeError(`pronoun form ${quote(form)} repeats a category`);
    }
    const line = categories.length === 0 ? `${form}:` : `${form}: ${categories.join(", ")}`;
    if (line.length > MAX_PRONOUN_LINE_LENGTH) {
      throw new RangeError(`the line for ${quote(form)} would be longer than ${MAX_PRONOUN_LINE_LENGTH} characters`);
    }
    out.push(line);
  }
  if (out[0].length > MAX_PRONOUN_LINE_LENGTH) {
    throw new RangeError(`the @language line would be longer than ${MAX_PRONOUN_LINE_LENGTH} characters`);
  }
  return out.join("\n") + "\n";
}
