// What `npm test` (scripts/test-all.mjs) reads from the test runners' own reports: each test's
// and each file's duration, for the slowest-tests lists, and each failed test with the start of
// its message, listed again at the end of the run so that a log cut to its last lines (CI shows
// only those) still names what failed and why.

/**
 * @typedef {{ kind: "test" | "file", name: string, ms: number }} Duration
 * @typedef {{ name: string, message: string }} Failure
 * @typedef {{ durations: Duration[], failures: Failure[] }} ReportSummary
 */

/** Lines of a failure message kept in the closing list. */
const MESSAGE_LINES = 8;

/**
 * A failure message for the closing list: terminal colours removed, cut to its first 8 lines
 * ("…" after a cut). A missing message gives "(no message)".
 * @param {unknown} text
 * @returns {string}
 */
export function shortMessage(text) {
  if (text === undefined || text === null || text === "") return "(no message)";
  const lines = String(text)
    .replace(/\x1b\[[0-9;]*m/g, "")
    .trimEnd()
    .split("\n");
  return lines.slice(0, MESSAGE_LINES).join("\n") + (lines.length > MESSAGE_LINES ? "\n…" : "");
}

/**
 * Reads Vitest's JSON report (the Jest-compatible `--reporter=json`): every test and file with
 * its duration, every failed test, and every failed file with no failed test (one that failed to
 * load, or whose beforeAll/afterAll hook failed) with the file's message.
 * @param {{ testResults: Array<{ name: string, status: string, message?: string, startTime?: number, endTime?: number, assertionResults: Array<{ fullName: string, status: string, duration?: number, failureMessages?: string[] }> }> }} json
 * @param {string} cwd the directory file names are shown relative to
 * @returns {ReportSummary}
 */
export function readVitestReport(json, cwd) {
  const durations = [];
  const failures = [];
  for (const file of json.testResults) {
    const name = `vitest ${file.name.replace(`${cwd}/`, "")}`;
    if (file.endTime && file.startTime) durations.push({ kind: "file", name, ms: file.endTime - file.startTime });
    for (const t of file.assertionResults) {
      if (t.duration) durations.push({ kind: "test", name: `${name} > ${t.fullName}`, ms: t.duration });
      if (t.status === "failed") failures.push({ name: `${name} > ${t.fullName}`, message: shortMessage(t.failureMessages?.[0]) });
    }
    if (file.status === "failed" && !file.assertionResults.some((t) => t.status === "failed")) failures.push({ name, message: shortMessage(file.message) });
  }
  return { durations, failures };
}

/**
 * Reads Playwright's JSON report (suites nest; a test's time is the sum of its attempts):
 * every test with its duration, each spec file's summed test time, and every test whose status
 * is "unexpected" with its last attempt's error.
 * @param {{ suites?: unknown[] }} json
 * @returns {ReportSummary}
 */
export function readPlaywrightReport(json) {
  const durations = [];
  const failures = [];
  const perFile = new Map();
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        const name = `playwright ${spec.file} > ${[...path, spec.title].join(" > ")}`;
        durations.push({ kind: "test", name, ms });
        perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + ms);
        if (test.status === "unexpected") {
          const last = (test.results ?? []).at(-1);
          failures.push({ name: `playwright ${spec.file}:${spec.line} > ${[...path, spec.title].join(" > ")}`, message: shortMessage(last?.error?.message ?? last?.errors?.[0]?.message) });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith(".ts") ? [...path, child.title] : path);
  };
  for (const suite of json.suites ?? []) walk(suite, []);
  for (const [file, ms] of perFile) durations.push({ kind: "file", name: `playwright ${file} (tests' time)`, ms });
  return { durations, failures };
}

/**
 * Reads node's TAP report: "ok N - name" or "not ok N - name", then in its YAML block
 * "duration_ms: X" (a file's block is indented 2 spaces, a test's more) and, for a failure,
 * "error: |-" with the message's lines below it. A suite's block says "type: 'suite'": its
 * duration and failure (it fails when a test in it does) are left out.
 * @param {string} text
 * @returns {ReportSummary}
 */
export function readTap(text) {
  const durations = [];
  const failures = [];
  /** The test whose YAML block is being read. */
  let current = null;
  for (const line of text.split("\n")) {
    const test = /^(\s*)(not )?ok \d+ - (.*)$/.exec(line);
    if (test) {
      current = { name: `resilience ${test[3]}`, duration: null, failure: null, errorIndent: null, errorLines: [] };
      if (test[2]) {
        current.failure = { name: current.name, message: "(no message)" };
        failures.push(current.failure);
      }
      continue;
    }
    if (!current) continue;
    if (current.errorIndent !== null) {
      const indent = /^(\s*)/.exec(line)[1].length;
      if (indent > current.errorIndent && line.trim() !== "") {
        current.errorLines.push(line.trim());
        if (current.failure) current.failure.message = shortMessage(current.errorLines.join("\n"));
        continue;
      }
      current.errorIndent = null;
    }
    const d = /^(\s*)duration_ms: ([\d.]+)/.exec(line);
    if (d) {
      current.duration = { kind: d[1].length > 2 ? "test" : "file", name: current.name, ms: Number(d[2]) };
      durations.push(current.duration);
    }
    const error = /^(\s*)error: (.*)$/.exec(line);
    if (error) {
      if (/^[|>]-?$/.test(error[2].trim())) current.errorIndent = error[1].length;
      else current.errorLines.push(error[2].replace(/^'(.*)'$/, "$1"));
      if (current.failure) current.failure.message = shortMessage(current.errorLines.join("\n"));
    }
    if (/^\s*type: 'suite'/.test(line)) {
      if (current.duration) durations.splice(durations.indexOf(current.duration), 1);
      if (current.failure) failures.splice(failures.indexOf(current.failure), 1);
      current.duration = null;
      current.failure = null;
    }
    if (/^\s*\.\.\.$/.test(line)) current = null;
  }
  return { durations, failures };
}
