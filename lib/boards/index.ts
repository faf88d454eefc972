/**
 * The boards domain's public surface (ARCHITECTURE.md): stored scores, ranking, leaderboards and their significance, final-results snapshots, exports, the compare page.
 * Code outside lib/boards/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { computeBoardSignificance, readBoardSignificance, requestDefaultBoards } from "./board-significance";
export type { StoredBoardSignificance } from "./board-significance";
export { cachedBoardPart, pruneBoardChanges } from "./cache";
export { listComparePhases, loadComparePage } from "./compare";
export type { ComparePage, ComparePhaseChoice, ComparePhaseRuns, CompareRunChoice } from "./compare";
export { boardLatex, boardMarkdown } from "./export";
export { leaderboardCsvChunks, leaderboardCsvDigest } from "./leaderboard-csv";
export { leaderboardJsonText } from "./leaderboard-json-text";
export { getLeaderboard, leaderboardJson } from "./leaderboard";
export { BLANC_COREF, BLANC_NONCOREF, blancRuleForGold, documentScoresToJson, macroScoreRows, macroScoresToJson, rankingValueOfRows, scoreRowsFromJson, scoresToJson } from "./scores";
export type { BoardMetricsJson, CountScoreJson, CountsJson, DocumentScoreRowLike, MetricsJson, ScoreRowData } from "./scores";
export { SIGNIFICANCE_LEVEL, compareRuns, listComparableRuns } from "./significance";
export type { ComparableRun, ComparedRun, RunComparison } from "./significance";
export { getSnapshotFile, snapshotDownloadResponse } from "./snapshot-files";
export { publishSnapshot, snapshotReadiness } from "./snapshot-publish";
export type { SnapshotReadiness } from "./snapshot-publish";
export { getSnapshot, latestSnapshot, listSnapshots } from "./snapshots";
export type { SnapshotBoard, SnapshotList, SnapshotView } from "./snapshots";
export type { BoardDataset, BoardPage, BoardSignificance, Leaderboard, LeaderboardRow } from "./types";
