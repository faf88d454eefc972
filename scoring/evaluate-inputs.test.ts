/**
 * `evaluateInputs` against `evaluate` on the whole corpora: the same report (or the same
 * error) for every input, and the document-by-document path (`evaluateCorefUDStream`) taken
 * exactly where the two files hold the same documents in the same order and nothing fails:
 * CorefUD CoNLL-U (the CorefUD scorer's 111 cases, many of them in one file, GUM) and
 * CoNLL-2012 (the reference scorer's 113 cases, generated files of many documents).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { perturbCorefUD } from "./bench/perturb-conllu.js";
import { evaluate, type EvaluateOptions, type MentionMatch } from "./evaluate.js";
import { evaluateInputs, evaluateStream, type InputSettings } from "./evaluate-inputs.js";
import { CorefUDDocumentStream } from "./formats/conllu.js";
import { readCorpus } from "./formats/index.js";
import { writeConll2012 } from "./formats/write-conll2012.js";
import { generatePair } from "./bench/generate.js";
import type { Input } from "./formats/text.js";
import { dataDir } from "./test/data-dir.js";
import { FormatError } from "./types.js";

const ALL: EvaluateOptions["metrics"] = ["mentions", "muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero"];
const fixtures = fileURLToPath(new URL("./test/fixtures/corefud-scorer/", import.meta.url));
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What a call gives: its value, or the error it throws as plain data (class, message, fields). */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? { ...error, name: error.name, message: error.message, isFormatError: error instanceof FormatError } : error };
  }
}

/** `evaluate` on the whole corpora: what `evaluateInputs` must equal. */
function whole(key: Input, response: Input, settings: InputSettings, options: EvaluateOptions): unknown {
  return outcome(() => evaluate(readCorpus(key, settings.keyFile, settings), readCorpus(response, settings.responseFile, settings), options));
}

/** Checks that `evaluateInputs` equals `whole` and returns whether the document-by-document path gave the report. */
function check(key: Input, response: Input, settings: InputSettings, options: EvaluateOptions): boolean {
  const expected = whole(key, response, settings, options);
  expect(outcome(() => evaluateInputs(key, response, settings, options))).toEqual(expected);
  const format = settings.format ?? (settings.keyFile.endsWith(".conllu") ? "conllu" : "conll2012");
  const streamed = format === "jsonlines" ? null : evaluateStream(format, key, response, settings, options);
  if (streamed !== null) expect({ value: streamed }).toEqual(expected);
  return streamed !== null;
}

/** The document ids of a CorefUD file, in order (null when it does not read). */
function ids(input: Input, file: string): string[] | null {
  try {
    return readCorpus(input, file, { format: "conllu" }).documents.map((d) => d.id);
  } catch {
    return null;
  }
}

interface Entry {
  key: string;
  response: string;
  settings: { match: MentionMatch; keep_singletons: boolean; keep_zeros: boolean; zero_match_method: "linear" | "dependent" };
}
const entries = (JSON.parse(readFileSync(join(fixtures, "expected.json"), "utf8")) as { entries: Entry[] }).entries;
const optionsOf = (e: Entry): EvaluateOptions => ({
  match: e.settings.match,
  zeroMatch: e.settings.zero_match_method,
  removeSingletons: !e.settings.keep_singletons,
  removeZeros: !e.settings.keep_zeros,
  metrics: ALL,
});
const fixture = (name: string): Uint8Array => readFileSync(join(fixtures, "data", name));

/** A file of several documents made of fixture files, each document id suffixed so that they differ. */
function concatenated(names: readonly string[], order: readonly number[] = names.map((_, i) => i)): string {
  return order.map((i) => readFileSync(join(fixtures, "data", names[i]), "utf8").replace(/^# newdoc id = (.*)$/m, `# newdoc id = $1-${i}`)).join("\n");
}

describe("evaluateInputs", () => {
  it("equals evaluate on the 111 CorefUD scorer cases, document by document wherever their documents pair up", () => {
    let streamed = 0;
    for (const e of entries) {
      const key = fixture(e.key);
      const response = fixture(e.response);
      const settings = { keyFile: e.key, responseFile: e.response, format: "conllu" as const };
      const pairs = JSON.stringify(ids(key, e.key)) === JSON.stringify(ids(response, e.response));
      const didStream = check(key, response, settings, optionsOf(e));
      // Unless scoring fails (then the whole files give the error), same documents mean streaming.
      if (pairs && !("error" in (whole(key, response, settings, optionsOf(e)) as object))) expect(didStream, `${e.key} / ${e.response}`).toBe(true);
      if (!pairs) expect(didStream).toBe(false);
      if (didStream) streamed++;
    }
    expect(streamed).toBeGreaterThan(80);
  });

  // One file of many documents: every key of the cases, each with the first response of its cases that has its document id
  // (keys whose zeros lack DEPS left out: dependent zero matching refuses them).
  const pairs = [...new Set(entries.map((e) => e.key))].flatMap((k) => {
    const id = JSON.stringify(ids(fixture(k), k));
    const e = entries.find((x) => x.key === k && JSON.stringify(ids(fixture(x.response), x.response)) === id)!;
    const s = { keyFile: e.key, responseFile: e.response, format: "conllu" as const };
    return "error" in (whole(fixture(e.key), fixture(e.response), s, { zeroMatch: "dependent" }) as object) ? [] : [[k, e.response]];
  });
  const keyNames = pairs.map(([k]) => k);
  const responseNames = pairs.map(([, r]) => r);
  const multiKey = concatenated(keyNames);
  const multiResponse = concatenated(responseNames);
  const settings = { keyFile: "multi.key.conllu", responseFile: "multi.response.conllu" };

  it("scores a file of many documents document by document in every CRAC variant, equal to evaluate", () => {
    expect(keyNames.length).toBeGreaterThan(20);
    for (const match of ["head", "partial", "exact"] as const) {
      for (const removeSingletons of [true, false]) {
        for (const zeroMatch of ["dependent", "linear"] as const) {
          expect(check(bytes(multiKey), bytes(multiResponse), settings, { match, removeSingletons, zeroMatch, metrics: ALL }), `${match} ${removeSingletons} ${zeroMatch}`).toBe(true);
        }
      }
    }
    // Text input reads the same way as bytes.
    expect(check(multiKey, multiResponse, settings, { match: "head", removeSingletons: true, metrics: ALL })).toBe(true);
  });

  it("reads the whole files when the documents do not pair up in order: reordered, missing, extra", () => {
    const n = keyNames.length;
    const reversed = concatenated(responseNames, responseNames.map((_, i) => n - 1 - i));
    const missing = concatenated(responseNames, responseNames.map((_, i) => i).filter((i) => i !== 3));
    const extra = `${multiResponse}\n${concatenated(["exact-match/TC-A-1.response"]).replace(/^# newdoc id = .*$/m, "# newdoc id = only-in-response")}`;
    const options = { match: "head" as const, removeSingletons: true, metrics: ALL };
    for (const response of [reversed, missing, extra]) expect(check(bytes(multiKey), bytes(response), settings, options)).toBe(false);
    // Two documents of the same words, swapped: pairing them by position would score each against the other's response.
    const twin = (file: string, id: string): string => readFileSync(join(fixtures, "data", file), "utf8").replace(/^# newdoc id = .*$/m, `# newdoc id = ${id}`);
    const twinKey = `${twin("exact-match/TC-A.key", "x")}\n${twin("exact-match/TC-A.key", "y")}`;
    const twinResponse = `${twin("exact-match/TC-A-2.response", "y")}\n${twin("exact-match/TC-A-5.response", "x")}`;
    expect(check(bytes(twinKey), bytes(twinResponse), settings, options)).toBe(false);
    const report = evaluateInputs(bytes(multiKey), bytes(missing), settings, options);
    expect(report.warnings.map((w) => w.code)).toContain("missing-document");
    expect(evaluateInputs(bytes(multiKey), bytes(extra), settings, options).warnings.map((w) => w.code)).toContain("response-only-document");
  });

  it("gives the whole files' first error: the key's reading, then the response's, then the settings, then scoring", () => {
    const options = { match: "head" as const, removeSingletons: true, metrics: ALL };
    // A key error in its last document; a response error in its first.
    const keyBad = `${multiKey}\n# newdoc id = bad\n1\t_\t_\t_\t_\t_\t0\t_\t_\tEntity=(e9-x-1-\n`;
    const responseBad = multiResponse.replace(/^(1\t[^\n]*)$/m, "$1\tmore");
    // A response whose words differ from the key's in its first document (a scoring error).
    const responseMisaligned = multiResponse.replace(/^(1\t)_/m, "$1word");
    for (const [key, response] of [
      [keyBad, responseBad],
      [keyBad, responseMisaligned],
      [multiKey, responseBad],
      [multiKey, responseMisaligned],
    ]) {
      const expected = whole(bytes(key), bytes(response), settings, options) as { error?: { isFormatError: boolean } };
      expect(expected.error?.isFormatError).toBe(true);
      expect(check(bytes(key), bytes(response), settings, options)).toBe(false);
    }
    expect((whole(bytes(keyBad), bytes(responseBad), settings, options) as { error: { file: string } }).error.file).toBe(settings.keyFile);
    // A setting CorefUD input cannot have.
    const entity = { ...options, bcubWeighting: "entity" as const };
    expect((whole(bytes(multiKey), bytes(multiResponse), settings, entity) as { error: { name: string } }).error.name).toBe("RangeError");
    expect(check(bytes(multiKey), bytes(multiResponse), settings, entity)).toBe(false);
  });

  it("streams a file's only, unnamed document when both files carry the same name, with the unnamed-document warnings", () => {
    const text = readFileSync(join(fixtures, "data", "exact-match/TC-A.key"), "utf8").replace(/^# newdoc id = .*\n/m, "");
    const response = readFileSync(join(fixtures, "data", "exact-match/TC-A-2.response"), "utf8").replace(/^# newdoc id = .*\n/m, "");
    const same = { keyFile: "key/doc.conllu", responseFile: "response/doc.conllu" };
    expect(check(bytes(text), bytes(response), same, { metrics: ALL })).toBe(true);
    expect(evaluateInputs(bytes(text), bytes(response), same, { metrics: ALL }).warnings.filter((w) => w.code === "unnamed-document")).toHaveLength(2);
    // Different names: the documents do not pair up (the whole files score the key as missing).
    expect(check(bytes(text), bytes(response), { keyFile: "a.conllu", responseFile: "b.conllu" }, { metrics: ALL })).toBe(false);
  });

});

describe("evaluateInputs on CoNLL-2012", () => {
  const root = fileURLToPath(new URL("./test/fixtures/reference-scorer/", import.meta.url));
  const cases = (JSON.parse(readFileSync(join(root, "expected.json"), "utf8")) as { cases: { key: string; response: string }[] }).cases;

  it("equals evaluate on the reference scorer's 113 cases, document by document wherever their documents pair up", () => {
    let streamed = 0;
    for (const c of cases) {
      const key = readFileSync(join(root, c.key));
      const response = readFileSync(join(root, c.response));
      const settings = { keyFile: c.key, responseFile: c.response, format: "conll2012" as const };
      const pairs = JSON.stringify(ids2012(key, c.key)) === JSON.stringify(ids2012(response, c.response));
      const didStream = check(key, response, settings, { metrics: ALL });
      if (pairs) expect(didStream, `${c.key} / ${c.response}`).toBe(true);
      else expect(didStream).toBe(false);
      if (didStream) streamed++;
    }
    expect(streamed).toBeGreaterThan(100);
  });

  // 40 generated documents (bench case a's generator), key and response, and the same response with two documents swapped.
  const pairs = Array.from({ length: 40 }, (_, i) => generatePair({ name: `gen/doc_${i}`, tokens: 120 + i, keyEntities: 6 + (i % 5), keyMentions: 20 + (i % 7), responseEntities: 7 + (i % 4) }, 100 + i));
  const key = writeConll2012(pairs.map((p) => p.key));
  const response = writeConll2012(pairs.map((p) => p.response));
  const swapped = writeConll2012(pairs.map((p, i) => pairs[i === 3 ? 4 : i === 4 ? 3 : i].response));
  const settings = { keyFile: "gen.key.conll", responseFile: "gen.response.conll" };

  it("scores a file of many documents document by document, with and without words, equal to evaluate", () => {
    for (const words of [true, false]) {
      expect(check(bytes(key), bytes(response), { ...settings, words }, { metrics: ALL })).toBe(true);
      expect(check(key, response, { ...settings, words }, { metrics: ALL, removeSingletons: true, mappedClusterF: true })).toBe(true);
    }
  });

  it("reads the whole files when the documents do not pair up, or on any error", () => {
    expect(check(bytes(key), bytes(swapped), settings, { metrics: ALL })).toBe(false);
    const dropped = writeConll2012(pairs.slice(0, 39).map((p) => p.response));
    expect(check(bytes(key), bytes(dropped), settings, { metrics: ALL })).toBe(false);
    // An unclosed mention in the key's last document; a bad chain item in the response's first.
    const keyBad = key.replace(/\t-\n#end document\n$/, "\t(1\n#end document\n");
    const responseBad = response.replace("\t-\n", "\tx\n");
    expect(keyBad).not.toBe(key);
    expect(responseBad).not.toBe(response);
    for (const [k, r] of [[keyBad, responseBad], [key, responseBad], [keyBad, response]]) {
      expect(check(bytes(k), bytes(r), settings, { metrics: ALL })).toBe(false);
    }
    expect((whole(bytes(keyBad), bytes(responseBad), settings, { metrics: ALL }) as { error: { file: string } }).error.file).toBe(settings.keyFile);
    // Head match needs CorefUD input: a RangeError, as evaluate gives.
    expect(check(bytes(key), bytes(response), settings, { match: "head" })).toBe(false);
  });
});

/** The document ids of a CoNLL-2012 file, in order (null when it does not read). */
function ids2012(input: Input, file: string): string[] | null {
  try {
    return readCorpus(input, file, { format: "conll2012" }).documents.map((d) => d.id);
  } catch {
    return null;
  }
}

describe("CorefUDDocumentStream", () => {
  it("ends a document begun on the file's last line, with or without a final line break", () => {
    const text = "# newdoc id = a\n1\tx\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)\n\n# newdoc id = empty";
    for (const t of [text, `${text}\n`]) {
      expect(readCorpus(bytes(t), "t.conllu").documents.map((d) => d.id)).toEqual(["a", "empty"]);
      const stream = new CorefUDDocumentStream(t, "t.conllu");
      expect([stream.next()?.id, stream.next()?.id, stream.next()]).toEqual(["a", "empty", null]);
    }
  });

  it("gives one document per call, reading no further than its end", () => {
    const text = `${concatenated(["exact-match/TC-A.key", "exact-match/TC-B.key"])}\n# newdoc id = broken\n1\t_\t_\n`;
    const stream = new CorefUDDocumentStream(bytes(text), "s.conllu");
    expect(stream.next()?.id).toBe("LuoTestCase-0");
    // The second document ends where the third begins; the third's broken line is read after.
    expect(stream.next()?.id).toMatch(/-1$/);
    expect(() => stream.next()).toThrow(FormatError);
  });
});

const data = dataDir();
if (!data) console.log("skipping evaluateInputs on GUM: no ../shared/data and COREFBOARD_DATA_DIR is not set");

describe.skipIf(!data)("evaluateInputs on GUM", () => {
  it("scores the 108 GUM CorefUD documents against a perturbation document by document, equal to evaluate", () => {
    const dir = join(data!, "gum", "corefud-conllu");
    const keyText = readdirSync(dir).filter((f) => f.endsWith(".conllu")).sort().map((f) => readFileSync(join(dir, f), "utf8")).join("");
    const responseText = perturbCorefUD(keyText, { seed: 42 }).text;
    const s = { keyFile: "gum-key.conllu", responseFile: "gum-response.conllu" };
    for (const match of ["head", "exact"] as const) {
      expect(check(bytes(keyText), bytes(responseText), s, { match, removeSingletons: true, metrics: ALL })).toBe(true);
    }
  });
});
