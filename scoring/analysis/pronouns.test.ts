/**
 * Pronoun lexicons: the built-in English list, the list format's parser (every error with
 * its line and column) and writer (round trip).
 */
import { describe, expect, it } from "vitest";
import { formatError } from "../test/format-error.js";
import {
  ENGLISH_PRONOUN_CATEGORIES,
  ENGLISH_PRONOUNS,
  formatPronounLexicon,
  parsePronounLexicon,
  type PronounLexicon,
} from "./pronouns.js";

const PERSONS = ["first-person", "second-person", "third-person"];
const NUMBERS = ["singular", "plural"];
const KINDS = ["personal", "possessive", "reflexive", "demonstrative"];

describe("ENGLISH_PRONOUNS", () => {
  const forms = ENGLISH_PRONOUNS.types.map((t) => t.form);

  it("is English, with distinct lower-case forms without whitespace", () => {
    expect(ENGLISH_PRONOUNS.language).toBe("en");
    expect(new Set(forms).size).toBe(forms.length);
    for (const f of forms) expect(f).toMatch(/^[a-z]+$/);
  });

  it("covers the personal, possessive, reflexive, demonstrative and archaic forms", () => {
    const expected =
      "i me my mine myself we us our ours ourselves ourself you your yours yourself yourselves " +
      "he him his himself she her hers herself it its itself they them their theirs themselves themself " +
      "this that these those thou thee thy thine thyself ye";
    expect([...forms].sort()).toEqual(expected.split(" ").sort());
  });

  it("uses only its category vocabulary: one person, at least one number and one kind each", () => {
    expect([...ENGLISH_PRONOUN_CATEGORIES].sort()).toEqual([...PERSONS, ...NUMBERS, ...KINDS].sort());
    const used = new Set<string>();
    for (const t of ENGLISH_PRONOUNS.types) {
      for (const c of t.categories) {
        expect(ENGLISH_PRONOUN_CATEGORIES, `${t.form}: ${c}`).toContain(c);
        used.add(c);
      }
      expect(new Set(t.categories).size, t.form).toBe(t.categories.length);
      expect(t.categories.filter((c) => PERSONS.includes(c)), t.form).toHaveLength(1);
      expect(t.categories.some((c) => NUMBERS.includes(c)), t.form).toBe(true);
      expect(t.categories.some((c) => KINDS.includes(c)), t.form).toBe(true);
    }
    expect(used.size).toBe(ENGLISH_PRONOUN_CATEGORIES.length);
  });

  it("is ordered by person, then kind", () => {
    const rank = (t: { categories: string[] }) =>
      PERSONS.findIndex((p) => t.categories.includes(p)) * 10 + KINDS.findIndex((k) => t.categories.includes(k));
    const ranks = ENGLISH_PRONOUNS.types.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(forms.slice(0, 2)).toEqual(["i", "me"]);
    expect(forms.slice(-4)).toEqual(["this", "that", "these", "those"]);
  });

  it("spot checks: her is personal and possessive, you is singular and plural", () => {
    const cats = (f: string) => ENGLISH_PRONOUNS.types.find((t) => t.form === f)!.categories;
    expect(cats("her")).toEqual(["third-person", "singular", "personal", "possessive"]);
    expect(cats("you")).toEqual(["second-person", "singular", "plural", "personal"]);
    expect(cats("thee")).toEqual(["second-person", "singular", "personal"]);
    expect(cats("those")).toEqual(["third-person", "plural", "demonstrative"]);
  });

  it("is frozen", () => {
    expect(Object.isFrozen(ENGLISH_PRONOUNS)).toBe(true);
    expect(Object.isFrozen(ENGLISH_PRONOUNS.types)).toBe(true);
    expect(Object.isFrozen(ENGLISH_PRONOUNS.types[0].categories)).toBe(true);
  });
});

describe("parsePronounLexicon / formatPronounLexicon", () => {
  it("round-trips the English list", () => {
    const text = formatPronounLexicon(ENGLISH_PRONOUNS);
    expect(text.split("\n").slice(0, 3)).toEqual(["@language en", "i: first-person, singular, personal", "me: first-person, singular, personal"]);
    expect(parsePronounLexicon(text)).toEqual(ENGLISH_PRONOUNS);
  });

  it("round-trips a list with a type without categories and an undetermined language", () => {
    const lexicon: PronounLexicon = {
      language: "und",
      types: [
        { form: "hij", categories: ["3", "sg"] },
        { form: "zich", categories: [] },
        { form: "l'", categories: ["Det/Pro", "clitic"] },
      ],
    };
    const text = formatPronounLexicon(lexicon);
    expect(text).toBe("@language und\nhij: 3, sg\nzich:\nl': Det/Pro, clitic\n");
    expect(parsePronounLexicon(text)).toEqual(lexicon);
  });

  it("reads comments, blank lines, CRLF, a BOM, loose spacing and upper-case forms", () => {
    const text =
      "\uFEFF# Dutch\r\n\r\n  @language   nl  \r\n" +
      "Hij : third-person ,singular,personal\r\n" +
      "\t# a comment\r\n" +
      "zich:reflexive\r\n" +
      "ZE:\r\n";
    expect(parsePronounLexicon(text)).toEqual({
      language: "nl",
      types: [
        { form: "hij", categories: ["third-person", "singular", "personal"] },
        { form: "zich", categories: ["reflexive"] },
        { form: "ze", categories: [] },
      ],
    });
  });

  it("defaults the language to und and reads a last line without a newline", () => {
    expect(parsePronounLexicon("he: x")).toEqual({ language: "und", types: [{ form: "he", categories: ["x"] }] });
  });

  it("formatPronounLexicon refuses lexicons that would not read back the same", () => {
    const ok = { form: "he", categories: ["x"] };
    const bad: PronounLexicon[] = [
      { language: "", types: [ok] },
      { language: "e n", types: [ok] },
      { language: "en", types: [] },
      { language: "en", types: [{ form: "He", categories: [] }] },
      { language: "en", types: [{ form: "a b", categories: [] }] },
      { language: "en", types: [{ form: "a:b", categories: [] }] },
      { language: "en", types: [{ form: "#a", categories: [] }] },
      { language: "en", types: [{ form: "@a", categories: [] }] },
      { language: "en", types: [{ form: "", categories: [] }] },
      { language: "en", types: [ok, ok] },
      { language: "en", types: [{ form: "a", categories: ["x,y"] }] },
      { language: "en", types: [{ form: "a", categories: [""] }] },
      { language: "en", types: [{ form: "a", categories: ["x y"] }] },
      { language: "en", types: [{ form: "a", categories: ["x", "x"] }] },
      { language: "en", types: [{ form: "a", categories: ["x".repeat(200)] }] },
      { language: "en", types: Array.from({ length: 1001 }, (_, i) => ({ form: `f${i}`, categories: [] })) },
    ];
    for (const lexicon of bad) expect(() => formatPronounLexicon(lexicon), JSON.stringify(lexicon).slice(0, 80)).toThrow(RangeError);
  });
});

describe("parsePronounLexicon errors", () => {
  /** Parses `text`, expects a FormatError, checks its position and returns it. */
  function errorAt(text: string, line: number, column: number) {
    const err = formatError(() => parsePronounLexicon(text, "nl.txt"));
    expect(err.file).toBe("nl.txt");
    expect({ line: err.line, column: err.column }).toEqual({ line, column });
    return err;
  }

  it("names the default file 'pronoun list' and carries an excerpt with a caret", () => {
    const err = formatError(() => parsePronounLexicon("he third-person"));
    expect(err.file).toBe("pronoun list");
    expect(err.message).toMatch(/^pronoun list:1:4: expected ':' after the form "he"/);
    expect(err.excerpt).toBe("  he third-person\n     ^");
  });

  it("a line longer than 200 characters", () => {
    const err = errorAt(`he: x\n${"a".repeat(200)}:\r\n`, 2, 201);
    expect(err.expected).toBe("a line of at most 200 characters");
    expect(err.found).toBe("a line of 201 characters");
    // exactly 200 is fine
    expect(parsePronounLexicon(`${"a".repeat(199)}:`).types[0].form).toHaveLength(199);
  });

  it("an unknown directive", () => {
    const err = errorAt("# x\n  @lang nl\nhe: x\n", 2, 3);
    expect(err.expected).toBe("'@language' (the only directive)");
    expect(err.found).toBe('the directive "@lang"');
  });

  it("@language after a type, twice, without a code, with extra words", () => {
    expect(errorAt("he: x\n@language en\n", 2, 1).found).toBe("'@language' after a pronoun type");
    expect(errorAt("@language en\n@language nl\nhe: x\n", 2, 1).found).toBe("a second '@language'");
    const none = errorAt("@language  \nhe: x\n", 1, 10);
    expect(none.expected).toBe("a language code after '@language'");
    expect(none.found).toBe("the end of the line");
    const extra = errorAt("@language en GB\nhe: x\n", 1, 14);
    expect(extra.expected).toBe("the end of the line after the language code");
    expect(extra.found).toBe('"GB"');
  });

  it("a form with whitespace or without ':'", () => {
    const spaced = errorAt("he: x\nhis own: x\n", 2, 5);
    expect(spaced.expected).toBe(`':' after the form "his" (a form holds no whitespace)`);
    expect(spaced.found).toBe('"own: x"');
    const bare = errorAt("he: x\n  him  \n", 2, 8);
    expect(bare.expected).toBe(`':' after the form "him"`);
    expect(bare.found).toBe("the end of the line");
  });

  it("an empty form", () => {
    const err = errorAt("  : x\n", 1, 3);
    expect(err.expected).toBe("a pronoun form before ':'");
    expect(err.found).toBe("':'");
  });

  it("an empty category: doubled comma, trailing comma, leading comma", () => {
    expect(errorAt("he: a,,b\n", 1, 7).found).toBe('","');
    const trailing = errorAt("he: a, \n", 1, 8);
    expect(trailing.expected).toBe("a category");
    expect(trailing.found).toBe("the end of the line");
    expect(errorAt("he: ,a\n", 1, 5).found).toBe('","');
  });

  it("a category with whitespace", () => {
    const err = errorAt("he: third person, singular\n", 1, 11);
    expect(err.expected).toBe(`',' or the end of the line after the category "third" (a category holds no whitespace)`);
    expect(err.found).toBe('"person, singular"');
  });

  it("a category repeated in one type", () => {
    const err = errorAt("he: a, b, a\n", 1, 11);
    expect(err.expected).toBe('a category not given before for "he"');
    expect(err.found).toBe('"a" again');
  });

  it("a form listed twice, after lower-casing", () => {
    const err = errorAt("he: a\n# c\n  HE: b\n", 3, 3);
    expect(err.expected).toBe("a form not listed before");
    expect(err.found).toBe('"he" again (first at line 1)');
  });

  it("more than 1,000 types", () => {
    const lines = Array.from({ length: 1001 }, (_, i) => `f${i}:`);
    expect(parsePronounLexicon(lines.slice(0, 1000).join("\n")).types).toHaveLength(1000);
    const err = errorAt(`@language xx\n${lines.join("\n")}`, 1002, 1);
    expect(err.expected).toBe("at most 1000 pronoun types");
  });

  it("an empty list", () => {
    for (const text of ["", "\n\n", "# only a comment\n@language nl\n"]) {
      const err = formatError(() => parsePronounLexicon(text, "nl.txt"));
      expect(err.column).toBe(1);
      expect(err.expected).toBe("at least one pronoun type line ('form: category, ...')");
      expect(err.found).toBe("no pronoun type in the whole list");
    }
    expect(formatError(() => parsePronounLexicon("# c\n@language nl\n")).line).toBe(2);
  });
});
