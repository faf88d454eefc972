/**
 * The runs domain's public surface (ARCHITECTURE.md): a run's upload and its checks, submissions as viewers see them, run controls, final selection, quotas, the organizers' console, participant files, a team's standing and progress, a run's analyses.
 * Code outside lib/runs/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { ERROR_KINDS, getDocumentAnalysis, getRunAnalysis } from "./analysis";
export type { DocumentAnalysisView, ErrorCounts, ErrorKind, RunAnalysisView } from "./analysis";
export { CONSOLE_RUN_STATUSES, listConsoleRuns, listTaskTeamStats, parseConsoleRunsQuery, phaseRunsArchive } from "./console";
export type { ConsoleRun, ConsoleRunsPage, ConsoleRunsQueryInput, TaskTeamsPage } from "./console";
export { disqualifySubmission, hideSubmission, requalifySubmission, rescorePhase, rescoreSubmission, unhideSubmission, withdrawSubmission } from "./controls";
export { runFinalState, setFinalSelection } from "./final-selection";
export type { RunFinalState } from "./final-selection";
export { blindInputHref, sampleSubmissionHref, scorerDownloadHref } from "./participant-file-hrefs";
export { deriveBlindInput, listParticipantFiles, parseBlindOptions, readBlindInput, sampleSubmission, uploadBlindInput } from "./participant-files";
export { getTeamProgress } from "./progress";
export type { ProgressPoint, TeamProgress } from "./progress";
export { quotaForViewer } from "./quota";
export type { QuotaStatus, TrackQuota } from "./quota";
export { getRunRank, getTaskStanding, runRankSentence } from "./standing";
export type { PhaseStanding, RunRank, TeamTaskStanding } from "./standing";
export { createSubmission, getSubmissionForViewer, listSubmissionsForViewer } from "./submissions";
export type { SubmissionDatasetView, SubmissionSummary, SubmissionView } from "./submissions";
