import { describe, expect, it } from "vitest";
import { ErrorStage } from "../submission-states";
import { scoreErrorLine, scoreOutcomeLine } from "./job-handlers";

const SUB = "00000000-0000-4000-8000-000000000001";

describe("scoreOutcomeLine", () => {
  it("writes one line per outcome", () => {
    expect(
      scoreOutcomeLine("j1", SUB, { status: "SCORED", submissionId: SUB, attempt: 1, goldVersion: null, scorerVersion: "x", warnings: 2, datasets: { scored: 3, kept: 1, missing: 0 } }, 42),
    ).toBe(`job=j1 submission=${SUB} status=SCORED attempt=1 gold=per-dataset datasets=3 kept=1 missing=0 warnings=2 ms=42`);
    expect(
      scoreOutcomeLine("j1", SUB, { status: "SCORED", submissionId: SUB, attempt: 2, goldVersion: 4, scorerVersion: "x", warnings: 0, datasets: { scored: 1, kept: 0, missing: 0 } }, 5),
    ).toContain("gold=v4 ");
    expect(scoreOutcomeLine("j4", SUB, { status: "FAILED", submissionId: SUB, attempt: 3, errorStage: ErrorStage.validation, errorMessage: "bad" }, 9)).toBe(
      `job=j4 submission=${SUB} status=FAILED attempt=3 stage=${ErrorStage.validation} ms=9`,
    );
    expect(scoreOutcomeLine("j2", SUB, { status: "SKIPPED", submissionId: SUB, reason: "not queued" }, 3)).toBe(`job=j2 submission=${SUB} status=SKIPPED reason="not queued" ms=3`);
    expect(scoreOutcomeLine("j3", SUB, { status: "DEFERRED", submissionId: SUB, reason: "team busy", busyWith: SUB }, 0)).toBe(`job=j3 submission=${SUB} status=DEFERRED reason="team busy" ms=0`);
  });
});

describe("scoreErrorLine", () => {
  it("says INTERRUPTED for an aborted job, else ERROR with the retries left", () => {
    const job = { id: "j1", retryCount: 0, retryLimit: 2 };
    expect(scoreErrorLine(job, SUB, true, 7, new Error("x"))).toBe(`job=j1 submission=${SUB} status=INTERRUPTED ms=7 (worker shutting down; back to the queue)`);
    expect(scoreErrorLine(job, SUB, false, 7, new Error("db down"))).toBe(`job=j1 submission=${SUB} status=ERROR ms=7 (retry 1/2 later): db down`);
    expect(scoreErrorLine({ ...job, retryCount: 2 }, SUB, false, 7, "boom")).toBe(`job=j1 submission=${SUB} status=ERROR ms=7 (no retries left): boom`);
  });
});
