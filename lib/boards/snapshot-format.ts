/**
 * What a final results snapshot stores (the contract is in `snapshots.ts`): the JSON export's
 * format, the gold keys used, the boards and their rows as stored (`leaderboardJson` after a
 * JSON round trip) and how a stored row reads back as a board row, and the exports' checksums.
 */
import { createHash } from "node:crypto";
import type { BoardDataset, BoardEvaluation, BoardTrack, LeaderboardRow } from "./types";

/** The `format` of the JSON export. */
export const SNAPSHOT_JSON_FORMAT = "corefboard-results-snapshot/1";

/** A gold key a snapshot's results come from, as stored (organizers see all of it). */
export interface SnapshotGold {
  /** the dataset's name, e.g. `main` or `en_gum` */
  dataset: string;
  /** the gold key's version (1, 2, …) */
  version: number;
  /** sha256 of the gold file (lower-case hex): organizers only */
  sha256: string;
  /** the gold file's name: organizers only */
  fileName: string;
}

/** A value after a JSON round trip: its dates as ISO 8601 text. */
type Jsonified<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Jsonified<T[K]> } : T;

/**
 * A board row as stored: `leaderboardJson`'s row after a JSON round trip. It is a
 * {@link LeaderboardRow} but for what the JSON answer and the round trip change: the scores (of
 * the board's setting) under `metrics` instead of `scores`, the dates as ISO 8601 text
 * (`submittedAt`, `disqualified.at`), and `datasets` and `missing` present only on a phase with
 * several datasets (on its phase-level board and on a dataset's board, respectively).
 */
export type StoredRow = Omit<LeaderboardRow, "scores" | "submittedAt" | "disqualified" | "datasets" | "missing"> & {
  metrics: LeaderboardRow["scores"];
  submittedAt: Jsonified<LeaderboardRow["submittedAt"]>;
  disqualified: Jsonified<NonNullable<LeaderboardRow["disqualified"]>> | null;
  datasets?: LeaderboardRow["datasets"];
  missing?: LeaderboardRow["missing"];
};

/** A board as stored (`leaderboardJson` after a JSON round trip); the fields this module reads. */
export interface StoredBoard {
  task?: { slug: string; title: string };
  metric: string;
  /** the variant the board is ranked by (null: the primary setting; final boards are ranked by the primary setting) */
  variant?: string | null;
  evaluation: BoardEvaluation;
  tracks: BoardTrack[];
  track: BoardTrack | null;
  /** a phase with several datasets only (as `dataset` and `rankDataset`) */
  datasets?: BoardDataset[];
  dataset?: BoardDataset | null;
  rankDataset?: string | null;
  allRuns?: boolean;
  tiePolicy: string;
  phase: { selectionRule: string; name?: string };
  /** ISO 8601: the publication time */
  generatedAt?: string;
  rows: StoredRow[];
}

/** A stored board, as far as this module can read it (anything else counts as an empty board). */
export function asBoard(value: unknown): StoredBoard | null {
  if (value === null || typeof value !== "object" || !Array.isArray((value as StoredBoard).rows)) return null;
  return value as StoredBoard;
}

/** A stored row as a board row (dates as Dates, scores under `scores`). */
export function displayRow({ metrics, submittedAt, disqualified, datasets, missing, ...row }: StoredRow): LeaderboardRow {
  return {
    ...row,
    scores: metrics,
    submittedAt: new Date(submittedAt),
    disqualified: disqualified ? { reason: disqualified.reason, at: new Date(disqualified.at) } : null,
    datasets: datasets ?? {},
    missing: missing ?? false,
  };
}

/** sha256 of a text's UTF-8 bytes, lower-case hex. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
