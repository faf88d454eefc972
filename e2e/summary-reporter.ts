/**
 * Prints one closing line `N passed, N failed` (and skipped, if any), which CI's log reader
 * understands (it does not read Playwright's own summary).
 */
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Counts final test outcomes (after retries) and prints the summary line. */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, "passed" | "failed" | "skipped">();

  onTestEnd(test: TestCase, result: TestResult): void {
    const outcome = test.outcome();
    this.outcomes.set(test.id, outcome === "expected" || outcome === "flaky" ? "passed" : outcome === "skipped" ? "skipped" : "failed");
    void result;
  }

  onEnd(result: FullResult): void {
    const count = (o: string) => [...this.outcomes.values()].filter((v) => v === o).length;
    let failed = count("failed");
    // A run that failed outside any test (e.g. the web server did not start) still fails.
    if (result.status !== "passed" && failed === 0) failed = 1;
    const skipped = count("skipped");
    console.log(`\n${count("passed")} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
