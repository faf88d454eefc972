/**
 * The shapes of a board, shared by everything built from one: `getLeaderboard`'s
 * {@link Leaderboard} and its rows, policy, evaluation, datasets, tracks and paging
 * (`leaderboard.ts`), and the significance facts `boardSignificance` computes for its rows
 * (`significance.ts`). Types only: both modules import them from here, so neither imports the
 * other's types.
 */
import type { SelectionRule } from "../db";
import type { EvaluationProfileName, TrackView } from "../tasks";
import type { LeaderboardMetric } from "../validations/metrics";
import type { LeaderboardTiming } from "../validations/task";
import type { RunSelection } from "./ranking";
import type { BoardMetricsJson } from "./scores";

/** A dataset of a board's phase. */
export interface BoardDataset {
  id: string;
  /** e.g. `en_gum` */
  name: string;
  /** e.g. `en`; "" when not given */
  language: string;
  /** it has an active gold key, so it counts in the macro-average (else runs are not scored on it yet) */
  scored: boolean;
}

/** A run on one dataset, as a row of the macro-averaged board shows it. */
export interface RowDataset {
  /** the run has no file for the dataset: it counts 0 (`conllF1` 0 when the dataset is scored) */
  missing: boolean;
  /** the dataset's gold key version the run's scores on it come from; null when not scored on it */
  goldVersion: number | null;
  /**
   * the run's CoNLL F1 on the dataset in the board's setting (the primary one, or
   * `Leaderboard.variant`), a fraction; null when it has none in that setting
   */
  conllF1: number | null;
}

/** One row of a leaderboard. */
export interface LeaderboardRow {
  /** competition rank; null for baselines and runs lacking the metric */
  rank: number | null;
  /** the ranking metric's F1 in the ranked setting (the primary one, or `Leaderboard.variant`) */
  value: number | null;
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
  submittedAt: Date;
  isBaseline: boolean;
  /** the run's track (null for a baseline without one, and in a phase without tracks) */
  track: { id: string; name: string } | null;
  paperUrl: string | null;
  codeUrl: string | null;
  /** the gold version of a one-dataset phase; on a dataset's board, that dataset's; null on a macro-averaged board */
  goldVersion: number | null;
  scorerVersion: string | null;
  /**
   * every stored metric of the primary setting, whatever the board is ranked by: fractions and
   * exact counts (the CLI JSON shape); on a phase with several datasets the macro-average
   * (counts null), on a dataset's board that dataset's scores. (The JSON's and the CSV's
   * metrics are those of the board's setting instead: {@link settingScores}.)
   */
  scores: BoardMetricsJson;
  /**
   * Each secondary variant's stored metrics, by variant id, same shape as `scores`; a variant
   * the run has no Score rows for is absent (e.g. a run scored before the task had it).
   */
  variants: Record<string, BoardMetricsJson>;
  /** on a dataset's board: the run left that dataset out (no scores, value 0); else false */
  missing: boolean;
  /** on the macro-averaged board of a phase with several datasets: each dataset, by name; else `{}` */
  datasets: Record<string, RowDataset>;
  /**
   * the organizers' public disqualification (reason and time): the row is unranked and shown
   * struck through; null (every row of `getLeaderboard` has the field) or absent: not disqualified
   */
  disqualified?: { reason: string; at: Date } | null;
  /**
   * TEAM_SELECTED, one run per team: `final` (the best of the runs the team marked as final)
   * or `latest-fallback` (the team marked none: its latest run counts); null otherwise (every
   * row of `getLeaderboard` has the field)
   */
  selection?: RunSelection;
  /** a run of the viewer's own team (never a baseline; false on a final board) */
  own?: boolean;
  /** organizers only (not on a final board): an organizer hid the run; it is unranked and on no one else's board */
  hidden?: boolean;
  /** organizers only (not on a final board): the run was made at or after the phase's freeze; no one else sees it on a board */
  afterFreeze?: boolean;
}

/** The phase's leaderboard policy, and what it does to this board for this viewer. */
export interface BoardPolicy {
  /** the phase's timing: "live", "after_close" or "frozen" */
  timing: LeaderboardTiming;
  /** when the phase closes (an "after_close" board opens then) */
  closesAt: Date;
  /** a frozen phase's freeze, else null */
  frozenAt: Date | null;
  /** TEAM_SELECTED: how many runs a team may mark as final */
  finalRunLimit: number;
  /** the board shows only the viewer's own team's runs and the baselines, unranked (after_close, before the close, non-organizers) */
  ownTeamOnly: boolean;
  /** runs made at or after `frozenAt` are left out of this board (frozen, non-organizers) */
  freezeApplied: boolean;
  /** the viewer organizes the task (not a final board): hidden and after-freeze runs are listed, marked */
  organizerView: boolean;
  /** the final board (`getLeaderboard`'s `final` option) */
  final: boolean;
}

/** The task's evaluation profile as a board shows it. */
export interface BoardEvaluation {
  /** the profile name, e.g. `crac` */
  profile: EvaluationProfileName;
  /** for people, e.g. "CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros)" */
  label: string;
  /** the secondary variants in the profile's order (empty for `conll2012` and custom profiles) */
  variants: { id: string; label: string }[];
}

/**
 * Whether the gold has zeros (empty nodes) that the zero score counts (issue 24 §1): where it has
 * none, the `zero` metric is 0 of 0, meaningless, and pages show "n/a" instead of its column.
 * Read from the stored scores of the runs scored against the active gold keys (`goldZerosByDataset`
 * in `scores.ts`: the zero score's recall denominator, the key's zero anaphors), so it is the
 * same for every page, setting and ranking of the phase's boards.
 */
export interface BoardZeros {
  /**
   * this board's gold: on a dataset's board that dataset's, else the phase's datasets with an
   * active gold key together: true when one of them has zeros; false when each is known to
   * have none; null when it is not known (no run scored against a key yet, the zero score not
   * computed: gold that is not CorefUD CoNLL-U or a profile without it, or a viewer who sees no
   * run of a board hidden until the close)
   */
  inGold: boolean | null;
  /** each dataset of the phase by name (one on a phase with one dataset): true, false or null as `inGold`, for that dataset's active key */
  datasets: Record<string, boolean | null>;
}

/** A track as a board shows it. */
export type BoardTrack = Pick<TrackView, "id" | "name" | "description">;

/** A leaderboard as pages, the API and the CSV export use it. */
export interface Leaderboard {
  task: { id: string; slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string; displayTimeZone: string; selectionRule: SelectionRule };
  evaluation: BoardEvaluation;
  metric: LeaderboardMetric;
  /** the variant id the board is ranked by, or null for the profile's primary setting */
  variant: string | null;
  /** the phase's tracks in order (empty for a phase without tracks) */
  tracks: BoardTrack[];
  /** the track whose board this is, or null for a phase without tracks */
  track: BoardTrack | null;
  /** the phase's datasets in order (one for a phase with one dataset) */
  datasets: BoardDataset[];
  /** the dataset whose own board this is (`?dataset=`), or null for the phase-level board */
  dataset: BoardDataset | null;
  /** the name of the dataset the phase-level board is ranked by (`?rankDataset=`), or null */
  rankDataset: string | null;
  /**
   * whether the gold has zeros the zero score counts (hide the `zero` column when `inGold` is
   * false); every board of {@link getLeaderboard} has it (optional only for boards built by hand)
   */
  zeros?: BoardZeros;
  allRuns: boolean;
  tiePolicy: string;
  /** the phase's timing and selection policy as applied to this board */
  policy: BoardPolicy;
  /** this page's rows, in board order (every row when no `limit` was asked) */
  rows: LeaderboardRow[];
  /** where `rows` are on the board: see {@link BoardPage} */
  page: BoardPage;
  generatedAt: Date;
}

/** Which part of a board a {@link Leaderboard}'s rows are (server-side paging). */
export interface BoardPage {
  /** the rows the board lists (after the `team` filter), on every page together */
  total: number;
  /** 0-based place of the page's first row among those `total` rows */
  offset: number;
  /** the page size asked for, or null: every row from the cursor on */
  limit: number | null;
  /** the cursor the page starts after (null: the first page) */
  cursor: string | null;
  /** the cursor of the next page; null on the last page */
  nextCursor: string | null;
  /** the team-name filter (case-insensitive part of the name), or null; ranks stay those of the whole board */
  team: string | null;
  /** a digest of the whole board (every page; see `RankedBoardPage.version`), "" when the viewer sees no run */
  version: string;
}

/** A leaderboard row's significance facts. */
export interface RowSignificance {
  /**
   * The paired bootstrap against the run listed directly above (the nearest row above with a
   * value for the metric, baselines included as reference points); null for the first such
   * row, rows without the metric, or when the two were scored against different gold versions.
   */
  versusAbove: { submissionId: string; delta: number; pValue: number; significant: boolean } | null;
  /** 95 % bootstrap interval of the ranking metric's F1 (fractions), when asked for */
  interval: { lo: number; hi: number } | null;
}

/** The significance facts of a leaderboard. */
export interface BoardSignificance {
  metric: LeaderboardMetric;
  samples: number;
  seed: number;
  level: number;
  /** by submission id, for the rows with a value for the metric */
  rows: Record<string, RowSignificance>;
}
