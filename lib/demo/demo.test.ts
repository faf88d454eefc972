/**
 * The demo data loader (every source, checksum verification) and the three baselines. The
 * shipped copy makes these tests independent of shared data and network.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { evaluate, readConll2012 } from "../../scoring/index";
import { writeConll2012 } from "../../scoring/formats/write-conll2012";
import { dataDir } from "../../scoring/test/data-dir";
import { BASELINES, runBaseline } from "./baselines";
import { LITBANK_DEMO_FILES, concatenateKey, litbankUrl, loadLitbankDemo, shippedDemoDir } from "./litbank";

/** A network that must not be used. */
const unreachable = (async (url: string) => {
  throw new Error(`no network in this test (asked for ${url})`);
}) as unknown as typeof fetch;

const data = dataDir();
const shared = data && existsSync(path.join(data, "litbank-demo/conll")) ? path.join(data, "litbank-demo/conll") : null;
const missing = path.join(tmpdir(), "corefboard-no-such-dir");
const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** The uncompressed text of a shipped demo file. */
const shippedText = (name: string) => gunzipSync(readFileSync(path.join(shippedDemoDir(), `${name}.gz`)));

describe("loadLitbankDemo", () => {
  it("reads the copy shipped in the repository (no network, no shared data), in file-name order, and verifies every file", async () => {
    const demo = await loadLitbankDemo({ dataDir: undefined, sharedDir: missing, fetch: unreachable });
    expect(demo.source).toBe("shipped copy");
    expect(demo.files.map((f) => f.name)).toEqual([...LITBANK_DEMO_FILES.map((f) => f.name)].sort());
    const key = readConll2012(concatenateKey(demo.files), "litbank-demo.conll");
    expect(key.documents).toHaveLength(10);
    expect(key.documents.reduce((a, d) => a + d.tokens.length, 0)).toBe(20638);
  });

  it.skipIf(!shared)("reads the shared copy when nothing is shipped, byte-identical to the shipped one", async () => {
    const demo = await loadLitbankDemo({ dataDir: undefined, shippedDir: missing, sharedDir: shared!, fetch: unreachable });
    expect(demo.source).toBe("shared data");
    for (const f of demo.files) expect(f.bytes.equals(shippedText(f.name))).toBe(true);
  });

  it("prefers DEMO_DATA_DIR and rejects a file whose sha256 differs", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "corefboard-demo-"));
    tempDirs.push(dir);
    for (const f of LITBANK_DEMO_FILES) writeFileSync(path.join(dir, f.name), shippedText(f.name));
    expect((await loadLitbankDemo({ dataDir: dir })).source).toBe("DEMO_DATA_DIR");
    writeFileSync(path.join(dir, LITBANK_DEMO_FILES[3].name), "#begin document (x); part 0\n#end document\n");
    await expect(loadLitbankDemo({ dataDir: dir })).rejects.toThrow(
      new RegExp(`${LITBANK_DEMO_FILES[3].name} from DEMO_DATA_DIR .* has sha256 [0-9a-f]{64}, expected ${LITBANK_DEMO_FILES[3].sha256}`),
    );
  });

  it("downloads from the pinned commit when there is no local copy (fake network)", async () => {
    const requested: string[] = [];
    const fakeFetch = (async (url: string) => {
      requested.push(url);
      return new Response(shippedText(url.split("/").pop()!));
    }) as unknown as typeof fetch;
    const local = { dataDir: undefined, shippedDir: missing, sharedDir: missing };
    const demo = await loadLitbankDemo({ ...local, fetch: fakeFetch });
    expect(demo.source).toBe("download");
    expect(requested).toEqual(LITBANK_DEMO_FILES.map((f) => litbankUrl(f.name)));
    expect(requested[0]).toContain("/3e50db0ffc033d7ccbb94f4d88f6b99210328ed8/coref/conll/");
    const failing = (async () => new Response("not found", { status: 404 })) as unknown as typeof fetch;
    await expect(loadLitbankDemo({ ...local, fetch: failing })).rejects.toThrow(/cannot get 1023_bleak_house_brat.conll from download.*HTTP 404/);
  });

  it("the three baselines score through the real reader and give different numbers", async () => {
    const demo = await loadLitbankDemo({ dataDir: undefined });
    const key = readConll2012(concatenateKey(demo.files), "key.conll");
    const f1 = new Map<string, number>();
    for (const baseline of BASELINES) {
      const text = writeConll2012(runBaseline(baseline, key));
      const report = evaluate(key, readConll2012(text, `${baseline.id}.conll`));
      // Gold mentions: mention identification is perfect for every baseline.
      expect(report.metrics.mentions!.f1).toBe(1);
      f1.set(baseline.id, report.metrics.conll!.f1);
      if (baseline.id === "singletons") expect(report.metrics.muc!.recallNum).toBe(0);
      else expect(report.metrics.muc!.recallNum).toBeGreaterThan(0);
    }
    expect(new Set(f1.values()).size).toBe(3);
    expect(f1.get("exact-match")!).toBeGreaterThan(f1.get("singletons")!);
  });
});
