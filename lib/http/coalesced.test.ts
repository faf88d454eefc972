import { describe, expect, it } from "vitest";
import { coalesced, runningReads } from "./coalesced";

/** A read that waits until released, counting how often it was started. */
function gatedRead<T>(value: T) {
  let release!: () => void;
  let fail!: (error: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const read = { calls: 0, release: () => release(), fail: (error: Error) => fail(error), run: async () => {
    read.calls++;
    await gate;
    return value;
  } };
  return read;
}

describe("coalesced", () => {
  it("runs one read for the callers of a key while it runs, and gives each its value", async () => {
    const read = gatedRead({ rows: [1, 2, 3] });
    const answers = [coalesced("board a", read.run), coalesced("board a", read.run), coalesced("board a", read.run)];
    expect(runningReads()).toBe(1);
    read.release();
    const values = await Promise.all(answers);
    expect(read.calls).toBe(1);
    expect(values[0]).toEqual({ rows: [1, 2, 3] });
    expect(values[1]).toBe(values[0]);
    expect(values[2]).toBe(values[0]);
  });

  it("forgets a read once it settles: a later caller reads again", async () => {
    const first = gatedRead("version 1");
    const a = coalesced("board b", first.run);
    first.release();
    expect(await a).toBe("version 1");
    expect(runningReads()).toBe(0);
    const second = gatedRead("version 2");
    const b = coalesced("board b", second.run);
    second.release();
    expect(await b).toBe("version 2");
    expect([first.calls, second.calls]).toEqual([1, 1]);
  });

  it("gives every caller of a failed read its error, and keeps nothing of it", async () => {
    const read = gatedRead("never");
    const answers = [coalesced("board c", read.run), coalesced("board c", read.run)];
    read.fail(new Error("phase not found"));
    for (const answer of answers) await expect(answer).rejects.toThrow("phase not found");
    expect(read.calls).toBe(1);
    expect(runningReads()).toBe(0);
    const again = gatedRead("found");
    const c = coalesced("board c", again.run);
    again.release();
    expect(await c).toBe("found");
  });

  it("keeps reads of different keys apart", async () => {
    const a = gatedRead("a");
    const b = gatedRead("b");
    const answers = [coalesced("board d", a.run), coalesced("board e", b.run)];
    expect(runningReads()).toBe(2);
    a.release();
    b.release();
    expect(await Promise.all(answers)).toEqual(["a", "b"]);
    expect([a.calls, b.calls]).toEqual([1, 1]);
  });
});
