/**
 * Test data shared by the end-to-end tests and the route handler tests (app/api/v1): phase
 * settings and small CoNLL-2012 files. Plain values, no Playwright or Vitest import, so that
 * both runners load it.
 */

/** Settings of one phase (see `phaseInputSchema`); times as Dates or ISO strings. */
export interface TestPhaseInput {
  name: string;
  opensAt: Date | string;
  closesAt: Date | string;
  displayTimeZone?: string;
  dailyLimit?: number | null;
  totalLimit?: number | null;
  leaderboardVisibility?: "PUBLIC" | "PARTICIPANTS" | "ORGANIZERS";
  selectionRule?: "BEST" | "LATEST";
  /** who besides the organizers sees the error analysis (default NONE) */
  participantAnalysis?: "NONE" | "TEAMS" | "PUBLIC";
  /** on an ORGANIZERS-only board: teams see their runs' per-document scores (default false) */
  teamDocumentScores?: boolean;
  /** document names not matching the gold's: "warn" (default; the submitter confirms) or "error" */
  documentCheck?: "warn" | "error";
}

const DAY = 24 * 3600 * 1000;

/** A phase open from yesterday until 30 days from now (PUBLIC leaderboard, no limits). */
export function openPhase(name = "test", extra: Partial<TestPhaseInput> = {}): TestPhaseInput {
  return { name, opensAt: new Date(Date.now() - DAY), closesAt: new Date(Date.now() + 30 * DAY), ...extra };
}

/** A phase that closed yesterday (it opened 10 days ago). */
export function closedPhase(name = "closed", extra: Partial<TestPhaseInput> = {}): TestPhaseInput {
  return { name, opensAt: new Date(Date.now() - 10 * DAY), closesAt: new Date(Date.now() - DAY), ...extra };
}

/**
 * A CoNLL-2012 file from documents given as `[name, rows]`: each row is `WORD<TAB>CELL`
 * (the coreference column, e.g. "(1)", "(2", "2)", "-"), or "" for a sentence break.
 */
export function conll(...docs: [name: string, rows: string[]][]): string {
  return docs.map(([name, rows]) => [`#begin document (${name}); part 0`, ...rows, "#end document"].join("\n")).join("\n") + "\n";
}

/** A small gold key: two documents with several chains and singletons. */
export const SMALL_KEY = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(2)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(3)", ".\t-"]],
  ["beta", ["The\t(4", "cat\t4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);

/** A response for {@link SMALL_KEY} that gets some things right and some wrong. */
export const SMALL_RESPONSE = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(1)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t-", ".\t-"]],
  ["beta", ["The\t-", "cat\t(4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);
