/**
 * The upload-checking pool with real threads: counts of a good file, a 422 with line and
 * column for a bad one, the time and memory limits (the pool serves the next file after
 * either), the bounded waiting line (503), and the web server's event loop turning while a
 * large hostile file is read.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { ServiceBusyError, ValidationError } from "../errors";
import { readCorpus } from "../../scoring/formats/index";
import { packFile } from "../storage";
import { hostileConll2012 } from "./hostile";
import { BUSY_RETRY_AFTER_SECONDS, GOLD_IDS_CACHED, uploadPoolEntry, uploadPoolOptions, UploadPool, type StoredGoldFile, type UploadPoolOptions } from "./pool";
import { corpusStats } from "./stats";
import checkUpload from "./thread";
import { loadEnv } from "../env";
import { readUpload, validateUpload } from "../uploads/checks";

const KEY = ["#begin document (d1); part 0", "John\t(0)", "saw\t-", "him\t(0)", "", "Mary\t(1)", "#end document", ""].join("\n");
const BROKEN = ["#begin document (d); part 0", "w\t-", "x\t(7", "y\t-", "#end document", ""].join("\n");
const encode = (text: string) => new TextEncoder().encode(text);
/** A stored gold key as `findActiveGold` gives it. */
const storedGold = (text: string, fileName = "key.conll"): StoredGoldFile => {
  const { gzip, sha256 } = packFile(encode(text));
  return { gzip, sha256, fileName };
};
/** A CoNLL-2012 key with the given documents (headers as written: "(a); part 000" or "(b)"), one mention each. */
const conllKey = (headers: string[]) => headers.map((h) => `#begin document ${h}\nJohn\t(0)\nsaw\t-\nhim\t(0)\n#end document\n`).join("");

const pools: UploadPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.destroy())));

function pool(options: Partial<UploadPoolOptions> = {}): UploadPool {
  const p = new UploadPool({ threads: 1, maxQueue: 8, maxQueuedBytes: 1024 ** 3, timeoutMs: 60_000, maxMemoryMb: 512, ...options });
  pools.push(p);
  return p;
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("upload pool", () => {
  const shared = pool();

  it("returns the counts of a good file (the same as reading it in-process), and leaves the caller's bytes intact", { timeout: 30_000 }, async () => {
    const bytes = encode(KEY);
    const stats = await validateUpload(bytes, "k.conll", shared);
    expect(stats).toEqual({ documents: 1, tokens: 4, mentions: 3, entities: 2, singletons: 1, warnings: 0 });
    expect(stats).toEqual(corpusStats(readCorpus(KEY, "k.conll")));
    expect(new TextDecoder().decode(bytes)).toBe(KEY);
    // The format follows the file name.
    const jsonl = JSON.stringify({ doc_key: "a", sentences: [["x", "y"]], clusters: [[[0, 0], [1, 1]]] });
    expect(await validateUpload(encode(jsonl), "r.jsonl", shared)).toMatchObject({ documents: 1, tokens: 2, mentions: 2, entities: 1 });
  });

  it("refuses a broken file with 422 and the FormatError's file, line and column", { timeout: 30_000 }, async () => {
    const error = await rejection(validateUpload(encode(BROKEN), "r.conll", shared));
    expect(error).toBeInstanceOf(ValidationError);
    const bad = error as ValidationError;
    expect(bad.httpStatus).toBe(422);
    expect(bad.formatErrors).toEqual([
      {
        file: "r.conll",
        line: 3,
        column: 3,
        expected: "'7)' to close this mention of entity 7 before '#end document' at line 5",
        found: "'(7' that is never closed",
        message: "r.conll:3:3: expected '7)' to close this mention of entity 7 before '#end document' at line 5, found '(7' that is never closed",
      },
    ]);
    expect(bad.message).toBe(`The file could not be read: ${bad.formatErrors[0].message}`);
    // Deep JSON nesting is a FormatError too (issue 8: it was a RangeError, a 500).
    const deep = `{"doc_key":"a","sentences":[["w"]],"clusters":[[${"[".repeat(20_000)}${"]".repeat(20_000)}]]}`;
    const nested = (await rejection(validateUpload(encode(deep), "deep.jsonl", shared))) as ValidationError;
    expect(nested.formatErrors[0]).toMatchObject({ file: "deep.jsonl", line: 1, expected: "arrays and objects nested at most 64 levels deep" });
    expect((await rejection(validateUpload(encode(""), "e.conll", shared))).message).toContain("e.conll:1:1: expected a file with coreference annotation");
  });

  it("refuses a document with more mentions than 2 per token (+20) with a 422 naming file, line and counts; accepts one at the bound", { timeout: 30_000 }, async () => {
    // Document "dense" (line 4): 10 tokens, the first carrying `n` one-word mentions.
    const dense = (n: number) =>
      ["#begin document (ok); part 0", "John\t(0)", "#end document", "#begin document (dense); part 0", `w\t${Array.from({ length: n }, (_, i) => `(${i})`).join("|")}`, ...Array(9).fill("w\t-"), "#end document", ""].join("\n");
    expect(await validateUpload(encode(dense(40)), "ok.conll", shared)).toMatchObject({ documents: 2, tokens: 11, mentions: 41 });
    const error = (await rejection(validateUpload(encode(dense(41)), "dense.conll", shared))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.formatErrors[0]).toMatchObject({ file: "dense.conll", line: 4, column: 1, found: '41 mentions on 10 tokens in document "dense"' });
    expect(error.message).toContain("dense.conll:4:1: expected at most 2 mentions per token in a document (40 for its 10 tokens");
  });

  it("answers the documents of an upload: their ids as the scorer matches them, and the line each begins on", { timeout: 30_000 }, async () => {
    const read = await readUpload(encode(conllKey(["(a); part 000", "(b)", "(a); part 1"])), "r.conll", shared);
    expect(read.documents).toEqual([
      { id: "a/part 0", line: 1 },
      { id: "b", line: 6 },
      { id: "a/part 1", line: 11 },
    ]);
    expect(read.stats).toMatchObject({ documents: 3, mentions: 6 });
  });

  it("reads a gold key's document ids in a thread and caches them by sha256: the same key is read once, a new version again", { timeout: 30_000 }, async () => {
    const gold = pool();
    const v1 = storedGold(conllKey(["(a); part 0", "(b); part 0"]));
    const v2 = storedGold(conllKey(["(a); part 0", "(c); part 0"]));
    const load1 = vi.fn(async () => v1);
    const load2 = vi.fn(async () => v2);
    expect(await gold.goldDocumentIds({ sha256: v1.sha256, load: load1 })).toEqual({ kind: "gold-ids", sha256: v1.sha256, ids: ["a/part 0", "b/part 0"] });
    expect(await gold.goldDocumentIds({ sha256: v1.sha256, load: load1 })).toEqual({ kind: "gold-ids", sha256: v1.sha256, ids: ["a/part 0", "b/part 0"] });
    expect(load1).toHaveBeenCalledTimes(1);
    // A new gold version (another sha256) is loaded and read; the old one stays cached.
    expect(await gold.goldDocumentIds({ sha256: v2.sha256, load: load2 })).toMatchObject({ ids: ["a/part 0", "c/part 0"] });
    expect(load2).toHaveBeenCalledTimes(1);
    await gold.goldDocumentIds({ sha256: v1.sha256, load: load1 });
    expect(load1).toHaveBeenCalledTimes(1);
    // Uploads needing an uncached key at once share one load and one reading.
    const v3 = storedGold(conllKey(["(z)"]));
    const load3 = vi.fn(async () => v3);
    const answers = await Promise.all([1, 2, 3].map(() => gold.goldDocumentIds({ sha256: v3.sha256, load: load3 })));
    expect(answers.map((a) => a.kind === "gold-ids" && a.ids)).toEqual([["z"], ["z"], ["z"]]);
    expect(load3).toHaveBeenCalledTimes(1);
    // The loaded key's sha256 names the answer (a newer version replaced the asked one meanwhile).
    expect(await gold.goldDocumentIds({ sha256: "0".repeat(64), load: load2 })).toEqual({ kind: "gold-ids", sha256: v2.sha256, ids: ["a/part 0", "c/part 0"] });
    expect(load2).toHaveBeenCalledTimes(2);
    expect(gold.load).toEqual({ running: 0, waiting: 0, waitingBytes: 0 });
  });

  it("answers none without a gold key and unreadable (not cached, no gold content) for a broken or damaged one", { timeout: 30_000 }, async () => {
    const gold = pool();
    expect(await gold.goldDocumentIds({ sha256: "1".repeat(64), load: async () => null })).toEqual({ kind: "none" });
    const broken = storedGold(["#begin document (d); part 0", "secret\t-", "x\t(7", "y\t-", "#end document", ""].join("\n"));
    const load = vi.fn(async () => broken);
    const answer = await gold.goldDocumentIds({ sha256: broken.sha256, load });
    expect(answer).toEqual({ kind: "unreadable", reason: "the gold key does not parse at line 3, column 3" });
    await gold.goldDocumentIds({ sha256: broken.sha256, load });
    expect(load).toHaveBeenCalledTimes(2);
    const damaged = { ...storedGold(conllKey(["(a)"])), sha256: "f".repeat(64) };
    expect(await gold.goldDocumentIds({ sha256: damaged.sha256, load: async () => damaged })).toEqual({
      kind: "unreadable",
      reason: "the stored gold key is damaged (it does not unpack to its recorded sha256)",
    });
  });

  it("stops a file at the time limit with a clear 422, and serves the next file", { timeout: 60_000 }, async () => {
    const slow = pool({ timeoutMs: 50 });
    // About 2 s of reading on 2 busy cores: far over 50 ms.
    const error = await rejection(validateUpload(encode(hostileConll2012(100_000)), "slow.conll", slow));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual([
      {
        path: "file",
        message: "The file took longer than 0.05 s to read, so reading it was stopped. Please check that it is a coreference file of the expected format, not much larger than the data set.",
      },
    ]);
    // The thread was replaced; a small file fits in the limit.
    expect(await validateUpload(encode(KEY), "k.conll", slow)).toMatchObject({ documents: 1, mentions: 3 });
    expect(slow.load).toEqual({ running: 0, waiting: 0, waitingBytes: 0 });
  });

  it("stops a file at the memory limit with a clear 422, and serves the next file", { timeout: 60_000 }, async () => {
    const small = pool({ maxMemoryMb: 24 });
    // 5 MB of text, 120,000 tokens and 60,000 chains: far over 24 MB of heap.
    const error = await rejection(validateUpload(encode(hostileConll2012(60_000)), "big.conll", small));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(
      "Reading the file needs more than 24 MB of memory, so reading it was stopped. Please check that it is a coreference file of the expected format, not much larger than the data set.",
    );
    expect(await validateUpload(encode(KEY), "k.conll", small)).toMatchObject({ documents: 1, mentions: 3 });
  });

  it("lets `maxQueue` files wait for the threads and refuses one more at once with 503", { timeout: 60_000 }, async () => {
    const busy = pool({ threads: 1, maxQueue: 2 });
    const file = encode(hostileConll2012(5_000, { broken: false }));
    // Admission is decided when validate is called: 1 running, 2 waiting, the 4th refused.
    const accepted = [1, 2, 3].map(() => validateUpload(file, "f.conll", busy));
    expect(busy.load).toEqual({ running: 1, waiting: 2, waitingBytes: 2 * file.byteLength });
    const refused = await rejection(validateUpload(file, "f.conll", busy));
    expect(refused).toBeInstanceOf(ServiceBusyError);
    expect(refused.message).toBe("Too many uploads are being checked right now; please try again in a minute.");
    expect((refused as ServiceBusyError).httpStatus).toBe(503);
    expect((refused as ServiceBusyError).details).toEqual({ retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
    for (const stats of await Promise.all(accepted)) expect(stats).toMatchObject({ documents: 1, mentions: 5_000, entities: 5_000 });
    expect(busy.load).toEqual({ running: 0, waiting: 0, waitingBytes: 0 });
    // Room again.
    expect(await validateUpload(encode(KEY), "k.conll", busy)).toMatchObject({ documents: 1 });
  });

  it("bounds the waiting line by bytes too: small files still get in while big ones would not", { timeout: 60_000 }, async () => {
    const big = encode(hostileConll2012(5_000, { broken: false }));
    const small = encode(KEY);
    const busy = pool({ threads: 1, maxQueue: 100, maxQueuedBytes: big.byteLength + 10 * small.byteLength });
    const accepted = [validateUpload(big, "b1.conll", busy), validateUpload(big, "b2.conll", busy)];
    expect(busy.load).toMatchObject({ running: 1, waiting: 1, waitingBytes: big.byteLength });
    // A second big file would go over the byte bound: refused although the count has room.
    expect(await rejection(validateUpload(big, "b3.conll", busy))).toBeInstanceOf(ServiceBusyError);
    // Ten small ones fit.
    for (let i = 0; i < 10; i++) accepted.push(validateUpload(small, `s${i}.conll`, busy));
    expect(busy.load).toMatchObject({ waiting: 11, waitingBytes: big.byteLength + 10 * small.byteLength });
    expect(await rejection(validateUpload(small, "s10.conll", busy))).toBeInstanceOf(ServiceBusyError);
    expect((await Promise.all(accepted)).map((s) => s.documents)).toEqual(Array(12).fill(1));
    expect(busy.load).toEqual({ running: 0, waiting: 0, waitingBytes: 0 });
  });

  it("keeps the main thread's event loop turning while a 20 MB hostile file is read", { timeout: 120_000 }, async () => {
    const text = hostileConll2012(250_000);
    const bytes = encode(text);
    expect(bytes.byteLength).toBeGreaterThan(19 * 1024 * 1024);
    const lines = text.split("\n").length - 1;
    const gaps: number[] = [];
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 5);
    const started = performance.now();
    let error: Error;
    try {
      error = await rejection(validateUpload(bytes, "hostile.conll", shared));
    } finally {
      clearInterval(ticker);
    }
    const elapsed = performance.now() - started;
    expect((error as ValidationError).formatErrors[0]).toMatchObject({ line: lines - 1, column: 33 });
    gaps.sort((a, b) => a - b);
    const p95 = gaps[Math.floor(gaps.length * 0.95)];
    const max = gaps[gaps.length - 1];
    console.log(`20 MB hostile file refused in ${elapsed.toFixed(0)} ms; event-loop tick gaps (5 ms interval): p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms over ${gaps.length} ticks`);
    // Reading takes seconds; the loop must have turned all along, not only at the end. The
    // bounds leave room for a machine busy with other work (the loop's own work is ~1 ms).
    expect(gaps.length).toBeGreaterThan(elapsed / 5 / 4);
    expect(p95).toBeLessThan(50);
    expect(max).toBeLessThan(Math.max(300, elapsed / 4));
  });
});

describe("upload pool settings and entry", () => {
  it("reads its settings from the environment, with one thread less than the cores by default", () => {
    const env = loadEnv({ UPLOAD_VALIDATION_THREADS: "3", UPLOAD_VALIDATION_QUEUE: "0", UPLOAD_VALIDATION_QUEUE_MB: "5", UPLOAD_VALIDATION_TIMEOUT_MS: "1500", UPLOAD_VALIDATION_MAX_MEMORY_MB: "256" });
    expect(uploadPoolOptions(env)).toEqual({ threads: 3, maxQueue: 0, maxQueuedBytes: 5 * 1024 * 1024, timeoutMs: 1500, maxMemoryMb: 256 });
    const defaults = uploadPoolOptions(loadEnv({}));
    expect(defaults).toMatchObject({ maxQueue: 256, maxQueuedBytes: 200 * 1024 * 1024, timeoutMs: 30_000, maxMemoryMb: 1024 });
    expect(defaults.threads).toBeGreaterThanOrEqual(1);
    expect(() => loadEnv({ UPLOAD_VALIDATION_TIMEOUT_MS: "5" })).toThrow(/UPLOAD_VALIDATION_TIMEOUT_MS: must be at least 100/);
    expect(() => new UploadPool({ threads: 0, maxQueue: 1, maxQueuedBytes: 1, timeoutMs: 1, maxMemoryMb: 1 })).toThrow(RangeError);
  });

  it("finds entry.mjs next to pool.ts", () => {
    expect(uploadPoolEntry()).toMatch(/lib[\\/]upload-pool[\\/]entry\.mjs$/);
  });

  it("the thread's task answers counts and documents, a FormatError's JSON, or ready for a warm-up, and never throws", () => {
    expect(checkUpload(null)).toEqual({ kind: "ready" });
    expect(checkUpload({ kind: "upload", bytes: encode(KEY), fileName: "k.conll" })).toEqual({
      kind: "stats",
      stats: corpusStats(readCorpus(KEY, "k.conll")),
      documents: [{ id: "d1/part 0", line: 1 }],
      corefudCoreference: [],
    });
    // A CorefUD file says which coreference items its MISC column holds (a blind input must hold none).
    const corefud = "# newdoc id = d1\n# sent_id = 1\n# text = Ann\n1\tAnn\tAnn\tPROPN\t_\t_\t0\troot\t_\tEntity=(e1--1)\n\n";
    expect(checkUpload({ kind: "upload", bytes: encode(corefud), fileName: "k.conllu", corefudCoreference: true })).toMatchObject({ kind: "stats", corefudCoreference: ["Entity"] });
    expect(checkUpload({ kind: "upload", bytes: encode(corefud.replace("Entity=(e1--1)", "_")), fileName: "b.conllu", corefudCoreference: true })).toMatchObject({ kind: "stats", corefudCoreference: [] });
    // Not asked (every run and gold upload): no second pass, nothing listed.
    expect(checkUpload({ kind: "upload", bytes: encode(corefud), fileName: "k.conllu" })).toMatchObject({ kind: "stats", corefudCoreference: [] });
    expect(checkUpload({ kind: "upload", bytes: encode(BROKEN), fileName: "r.conll" })).toMatchObject({ kind: "format", problem: { file: "r.conll", line: 3, column: 3 } });
    expect(checkUpload({ kind: "upload", bytes: new Uint8Array([0xff]), fileName: "b.conllu" })).toMatchObject({
      kind: "format",
      problem: { line: 1, column: 1, expected: "UTF-8 text" },
    });
  });

  it("the thread's gold task answers document ids only, and a broken key's place without its content", () => {
    expect(checkUpload({ kind: "gold-ids", ...storedGold(KEY) })).toEqual({ kind: "gold-ids", ids: ["d1/part 0"] });
    const broken = checkUpload({ kind: "gold-ids", ...storedGold(BROKEN) });
    expect(broken).toEqual({ kind: "internal", message: "the gold key does not parse at line 3, column 3" });
    expect(JSON.stringify(broken)).not.toContain("(7");
    const damaged = checkUpload({ kind: "gold-ids", ...storedGold(KEY), sha256: "0".repeat(64) });
    expect(damaged).toEqual({ kind: "internal", message: "the stored gold key is damaged (it does not unpack to its recorded sha256)" });
  });

  it("caches at least one gold key", () => {
    expect(GOLD_IDS_CACHED).toBeGreaterThanOrEqual(1);
  });
});
