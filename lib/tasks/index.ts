/**
 * The tasks domain's public surface (ARCHITECTURE.md): tasks, phases, their lifecycle and evaluation profile, analysis settings, tracks, datasets, gold keys, co-organizer invitations.
 * Code outside lib/tasks/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { excludedCategoriesOf, getTaskAnalysisSettings, pronounFormOrder, updateTaskAnalysisSettings } from "./analysis-settings";
export type { TaskAnalysisSettings } from "./analysis-settings";
export { DATASET_ORDER, DATASET_SELECT, addDataset, deleteDataset, findDataset, listDatasets, listDatasetsForOrganizers, listDatasetsForViewer, toDatasetView, updateDataset } from "./datasets";
export type { DatasetView } from "./datasets";
export { alsoScoredText, evaluationChoices, evaluationColumns, evaluationFormValues, evaluationProfileSuggestion, taskEvaluationView, updateTaskEvaluation } from "./evaluation-profile";
export type { EvaluationChoices, ProfileSuggestion, TaskEvaluationView } from "./evaluation-profile";
export { evaluateOptionsFor, runEvaluation, taskEvaluationProfile } from "./evaluation";
export type { EvaluationProfile, EvaluationProfileName, RunEvaluation } from "./evaluation";
export { findActiveGoldKeys, goldUploadImpact, listGoldVersions, uploadGoldKey } from "./gold";
export type { GoldKeyMeta, GoldVersionMeta, StoredGold } from "./gold";
export { archiveTask, publishChecks, publishTask, unarchiveTask } from "./lifecycle";
export type { PublishCheck, TaskStatus } from "./lifecycle";
export { acceptOrganizerInvitation, inviteOrganizer, listOrganizerInvitations, organizerTaskIdForSlug, previewOrganizerInvitation, revokeOrganizerInvitation } from "./organizer-invitations";
export type { OrganizerInvitationPreview, OrganizerInvitationView } from "./organizer-invitations";
export { assertPhaseOpen, loadManagedPhase, loadPhase } from "./phases";
export type { PhaseWithTask } from "./phases";
export { assertCanChangeTask, assertTaskWritable } from "./state";
export { listTaskSummariesForViewer, listTasksForViewer } from "./tasks-list";
export type { TaskListItem, TaskSummary } from "./tasks-list";
export { addPhase, closePhaseNow, createTask, deletePhase, getPhaseForViewer, getTaskForViewer, phaseRunCounts, updatePhase, updateTask } from "./tasks";
export type { PhaseView, TaskDetails, TaskView } from "./tasks";
export { TRACK_SELECT, addTrack, deleteTrack, findTrack, hasOwnLimits, listTracks, listTracksForOrganizers, moveTrack, updateTrack, uploadTrack } from "./tracks";
export type { TrackView } from "./tracks";
