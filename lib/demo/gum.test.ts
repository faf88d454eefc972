/**
 * The GUM demo data (shipped copy, sha256 verification, the other sources), the CorefUD
 * writer's round trip on all 12 documents, and the three GUM baselines scored with the crac
 * preset. The shipped copy makes these tests independent of shared data and network.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { CRAC_PRESET, evaluate, presetOptions } from "../../scoring/index";
import { readCorefUD } from "../../scoring/formats/conllu";
import { writeCorefUD } from "../../scoring/formats/write-conllu";
import { sha256Hex } from "../storage";
import type { Corpus } from "../../scoring/types";
import { GUM_DEMO_FILES, GUM_GENRES, gumDemoDatasets, gumDemoKey, gumUrl, loadGumDemo, sharedGumDir, shippedGumDir } from "./gum";
import { GUM_BASELINES, gumMentions, runGumBaseline } from "./gum-baselines";

const unreachable = (async (url: string) => {
  throw new Error(`no network in this test (asked for ${url})`);
}) as unknown as typeof fetch;
const missing = path.join(tmpdir(), "corefboard-no-such-dir");
const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
const shippedText = (name: string) => gunzipSync(readFileSync(path.join(shippedGumDir(), `${name}.gz`)));

/** A corpus's CorefUD view, order-free within each document: entities as sorted "nodes|head" lists. */
const view = (corpus: Corpus) =>
  corpus.documents.map((d) => ({
    id: d.id,
    sentences: d.corefud!.sentences,
    entities: d.corefud!.entities.map((e) => e.map((m) => `${m.nodes.join(",")}|${m.head}`).sort()).sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1)),
  }));

describe("the shipped GUM demo files", () => {
  it("are the 12 test documents, 2 per genre, each verified by sha256, one document per file, small", async () => {
    const demo = await loadGumDemo({ sharedDir: missing, fetch: unreachable });
    expect(demo.source).toBe("shipped copy");
    expect(demo.files).toHaveLength(12);
    expect(GUM_GENRES.map((g) => g.documents.length)).toEqual([2, 2, 2, 2, 2, 2]);
    let compressed = 0;
    for (const f of demo.files) {
      expect(sha256Hex(f.bytes)).toBe(f.sha256);
      expect(f.name).toBe(`${f.document}.conllu`);
      expect(f.document.startsWith(`GUM_${f.genre}_`)).toBe(true);
      const docs = readCorefUD(f.bytes, f.name).documents;
      expect(docs.map((d) => d.id)).toEqual([f.document]);
      compressed += readFileSync(path.join(shippedGumDir(), `${f.name}.gz`)).byteLength;
    }
    expect(compressed).toBeLessThan(400_000);
    // The licence and attribution ship with the data.
    expect(readFileSync(path.join(shippedGumDir(), "UPSTREAM_LICENSE.txt"), "utf8")).toContain("Zeldes, Amir (2017)");
    const readme = readFileSync(path.join(shippedGumDir(), "README.md"), "utf8");
    for (const needle of ["72ce5ac14978a324c2fd18d49484e65292cbe316", "CC BY-SA 3.0", "ShareAlike", "Zeldes"]) expect(readme).toContain(needle);
  });

  it("make a 12-document gold key in genre order with the counts the task description gives", async () => {
    const key = readCorefUD(gumDemoKey((await loadGumDemo()).files), "gum-demo-test.conllu");
    expect(key.documents.map((d) => d.id)).toEqual(GUM_DEMO_FILES.map((f) => f.document));
    const entities = key.documents.flatMap((d) => d.corefud!.entities);
    expect(key.documents.reduce((a, d) => a + d.tokens.length, 0)).toBe(10972);
    expect(entities.reduce((a, e) => a + e.length, 0)).toBe(3142);
    expect(entities).toHaveLength(1809);
    expect(entities.filter((e) => e.length === 1)).toHaveLength(1370);
  });

  it("split into six genre datasets of two documents each, named as CRAC names datasets", async () => {
    const datasets = gumDemoDatasets((await loadGumDemo()).files);
    expect(datasets.map((d) => [d.name, d.fileName, d.language])).toEqual(
      GUM_GENRES.map((g) => [`en_gum_${g.genre}`, `en_gum_${g.genre}-corefud-test.conllu`, "en"]),
    );
    for (const [i, d] of datasets.entries()) {
      expect(readCorefUD(d.key, d.fileName).documents.map((doc) => doc.id)).toEqual(GUM_GENRES[i].documents);
    }
  });

  it("reject a file whose sha256 differs, naming it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "corefboard-gum-"));
    tempDirs.push(dir);
    for (const f of GUM_DEMO_FILES) writeFileSync(path.join(dir, f.name), shippedText(f.name));
    const demo = await loadGumDemo({ shippedDir: missing, sharedDir: dir, fetch: unreachable });
    expect(demo.source).toBe("shared data");
    const bad = GUM_DEMO_FILES[5];
    writeFileSync(path.join(dir, bad.name), shippedText(bad.name).subarray(1));
    await expect(loadGumDemo({ shippedDir: missing, sharedDir: dir, fetch: unreachable })).rejects.toThrow(
      new RegExp(`${bad.name} from shared data .* has sha256 [0-9a-f]{64}, expected ${bad.sha256}`),
    );
  });

  it.skipIf(!existsSync(sharedGumDir()))("are byte-identical to the shared copy of the GUM repository", async () => {
    const shared = await loadGumDemo({ shippedDir: missing, fetch: unreachable });
    expect(shared.source).toBe("shared data");
    for (const f of shared.files) expect(f.bytes.equals(shippedText(f.name))).toBe(true);
  });

  it("are downloaded from the pinned commit when there is no local copy (fake network)", async () => {
    const requested: string[] = [];
    const fakeFetch = (async (url: string) => {
      requested.push(url);
      return new Response(shippedText(url.split("/").pop()!));
    }) as unknown as typeof fetch;
    const demo = await loadGumDemo({ shippedDir: missing, sharedDir: missing, fetch: fakeFetch });
    expect(demo.source).toBe("download");
    expect(requested).toEqual(GUM_DEMO_FILES.map((f) => gumUrl(f.name)));
    expect(requested[0]).toBe("https://raw.githubusercontent.com/amir-zeldes/gum/72ce5ac14978a324c2fd18d49484e65292cbe316/dep/GUM_academic_discrimination.conllu");
    const failing = (async () => new Response("not found", { status: 404 })) as unknown as typeof fetch;
    await expect(loadGumDemo({ shippedDir: missing, sharedDir: missing, fetch: failing })).rejects.toThrow(
      /cannot get GUM_academic_discrimination.conllu from download.*HTTP 404/,
    );
  });
});

describe("writeCorefUD on the GUM demo documents", () => {
  it("writes each document's own entities so that they read back the same and score 100 % with the crac preset", async () => {
    for (const f of (await loadGumDemo()).files) {
      const key = readCorefUD(f.bytes, f.name);
      const text = writeCorefUD(f.bytes, new Map(key.documents.map((d) => [d.id, d.corefud!.entities])), { file: f.name });
      const back = readCorefUD(text, `response-${f.name}`);
      expect(view(back), f.document).toEqual(view(key));
      for (const options of [presetOptions(CRAC_PRESET), presetOptions(CRAC_PRESET, { removeSingletons: false, match: "exact" })]) {
        const report = evaluate(key, back, options);
        for (const metric of ["muc", "bcub", "ceafe", "conll"] as const) expect(report.metrics[metric]!.f1, `${f.document} ${metric}`).toBe(1);
      }
    }
  });
});

describe("the GUM baselines", () => {
  it("cover every key document with the key's words and gold mentions, and score differently with the crac preset", async () => {
    const keyBytes = gumDemoKey((await loadGumDemo()).files);
    const key = readCorefUD(keyBytes, "gum-demo-test.conllu");
    const mentions = gumMentions(keyBytes, "gum-demo-test.conllu");
    // The syntactic head of "Antonín Dvořák" (flat under "Antonín") is its first word.
    expect(mentions.get("GUM_bio_dvorak")![0].headForm).toBe("antonín");
    const f1 = new Map<string, number>();
    for (const baseline of GUM_BASELINES) {
      const response = readCorefUD(runGumBaseline(baseline, keyBytes, mentions), `${baseline.id}.conllu`);
      expect(response.documents.map((d) => d.id)).toEqual(key.documents.map((d) => d.id));
      expect(response.documents.map((d) => d.corefud!.sentences)).toEqual(key.documents.map((d) => d.corefud!.sentences));
      const withSingletons = evaluate(key, response, presetOptions(CRAC_PRESET, { removeSingletons: false, metrics: ["mentions", "muc", "bcub", "ceafe"] }));
      // Gold mentions with the key's heads: mention identification is perfect.
      expect(withSingletons.metrics.mentions!.f1).toBe(1);
      const report = evaluate(key, response, presetOptions(CRAC_PRESET));
      expect(report.warnings).toEqual([]);
      f1.set(baseline.id, report.metrics.conll!.f1);
    }
    expect(f1.get("singletons")).toBe(0);
    expect(f1.get("same-head")!).toBeGreaterThan(0.3);
    expect(f1.get("head-and-pronoun")!).toBeGreaterThan(0.3);
    expect(new Set(f1.values()).size).toBe(3);
  });
});
