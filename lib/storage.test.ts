/** File storage: gzip round trips, sync and async, and the checksum check. */
import { describe, expect, it } from "vitest";
import { packFile, packFileAsync, sha256Hex, unpackFile, unpackFileAsync } from "./storage";

const text = new TextEncoder().encode("#begin document (d); part 0\nJohn\t(1)\n#end document\n".repeat(50));

describe("storage", () => {
  it("packs and unpacks the same bytes, on the event loop or in the thread pool", async () => {
    const stored = packFile(text);
    expect(stored.sha256).toBe(sha256Hex(text));
    expect(stored.size).toBe(text.byteLength);
    expect(stored.gzip.byteLength).toBeLessThan(text.byteLength);
    expect(new Uint8Array(unpackFile(stored.gzip, stored.sha256))).toEqual(text);
    expect(new Uint8Array(await unpackFileAsync(stored.gzip, stored.sha256))).toEqual(text);
    const async = await packFileAsync(text);
    expect(async.sha256).toBe(stored.sha256);
    expect(new Uint8Array(await unpackFileAsync(async.gzip))).toEqual(text);
  });

  it("refuses bytes whose sha256 is not the recorded one, and corrupt gzip data", async () => {
    const stored = packFile(text);
    const other = sha256Hex("something else");
    expect(() => unpackFile(stored.gzip, other)).toThrow(/sha256 does not match/);
    await expect(unpackFileAsync(stored.gzip, other)).rejects.toThrow(/sha256 does not match/);
    const corrupt = stored.gzip.slice(0, stored.gzip.byteLength - 8);
    expect(() => unpackFile(corrupt)).toThrow();
    await expect(unpackFileAsync(corrupt)).rejects.toThrow();
  });
});
