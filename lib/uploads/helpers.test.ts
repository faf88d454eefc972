/** Helpers of the services: upload checks (the file read in an upload-pool thread), UTC days, the phase window. */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors";
import { assertPhaseOpen, isPhaseOpen } from "../tasks/phases";
import { nextUtcMidnight, utcDayStart } from "../runs/quota";
import { bytes, BROKEN_FILE, rejection, SMALL_KEY, thrown } from "../tasks/test-fixtures";
import { formatMegabytes } from "../units";
import { assertUploadSize, cleanFileName, validateUpload } from "./checks";

describe("uploads", () => {
  it("states sizes in MB and rejects files over the limit with 413", () => {
    expect(formatMegabytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatMegabytes(1.25 * 1024 * 1024)).toBe("1.3 MB");
    expect(() => assertUploadSize(100, 100)).not.toThrow();
    const error = thrown(() => assertUploadSize(101, 100));
    expect(error.httpStatus).toBe(413);
    expect(error.details).toEqual({ maxBytes: 100, size: 101 });
  });

  it("keeps the last path component of a file name and drops control characters", () => {
    expect(cleanFileName("C:\\Users\\me\\runs/final\u0000.conll")).toBe("final.conll");
    expect(thrown(() => cleanFileName("dir/")).httpStatus).toBe(422);
  });

  it("reads a good file in a pool thread, and reports a bad one or an empty one as 422 with where it went wrong", { timeout: 30_000 }, async () => {
    expect(await validateUpload(bytes(SMALL_KEY), "k.conll")).toEqual({ documents: 2, tokens: 12, mentions: 6, entities: 4, singletons: 2, warnings: 0 });
    const bad = (await rejection(validateUpload(bytes(BROKEN_FILE), "r.conll"))) as ValidationError;
    expect(bad.httpStatus).toBe(422);
    expect(bad.formatErrors[0]).toMatchObject({ file: "r.conll", line: 3, column: 3 });
    expect(bad.message).toContain("r.conll:3:3");
    const empty = (await rejection(validateUpload(bytes(""), "e.conll"))) as ValidationError;
    expect(empty.formatErrors[0]).toMatchObject({ line: 1 });
    const blank = (await rejection(validateUpload(bytes(" \n"), "e.jsonl"))) as ValidationError;
    expect([blank.httpStatus, blank.formatErrors[0].found]).toEqual([422, "a file holding only white space"]);
  });
});

describe("UTC days and phase windows", () => {
  it("a day runs from 00:00 UTC to the next 00:00 UTC", () => {
    const late = new Date("2025-03-01T23:59:59.999Z");
    expect(utcDayStart(late).toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(nextUtcMidnight(late).toISOString()).toBe("2025-03-02T00:00:00.000Z");
    expect(nextUtcMidnight(new Date("2025-03-02T00:00:00.000Z")).toISOString()).toBe("2025-03-03T00:00:00.000Z");
    expect(nextUtcMidnight(new Date("2024-12-31T12:00:00Z")).toISOString()).toBe("2025-01-01T00:00:00.000Z");
  });

  it("a phase is open from opensAt (inclusive) to closesAt (exclusive)", () => {
    const phase = { name: "test", opensAt: new Date("2025-01-01T00:00:00Z"), closesAt: new Date("2025-01-02T00:00:00Z") };
    expect(isPhaseOpen(phase, new Date("2025-01-01T00:00:00Z"))).toBe(true);
    expect(isPhaseOpen(phase, new Date("2025-01-01T23:59:59.999Z"))).toBe(true);
    expect(isPhaseOpen(phase, new Date("2025-01-02T00:00:00Z"))).toBe(false);
    expect(isPhaseOpen(phase, new Date("2024-12-31T23:59:59.999Z"))).toBe(false);
    const error = thrown(() => assertPhaseOpen(phase, new Date("2025-01-02T00:00:00Z")));
    expect(error.httpStatus).toBe(409);
    expect(error.details).toEqual({ opensAt: "2025-01-01T00:00:00.000Z", closesAt: "2025-01-02T00:00:00.000Z" });
  });
});
