/**
 * `GET /downloads/corefboard-<version>.mjs` (issue 24 §3 B): the served bytes' sha256 is the
 * header's, the name carries the version, other names are 404, and the file runs on its own.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SMALL_KEY } from "@/lib/tasks/test-fixtures";
import { SCORER_VERSION } from "@/lib/scorer/version";
import { sha256Hex } from "@/lib/storage";
import { GET } from "./route";

const get = (file: string) => GET(new Request(`http://localhost:3000/downloads/${file}`), { params: Promise.resolve({ file }) });

describe("GET /downloads/:file", () => {
  it("serves the scorer under its versioned name with the sha256 of the bytes sent", async () => {
    const name = `corefboard-${SCORER_VERSION}.mjs`;
    const response = await get(name);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("X-Content-SHA256")).toBe(sha256Hex(bytes));
    expect(response.headers.get("Content-Disposition")).toContain(`filename="${name}"`);
    // Hashed once: a second answer has the same digest.
    expect((await get(name)).headers.get("X-Content-SHA256")).toBe(sha256Hex(bytes));

    // The file runs alone and scores a key against itself: CoNLL F1 100.
    const dir = mkdtempSync(path.join(tmpdir(), "scorer-"));
    writeFileSync(path.join(dir, name), bytes);
    writeFileSync(path.join(dir, "key.conll"), SMALL_KEY);
    const out = execFileSync(process.execPath, [path.join(dir, name), "score", path.join(dir, "key.conll"), path.join(dir, "key.conll"), "--format", "json"], { encoding: "utf8" });
    expect(JSON.parse(out).metrics.conll.f1).toBeCloseTo(1, 9);
  });

  it("answers 404 for another name or version", async () => {
    expect((await get("corefboard-0.0.0-other.mjs")).status).toBe(404);
    expect((await get("evil.js")).status).toBe(404);
  });
});
