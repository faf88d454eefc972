/**
 * The report readers of `npm test` (scripts/test-reports.mjs), on reports shaped as Vitest 4,
 * Playwright and node's test runner write them (each shape taken from a real report).
 */
import { describe, expect, it } from "vitest";
import { readPlaywrightReport, readTap, readVitestReport, shortMessage } from "./test-reports.mjs";

describe("shortMessage", () => {
  it("drops terminal colours and keeps the first 8 lines, marking a cut", () => {
    const text = ["\x1b[31mExpected\x1b[39m: 2", ...Array.from({ length: 10 }, (_, i) => `line ${i}`)].join("\n");
    expect(shortMessage(text).split("\n")).toEqual(["Expected: 2", "line 0", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "…"]);
    expect(shortMessage("one line\n")).toBe("one line");
    expect(shortMessage(undefined)).toBe("(no message)");
  });
});

describe("readVitestReport", () => {
  const report = {
    testResults: [
      { name: "/repo/lib/a.test.ts", status: "failed", message: "", startTime: 1000, endTime: 1500, assertionResults: [
        { fullName: "a passes", status: "passed", duration: 2, failureMessages: [] },
        { fullName: "a fails", status: "failed", duration: 7, failureMessages: ["AssertionError: expected 1 to be 2 // Object.is equality\n    at /repo/lib/a.test.ts:3:31"] },
      ] },
      { name: "/repo/lib/b.test.ts", status: "failed", message: "No test suite found in file /repo/lib/b.test.ts", startTime: 2000, endTime: 2000, assertionResults: [] },
      { name: "/repo/lib/c.test.ts", status: "passed", message: "", startTime: 3000, endTime: 3100, assertionResults: [{ fullName: "c", status: "passed", duration: 100 }] },
    ],
  };
  const { durations, failures } = readVitestReport(report, "/repo");

  it("lists each failed test, and a failed file without a failed test, with its message", () => {
    expect(failures).toEqual([
      { name: "vitest lib/a.test.ts > a fails", message: "AssertionError: expected 1 to be 2 // Object.is equality\n    at /repo/lib/a.test.ts:3:31" },
      { name: "vitest lib/b.test.ts", message: "No test suite found in file /repo/lib/b.test.ts" },
    ]);
  });

  it("gives each file's and each timed test's duration, names relative to the directory", () => {
    expect(durations).toContainEqual({ kind: "file", name: "vitest lib/a.test.ts", ms: 500 });
    expect(durations).toContainEqual({ kind: "test", name: "vitest lib/a.test.ts > a fails", ms: 7 });
    expect(durations).toContainEqual({ kind: "test", name: "vitest lib/c.test.ts > c", ms: 100 });
  });
});

describe("readPlaywrightReport", () => {
  const test = (status: string, durations: number[], error?: string) => ({
    status,
    results: durations.map((duration, i) => ({ duration, status: "passed", errors: [], ...(error && i === durations.length - 1 ? { error: { message: error } } : {}) })),
  });
  const report = {
    suites: [
      {
        title: "headers.spec.ts",
        file: "headers.spec.ts",
        specs: [],
        suites: [
          {
            title: "security headers",
            file: "headers.spec.ts",
            specs: [
              { title: "carries the headers", file: "headers.spec.ts", line: 140, tests: [test("expected", [400])] },
              { title: "hydrates", file: "headers.spec.ts", line: 189, tests: [test("unexpected", [90_000], "Test timeout of 90000ms exceeded.")] },
            ],
          },
        ],
      },
      { title: "a11y.spec.ts", file: "a11y.spec.ts", specs: [{ title: "skip link", file: "a11y.spec.ts", line: 97, tests: [test("flaky", [1000, 2000])] }] },
    ],
  };
  const { durations, failures } = readPlaywrightReport(report);

  it("lists each unexpected test with its file, line, describe titles and last error", () => {
    expect(failures).toEqual([{ name: "playwright headers.spec.ts:189 > security headers > hydrates", message: "Test timeout of 90000ms exceeded." }]);
  });

  it("sums a test's attempts, and a spec file's tests", () => {
    expect(durations).toContainEqual({ kind: "test", name: "playwright a11y.spec.ts > skip link", ms: 3000 });
    expect(durations).toContainEqual({ kind: "test", name: "playwright headers.spec.ts > security headers > carries the headers", ms: 400 });
    expect(durations).toContainEqual({ kind: "file", name: "playwright headers.spec.ts (tests' time)", ms: 90_400 });
  });
});

describe("readTap", () => {
  // node --test --test-reporter=tap, on a suite with a passing and a failing test, then a
  // failing test outside it (stack lines shortened).
  const tap = `TAP version 13
# Subtest: a suite
    # Subtest: passes
    ok 1 - passes
      ---
      duration_ms: 0.84167
      ...
    # Subtest: fails here
    not ok 2 - fails here
      ---
      duration_ms: 0.807547
      location: '/tmp/t.test.mjs:5:3'
      failureType: 'testCodeFailure'
      error: |-
        one is not two
        second line
      code: 'ERR_ASSERTION'
      stack: |-
        TestContext.<anonymous> (file:///tmp/t.test.mjs:5:35)
      ...
    1..2
not ok 1 - a suite
  ---
  duration_ms: 3.293276
  type: 'suite'
  location: '/tmp/t.test.mjs:3:1'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: top fails
not ok 2 - top fails
  ---
  duration_ms: 0.176078
  location: '/tmp/t.test.mjs:7:1'
  failureType: 'testCodeFailure'
  error: 'boom'
  code: 'ERR_TEST_FAILURE'
  ...
1..2
# pass 1
# fail 2
`;
  const { durations, failures } = readTap(tap);

  it("lists each failed test with its error, and not the suite around them", () => {
    expect(failures).toEqual([
      { name: "resilience fails here", message: "one is not two\nsecond line" },
      { name: "resilience top fails", message: "boom" },
    ]);
  });

  it("gives each test's duration (nested: a test; at the top: a file) and no suite's", () => {
    expect(durations).toEqual([
      { kind: "test", name: "resilience passes", ms: 0.84167 },
      { kind: "test", name: "resilience fails here", ms: 0.807547 },
      { kind: "file", name: "resilience top fails", ms: 0.176078 },
    ]);
  });
});
