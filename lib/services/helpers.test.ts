/** Pure helpers of the services: upload checks, UTC days, the phase window. */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors";
import { assertPhaseOpen, isPhaseOpen } from "./phases";
import { nextUtcMidnight, utcDayStart } from "./quota";
import { bytes, BROKEN_FILE, SMALL_KEY, thrown } from "./test-fixtures";
import { corpusStats } from "./gold";
import { assertUploadSize, cleanFileName, formatMegabytes, parseUpload } from "./uploads";

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

  it("parses a good file, and reports a bad one or an empty one as 422 with where it went wrong", () => {
    expect(corpusStats(parseUpload(bytes(SMALL_KEY), "k.conll"))).toEqual({ documents: 2, tokens: 12, mentions: 6, entities: 4, singletons: 2, warnings: 0 });
    const bad = thrown(() => parseUpload(bytes(BROKEN_FILE), "r.conll")) as ValidationError;
    expect(bad.formatErrors[0]).toMatchObject({ file: "r.conll", line: 3, column: 3 });
    expect(bad.message).toContain("r.conll:3:3");
    const empty = thrown(() => parseUpload(bytes(""), "e.conll")) as ValidationError;
    expect(empty.formatErrors[0]).toMatchObject({ line: 1 });
    const noDocs = thrown(() => parseUpload(bytes(""), "e.jsonl"));
    expect(noDocs.httpStatus).toBe(422);
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
