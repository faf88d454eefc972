/**
 * Fuzz test of the three readers (issue 8): 10,000 generated inputs in all, and every one
 * must either read into a sane corpus or throw a `FormatError` that names the file and a real
 * line and column. Any other error (a `RangeError` from deep nesting, a `TypeError`, ...)
 * fails the test, naming the error, the seed and path that replay it, and the input's start
 * (inputs run to megabytes, so they are neither printed whole nor shrunk).
 *
 * The generators know the formats so that inputs get past the first checks and reach the
 * deep code: valid documents (from random entities) with a few random edits, random
 * sequences of chain items and brackets, nesting thousands of levels deep, random bytes,
 * and truncation. Some inputs are read with tiny limits, so that the limit checks run too.
 *
 * Deterministic: a fixed seed (printed; `FUZZ_SEED=n` tries another), so CI sees the same
 * 10,000 inputs every time. The test also checks that each reader both accepted and refused
 * a fair share of inputs, for many different reasons, or the generators would test little.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FormatError, type Corpus } from "../types.js";
import { readCorpus, type ReadLimits } from "../formats/index.js";
import { writeConll2012 } from "../formats/write-conll2012.js";

const SEED = Number(process.env.FUZZ_SEED ?? 8_2025);
/** Inputs per reader; 10,000 in all. */
const RUNS = { conll2012: 3_400, conllu: 3_300, jsonlines: 3_300 } as const;
type Reader = keyof typeof RUNS;
const FILE: Record<Reader, string> = { conll2012: "fuzz.conll", conllu: "fuzz.conllu", jsonlines: "fuzz.jsonl" };

console.log(`fuzz seed ${SEED} (set FUZZ_SEED to try another)`);

/** What happened per reader: how many corpora, how many errors and of which kinds. */
const seen = Object.fromEntries(
  (Object.keys(RUNS) as Reader[]).map((r) => [r, { corpus: 0, error: 0, kinds: new Set<string>() }]),
) as Record<Reader, { corpus: number; error: number; kinds: Set<string> }>;

afterAll(() => {
  for (const [reader, s] of Object.entries(seen)) {
    console.log(`fuzz ${reader}: ${s.corpus} corpora, ${s.error} FormatErrors of ${s.kinds.size} kinds`);
    if (process.env.FUZZ_KINDS) console.log([...s.kinds].sort().join("\n"));
  }
});

/** A reader's input with optional small limits. */
interface Case {
  input: string | Uint8Array;
  limits?: ReadLimits;
}

/** Lines in `input` (a final line break starts no line the readers report). */
function lineCount(input: string | Uint8Array): number {
  let n = 1;
  if (typeof input === "string") for (let i = input.indexOf("\n"); i >= 0; i = input.indexOf("\n", i + 1)) n++;
  else for (const b of input) if (b === 10) n++;
  return n;
}

/** Reads `c` with `reader`; anything but a sane corpus or a sane FormatError fails. */
function check(reader: Reader, c: Case): void {
  const file = FILE[reader];
  let corpus: Corpus;
  try {
    corpus = readCorpus(c.input, file, { limits: c.limits });
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    expect(error.file).toBe(file);
    expect(Number.isInteger(error.line) && error.line >= 1 && error.line <= lineCount(c.input)).toBe(true);
    expect(Number.isInteger(error.column) && error.column >= 1).toBe(true);
    expect(error.message.startsWith(`${file}:${error.line}:${error.column}: expected ${error.expected}, found `)).toBe(true);
    seen[reader].error++;
    // The kind of error: its `expected` without the quoted parts, entity ids and numbers.
    seen[reader].kinds.add(
      error.expected
        .replace(/'[^']*'|"[^"]*"/g, "Q")
        .replace(/entity \S+/g, "entity E")
        .replace(/\d+/g, "N")
        .slice(0, 60),
    );
    return;
  }
  expect(corpus.file).toBe(file);
  for (const doc of corpus.documents) {
    const n = doc.tokens.length;
    for (const entity of doc.entities) {
      for (const [start, end] of entity) {
        expect(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end < n).toBe(true);
      }
    }
    doc.sentenceStarts.forEach((s, i) => expect(s >= 0 && s < n && (i === 0 || s > doc.sentenceStarts[i - 1])).toBe(true));
  }
  seen[reader].corpus++;
}

// ---------------------------------------------------------------------------------------
// Shared pieces: random edits, truncation, random bytes, small limits.

/** One random edit of a text; positions are taken modulo the text's length. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.constantFrom("(", ")", "|", "[", "]", "{", "}", '"', ",", ":", "-", "_", "\t", " ", "\n", "\r\n", "#", "=", "1", "12", "x", "\\", "\u00a0", "\u2028", "é", "\uffff") }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant("duplicateLine" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("dropLine" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(text: string, e: Edit): string {
  if (text.length === 0) return e.kind === "insert" ? e.text : text;
  const at = e.at % (text.length + 1);
  switch (e.kind) {
    case "insert":
      return text.slice(0, at) + e.text + text.slice(at);
    case "delete":
      return text.slice(0, at) + text.slice(at + e.length);
    case "truncate":
      return text.slice(0, at);
    case "duplicateLine":
    case "dropLine": {
      const lines = text.split("\n");
      const i = e.at % lines.length;
      if (e.kind === "dropLine") lines.splice(i, 1);
      else lines.splice(i, 0, lines[i]);
      return lines.join("\n");
    }
  }
}

/** `text` with 1 to 3 random edits. */
const mutated = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(text, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([t, edits]) => edits.reduce(applyEdit, t));

/** Mostly the default limits, sometimes tiny ones, any of them (so that every limit check is reached). */
const limits: fc.Arbitrary<ReadLimits | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record(
      { maxDocuments: fc.integer({ min: 1, max: 2 }), maxTokensPerDocument: fc.integer({ min: 1, max: 8 }), maxMentionsPerDocument: fc.integer({ min: 1, max: 4 }) },
      { requiredKeys: [] },
    ),
  },
);

/** Random bytes, sometimes after a valid start (so that UTF-8 and NUL checks meet real lines). */
const bytesAfter = (prefix: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> =>
  fc.tuple(fc.option(prefix, { nil: "" }), fc.uint8Array({ maxLength: 300 })).map(([p, b]) => {
    const head = new TextEncoder().encode(p);
    const out = new Uint8Array(head.length + b.length);
    out.set(head);
    out.set(b, head.length);
    return out;
  });

/** Random entities over `n` tokens: up to 12 mentions in up to 4 entities. */
const entitiesOver = (n: number) =>
  fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(3)), { maxLength: 12 }).map((ms) => {
    const entities: [number, number][][] = [[], [], [], []];
    for (const [a, b, e] of ms) entities[e].push([Math.min(a, b), Math.max(a, b)]);
    return entities.filter((e) => e.length > 0);
  });

/** A random document: 1 to 30 tokens, sentence starts, entities. */
const document = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.record({
    tokens: fc.array(fc.constantFrom("the", "dog", "It", "saw", "(", ")", "-", "_", "a b", "Zoë", ""), { minLength: n, maxLength: n }),
    breaks: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: 4 }),
    entities: entitiesOver(n),
  }),
);

/** A nesting depth: mostly hundreds to 2,000 levels, sometimes up to 20,000 (far past any call stack). */
const depth = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100, max: 2_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 20_000 }) });

const run = (reader: Reader, arbitrary: fc.Arbitrary<Case>, seedOffset: number) =>
  fc.assert(
    fc.property(arbitrary, (c) => check(reader, c)),
    { numRuns: RUNS[reader], seed: SEED + seedOffset, endOnFailure: true, reporter: (details) => report(reader, details) },
  );

/** Fails with the error, how to replay it, and the start of the input (never the whole of it). */
function report(reader: Reader, details: fc.RunDetails<[Case]>): void {
  if (!details.failed) return;
  const failing = details.counterexample?.[0];
  const input = failing === undefined ? "(none)" : typeof failing.input === "string" ? failing.input : `bytes ${Array.from(failing.input.subarray(0, 300)).join(",")}`;
  const cause = details.errorInstance instanceof Error ? `${details.errorInstance.name}: ${details.errorInstance.message.split("\n")[0]}` : String(details.errorInstance);
  throw new Error(
    `${reader} reader failed on input ${details.numRuns} of ${RUNS[reader]}: ${cause}\n` +
      `replay: fc.assert(..., { seed: ${details.seed}, path: "${details.counterexamplePath}" }) (FUZZ_SEED=${SEED})\n` +
      `limits: ${JSON.stringify(failing?.limits ?? null)}; input (${input.length} characters), first 300: ${JSON.stringify(input.slice(0, 300))}`,
    { cause: details.errorInstance },
  );
}

// ---------------------------------------------------------------------------------------
// CoNLL-2012

const conllDocs = fc.array(document, { minLength: 1, maxLength: 3 }).map((docs) =>
  writeConll2012(
    docs.map((d, i) => ({
      name: `doc${i}`,
      part: i % 2 === 0 ? 0 : null,
      tokens: d.tokens.map((t) => t.replace(/\s/g, "_")),
      sentenceStarts: [0, ...d.breaks.filter((b) => b < d.tokens.length).sort((a, b) => a - b)],
      entities: d.entities,
    })),
  ),
);

const chainItem = fc.oneof(
  fc.constantFrom("(", ")", "|", "-", "_", "+", "x", "(1+2)", "(1+", "((", "))", ")("),
  fc.tuple(fc.constantFrom("(", "", "("), fc.oneof(fc.nat(5).map(String), fc.constant("99999999999999999999")), fc.constantFrom(")", "", "")).map(([a, id, b]) => a + id + b),
);
const conllSoup = fc
  .tuple(
    fc.constantFrom("#begin document (d); part 0", "#begin document (d)", "#begin document", "# begin document (d); part 007", "#begin document (a)  ;  part  x", ""),
    fc.array(fc.oneof({ weight: 6, arbitrary: fc.array(chainItem, { minLength: 1, maxLength: 6 }).map((items) => `w\t${items.join("")}`) }, { weight: 1, arbitrary: fc.constantFrom("", "#end document", "#begin document (e); part 0", "#end document\n#begin document (d); part 0", "w x y z (1)", "#comment") }), { maxLength: 25 }),
    fc.boolean(),
  )
  .map(([header, rows, end]) => [header, ...rows, ...(end ? ["#end document"] : [])].join("\n") + "\n");

/** `(1` nested `levels` deep, on one line or one per token (at most 2,000 lines), closed or not. */
const conllDeep = fc.tuple(depth, fc.boolean(), fc.nat(), fc.constantFrom("1", "2")).map(([levels, oneLine, cut, closeId]) => {
  const opens = oneLine ? [`w\t${"(1".repeat(levels)}`] : Array.from({ length: Math.min(levels, 2000) }, () => "w\t(1");
  const closes = Array.from({ length: cut % (opens.length === 1 ? levels + 1 : opens.length + 1) }, () => `w\t${closeId})`);
  return ["#begin document (deep); part 0", ...opens, ...closes, "#end document", ""].join("\n");
});

// ---------------------------------------------------------------------------------------
// CorefUD CoNLL-U

const udItem = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom("(", ""), fc.constantFrom("e1", "e2", "e3", "GRP", "e1[1/2]", "e1[2/2]", "e2[1/3]", "e2[2/3]", "e2[3/3]", "e3[2/1]", "x y"), fc.constantFrom("-person-1-", "-x", "", ")")).map(([a, id, b]) => (a === "(" ? `(${id}${b}` : `${id})`)) },
  { weight: 1, arbitrary: fc.constantFrom("(", ")", "()", "-", "(e1", "e1)", "e1))", "((e1-x") },
);
const udRow = fc
  .tuple(
    fc.oneof({ weight: 8, arbitrary: fc.constant("word") }, { weight: 1, arbitrary: fc.constantFrom("range", "empty", "bad") }),
    fc.array(udItem, { maxLength: 5 }),
    fc.constantFrom("", "SpaceAfter=No|", "Bridge=e1<e2|", "Entity=(e9)|"),
  )
  .map(([kind, items, misc]) => ({ kind, misc: items.length > 0 ? `${misc}Entity=${items.join("")}` : misc === "" ? "_" : misc.slice(0, -1) }));
const udDoc = fc
  .tuple(
    fc.constantFrom("# newdoc id = d1", "# newdoc id =   spaced   ", "# newdoc", "# newdoc name = x", ""),
    fc.constantFrom("# global.Entity = eid-etype-head-other", "# global.Entity = etype-eid", "# global.Entity = etype-head", ""),
    fc.array(fc.oneof({ weight: 10, arbitrary: udRow }, { weight: 1, arbitrary: fc.constant(null) }), { minLength: 1, maxLength: 20 }),
  )
  .map(([newdoc, global, rows]) => {
    const lines: string[] = [newdoc, global].filter((l) => l !== "");
    let word = 0;
    for (const r of rows) {
      if (r === null) {
        lines.push("");
        word = 0;
        continue;
      }
      const id = r.kind === "word" ? String(++word) : r.kind === "range" ? `${word + 1}-${word + 2}` : r.kind === "empty" ? `${word}.1` : "x";
      lines.push([id, "form", "lemma", "NOUN", "_", "_", "0", "root", "_", r.misc].join("\t"));
    }
    return lines.join("\n") + "\n";
  });
const udFile = fc.array(udDoc, { minLength: 1, maxLength: 2 }).map((docs) => docs.join("\n"));

/** Valid CorefUD from random entities (contiguous mentions), to be edited. */
const udValid = fc.array(document, { minLength: 1, maxLength: 2 }).map((docs) =>
  docs
    .map((d, i) => {
      const brackets: string[][] = d.tokens.map(() => []);
      d.entities.forEach((entity, e) => {
        for (const [start, end] of entity) {
          if (start === end) brackets[start].push(`(e${e}-x)`);
          else {
            brackets[start].unshift(`(e${e}-x`);
            brackets[end].push(`e${e})`);
          }
        }
      });
      const rows = d.tokens.map((t, w) => [String(w + 1), t.replace(/\s/g, "_") || "_", "_", "_", "_", "_", "0", "root", "_", brackets[w].length ? `Entity=${brackets[w].join("")}` : "_"].join("\t"));
      return [`# newdoc id = doc${i}`, "# global.Entity = eid-etype", ...rows, ""].join("\n");
    })
    .join("\n"),
);

const udDeep = fc.tuple(depth, fc.boolean(), fc.nat()).map(([levels, discontinuous, cut]) => {
  const open = discontinuous ? "(e[1/2]-x" : "(e-x";
  const close = discontinuous ? "e[1/2])" : "e)";
  const row = (id: number, misc: string) => [String(id), "w", "_", "_", "_", "_", "0", "root", "_", misc].join("\t");
  return ["# newdoc id = deep", row(1, `Entity=${open.repeat(levels)}`), row(2, `Entity=${close.repeat(cut % (levels + 1)) || "_"}`), ""].join("\n");
});

// ---------------------------------------------------------------------------------------
// JSON lines

const jsonDocs = fc.array(document, { minLength: 1, maxLength: 3 }).map((docs) =>
  docs
    .map((d, i) => {
      const starts = [0, ...d.breaks.filter((b) => b < d.tokens.length).sort((a, b) => a - b), d.tokens.length];
      const sentences = starts.slice(0, -1).map((s, k) => d.tokens.slice(s, starts[k + 1]));
      return JSON.stringify({ doc_key: `doc${i}`, sentences, clusters: d.entities, speakers: sentences.map((s) => s.map(() => "A")) });
    })
    .join("\n") + "\n",
);

/** Objects with the three fields holding values of any JSON type, and other JSON lines. */
const jsonOdd = fc
  .array(
    fc.oneof(
      fc.record({ doc_key: fc.oneof(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), sentences: fc.jsonValue({ maxDepth: 3 }), clusters: fc.jsonValue({ maxDepth: 4 }) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((values) => values.map((v) => JSON.stringify(v) ?? "null").join("\n"));

/** Arrays or objects nested 20 to 200,000 levels deep in a document field or alone, closed or cut off. */
const jsonDeep = fc.tuple(fc.integer({ min: 20, max: 200_000 }), fc.constantFrom("clusters", "sentences", "extra", "top"), fc.boolean(), fc.boolean()).map(([levels, where, objects, closed]) => {
  const open = objects ? '{"k":' : "[";
  const close = objects ? "}" : "]";
  const value = open.repeat(levels) + (objects ? "1" : "") + (closed ? close.repeat(levels) : "");
  if (where === "top") return value;
  const doc: Record<string, string> = { doc_key: '"d"', sentences: '[["w"]]', clusters: "[[[0,0]]]" };
  doc[where] = where === "clusters" ? `[[${value}]]` : value;
  return `{${Object.entries(doc).map(([k, v]) => `"${k}":${v}`).join(",")}}`;
});

describe("fuzz: every reader returns a corpus or throws a FormatError (10,000 inputs)", () => {
  it(`CoNLL-2012: ${RUNS.conll2012} inputs`, { timeout: 120_000 }, () => {
    const input = fc.oneof(
      { weight: 3, arbitrary: mutated(conllDocs) },
      { weight: 1, arbitrary: conllDocs },
      { weight: 3, arbitrary: conllSoup },
      { weight: 1, arbitrary: conllDeep },
      { weight: 1, arbitrary: bytesAfter(conllDocs) },
    );
    run("conll2012", fc.record({ input, limits }, { requiredKeys: ["input"] }), 1);
  });

  it(`CorefUD CoNLL-U: ${RUNS.conllu} inputs`, { timeout: 120_000 }, () => {
    const input = fc.oneof(
      { weight: 2, arbitrary: mutated(udValid) },
      { weight: 2, arbitrary: udValid },
      { weight: 3, arbitrary: udFile },
      { weight: 1, arbitrary: mutated(udFile) },
      { weight: 1, arbitrary: udDeep },
      { weight: 1, arbitrary: bytesAfter(udValid) },
    );
    run("conllu", fc.record({ input, limits }, { requiredKeys: ["input"] }), 2);
  });

  it(`JSON lines: ${RUNS.jsonlines} inputs`, { timeout: 120_000 }, () => {
    const input = fc.oneof(
      { weight: 3, arbitrary: mutated(jsonDocs) },
      { weight: 1, arbitrary: jsonDocs },
      { weight: 2, arbitrary: jsonOdd },
      { weight: 2, arbitrary: jsonDeep },
      { weight: 1, arbitrary: bytesAfter(jsonDocs) },
    );
    run("jsonlines", fc.record({ input, limits }, { requiredKeys: ["input"] }), 3);
  });

  it("reached deep code: each reader accepted and refused a fair share of inputs, for many reasons", () => {
    const total = Object.values(seen).reduce((sum, s) => sum + s.corpus + s.error, 0);
    // 10,000 when the three properties above ran in full (fast-check stops at a failure).
    expect(total).toBe(10_000);
    for (const [reader, s] of Object.entries(seen) as [Reader, (typeof seen)[Reader]][]) {
      expect(s.corpus, `${reader} corpora`).toBeGreaterThan(RUNS[reader] / 10);
      expect(s.error, `${reader} errors`).toBeGreaterThan(RUNS[reader] / 4);
      expect(s.kinds.size, `${reader} error kinds: ${[...s.kinds].join(" | ")}`).toBeGreaterThanOrEqual(MIN_KINDS[reader]);
    }
  });
});

/** Distinct kinds of FormatError each reader must have produced (most of its checks). */
const MIN_KINDS: Record<Reader, number> = { conll2012: 14, conllu: 20, jsonlines: 18 };
