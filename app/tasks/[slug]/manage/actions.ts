"use server";

import { revalidatePath } from "next/cache";
import { ValidationError } from "@/lib/errors";
import { updateTaskAnalysisSettings, type TaskAnalysisSettings, evaluationFormValues, updateTaskEvaluation, archiveTask, publishTask, unarchiveTask, addPhase, closePhaseNow, deletePhase, updatePhase, updateTask, addTrack, deleteTrack, moveTrack, updateTrack, addDataset, deleteDataset, updateDataset } from "@/lib/tasks";
import { setParticipantTeam } from "@/lib/teams";
import { datasetFormValues, type DatasetFormValues } from "@/lib/validations/dataset";
import { trackFormValues, type TrackFormValues } from "@/lib/validations/track";
import { evaluationInputFromValues, evaluationValuesFromForm, type EvaluationFormValues } from "@/lib/validations/task";
import { runAction, type ActionFailure } from "@/app/_components/task-action-result";
import { phaseInputFromValues, phaseValuesFromForm, phaseValuesFromPhase, type PhaseFormValues } from "@/app/_components/task-phase-form-data";
import { taskDetailsValues, type TaskDetailsValues } from "./task-details-values";

/** Every page that shows a task's settings, gold status or organizers (every console tab too). */
function revalidateTaskPages(): void {
  revalidatePath("/tasks/[slug]", "page");
  revalidatePath("/tasks/[slug]/manage", "layout");
}

/** After a change of a task's state or title: the task pages and the task lists. */
function revalidateTaskLists(): void {
  revalidateTaskPages();
  revalidatePath("/tasks");
  revalidatePath("/");
}

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** State of a phase-settings form: the values to show, and the outcome of the last save. */
export type PhaseSettingsState = {
  attempt: number;
  values: PhaseFormValues;
} & ({ status: "idle" } | { status: "saved" } | ({ status: "error" } & ActionFailure));

/**
 * Saves a phase's settings (form fields as in the new-task form, without prefix, plus
 * `phaseId`). `updatePhase` checks that the viewer organizes the phase's task.
 *
 * @returns "saved" with the stored values (times in the phase's display zone), or the error
 *   with field errors and the submitted values
 */
export async function updatePhaseAction(previous: PhaseSettingsState, formData: FormData): Promise<PhaseSettingsState> {
  const values = phaseValuesFromForm(formData);
  const attempt = previous.attempt + 1;
  const { input, errors } = phaseInputFromValues(values);
  return runAction<PhaseSettingsState>(
    "updating a phase",
    async (viewer) => {
      if (errors.length > 0) throw new ValidationError("Please correct the marked fields.");
      const phase = await updatePhase(viewer, formString(formData, "phaseId"), input);
      revalidateTaskPages();
      return { attempt, values: phaseValuesFromPhase(phase), status: "saved" };
    },
    (failure) => ({ attempt, values, status: "error", ...failure }),
    errors,
  );
}

/** State of the task-details form: the values to show, and the outcome of the last save. */
export type TaskDetailsState = {
  attempt: number;
  values: TaskDetailsValues;
} & ({ status: "idle" } | { status: "saved" } | ({ status: "error" } & ActionFailure));

/**
 * Saves a task's own fields (form fields `taskId`, `title`, `description`, `rules`,
 * `dataLicense`, `dataSource`). `updateTask` checks that the viewer organizes the task,
 * validates, refuses an archived task and audits the change.
 *
 * @returns "saved" with the stored values, or the error with field errors and the submitted values
 */
export async function updateTaskDetailsAction(previous: TaskDetailsState, formData: FormData): Promise<TaskDetailsState> {
  const attempt = previous.attempt + 1;
  const raw = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const values: TaskDetailsValues = { title: raw("title"), description: raw("description"), rules: raw("rules"), dataLicense: raw("dataLicense"), dataSource: raw("dataSource") };
  return runAction<TaskDetailsState>(
    "updating a task's details",
    async (viewer) => {
      const task = await updateTask(viewer, formString(formData, "taskId"), values);
      revalidateTaskLists();
      return { attempt, values: taskDetailsValues(task), status: "saved" };
    },
    (failure) => ({ attempt, values, status: "error", ...failure }),
  );
}

/** State of the status card's buttons: the outcome of the last publish, archive or unarchive. */
export type TaskLifecycleState =
  | { status: "idle" }
  | { status: "done"; message: string }
  | ({ status: "error" } & ActionFailure);

/**
 * Publishes, archives or unarchives a task, by the pressed button's `intent` (`publish`,
 * `archive`, `unarchive`; form field `taskId`). The services check that the viewer organizes
 * the task, run the publishing checks again and audit the change.
 *
 * @returns "done" with what happened, or the error (a refused publish lists the failed checks)
 */
export async function taskLifecycleAction(_previous: TaskLifecycleState, formData: FormData): Promise<TaskLifecycleState> {
  const intent = formString(formData, "intent");
  const taskId = formString(formData, "taskId");
  return runAction<TaskLifecycleState>(
    "changing a task's state",
    async (viewer) => {
      let message: string;
      if (intent === "publish") {
        await publishTask(viewer, taskId);
        message = "The task is published: everyone can see it now.";
      } else if (intent === "archive") {
        await archiveTask(viewer, taskId);
        message = "The task is archived: it is still public, and read-only.";
      } else if (intent === "unarchive") {
        await unarchiveTask(viewer, taskId);
        message = "The task is published again: it takes runs and edits.";
      } else {
        return { status: "error", message: "Unknown action.", fieldErrors: {}, formatErrors: [] };
      }
      revalidateTaskLists();
      return { status: "done", message };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/** State of a phase's "Close now" and "Delete phase" buttons. */
export type PhaseLifecycleState =
  | { status: "idle" }
  | { status: "done"; message: string }
  | ({ status: "error" } & ActionFailure);

/**
 * Closes a phase now or deletes it, by the pressed button's `intent` (`close`, `delete`; form
 * fields `phaseId`, `phaseName`). `closePhaseNow` and `deletePhase` check that the viewer
 * organizes the task (and, for a delete, that the phase has no runs and is not the last one)
 * and audit it.
 *
 * @returns "done" with what happened, or the error (a refused delete says why)
 */
export async function phaseLifecycleAction(_previous: PhaseLifecycleState, formData: FormData): Promise<PhaseLifecycleState> {
  const intent = formString(formData, "intent");
  const phaseId = formString(formData, "phaseId");
  return runAction<PhaseLifecycleState>(
    "closing or deleting a phase",
    async (viewer) => {
      if (intent === "close") {
        await closePhaseNow(viewer, phaseId);
        revalidateTaskLists();
        return { status: "done", message: "The phase is closed: it accepts no more runs." };
      }
      if (intent === "delete") {
        const { name } = await deletePhase(viewer, phaseId);
        revalidateTaskLists();
        return { status: "done", message: `Phase "${name}" deleted.` };
      }
      return { status: "error", message: "Unknown action.", fieldErrors: {}, formatErrors: [] };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/** State of the add-phase form: the values to show (the submitted ones after an error), and the outcome of the last attempt. */
export type AddPhaseState = {
  attempt: number;
  values: PhaseFormValues;
} & ({ status: "idle" } | { status: "added"; name: string } | ({ status: "error" } & ActionFailure));

/**
 * Adds a phase to a task (form fields `taskId` and the phase's fields without prefix, as in
 * the phase settings form). `addPhase` checks that the viewer organizes the task, validates
 * (a unique name, the window, the freeze), refuses an archived task and audits it.
 *
 * @returns "added" with the phase's name (the form is emptied to `values`, the next phase's
 *   suggestion given by the page), or the error with field errors and the submitted values
 */
export async function addPhaseAction(previous: AddPhaseState, formData: FormData): Promise<AddPhaseState> {
  const attempt = previous.attempt + 1;
  const values = phaseValuesFromForm(formData);
  const { input, errors } = phaseInputFromValues(values);
  return runAction<AddPhaseState>(
    "adding a phase",
    async (viewer) => {
      if (errors.length > 0) throw new ValidationError("Please correct the marked fields.");
      const phase = await addPhase(viewer, formString(formData, "taskId"), input);
      revalidateTaskLists();
      return { attempt, values: previous.values, status: "added", name: phase.name };
    },
    (failure) => ({ attempt, values, status: "error", ...failure }),
    errors,
  );
}

/** State of the add-organizer form; `added` is false when the user already organized the task. */
/** State of a participant's team form: the team after the last save (null: record cleared), or the error. */
export type ParticipantTeamState =
  | { status: "idle" }
  | { status: "saved"; teamName: string | null; attempt: number }
  | ({ status: "error"; attempt: number } & ActionFailure);

/**
 * Changes or clears the team recorded for a participant in a task (form fields `taskId`,
 * `userId`, `teamId`: a team id, or "" to clear the record). `setParticipantTeam` checks
 * that the viewer organizes the task and that the user is a member of the team, and audits
 * the change.
 *
 * @returns "saved" with the new team's name (null when cleared), or the error
 */
export async function setParticipantTeamAction(previous: ParticipantTeamState, formData: FormData): Promise<ParticipantTeamState> {
  const attempt = previous.status === "idle" ? 1 : previous.attempt + 1;
  return runAction<ParticipantTeamState>(
    "changing a participant's team",
    async (viewer) => {
      const teamId = formString(formData, "teamId");
      const record = await setParticipantTeam(viewer, formString(formData, "taskId"), formString(formData, "userId"), teamId === "" ? null : teamId);
      revalidatePath("/tasks/[slug]/manage", "page");
      return { status: "saved", teamName: record?.team.name ?? null, attempt };
    },
    (failure) => ({ status: "error", attempt, ...failure, message: failure.fieldErrors.teamId ?? failure.message }),
  );
}

/** What the analysis-settings form shows: the stored (or submitted) settings. */
export interface AnalysisSettingsValues {
  /** the task uses the shipped English lexicon */
  englishLexicon: boolean;
  /** the pronoun list as text (the English lexicon formatted, when in use) */
  lexiconText: string;
  /** the categories of the stored lexicon, in first-use order */
  categories: string[];
  excludedCategories: string[];
  mappedClusterF: boolean;
  /** the English lexicon as text, when known (the task used it when the page was loaded or last saved) */
  englishText: string | null;
}

/** State of the analysis-settings form: the values to show, and the outcome of the last save. */
export type AnalysisSettingsState = {
  attempt: number;
  values: AnalysisSettingsValues;
} & ({ status: "idle" } | { status: "saved"; requeued: number } | ({ status: "error" } & ActionFailure));

/**
 * The form's values for stored settings (the manage page builds its first values the same way).
 *
 * @param settings from `updateTaskAnalysisSettings`
 * @param englishText the English lexicon's text known so far (kept when the task uses another list)
 */
function analysisValuesFromSettings(settings: TaskAnalysisSettings, englishText: string | null): AnalysisSettingsValues {
  return {
    englishLexicon: settings.englishLexicon,
    lexiconText: settings.lexiconText,
    categories: settings.categories,
    excludedCategories: settings.excludedCategories,
    mappedClusterF: settings.mappedClusterF,
    englishText: settings.englishLexicon ? settings.lexiconText : englishText,
  };
}

/**
 * Saves a task's analysis settings (form fields `taskId`; `englishLexicon` checkbox: use the
 * shipped English lexicon; `pronounLexicon`: the list otherwise; `exclude`: one value per
 * excluded category; `mappedClusterF` checkbox). `updateTaskAnalysisSettings` checks that the
 * viewer organizes the task, reads the list (format errors with line and column) and
 * re-queues the task's submissions when what scoring computes changes.
 *
 * @returns "saved" with the stored settings and how many submissions were re-queued, or the
 *   error with the submitted values
 */
export async function updateTaskAnalysisAction(previous: AnalysisSettingsState, formData: FormData): Promise<AnalysisSettingsState> {
  const attempt = previous.attempt + 1;
  const english = formData.get("englishLexicon") === "on";
  const rawText = formData.get("pronounLexicon");
  const text = typeof rawText === "string" ? rawText : "";
  const excluded = formData.getAll("exclude").filter((v): v is string => typeof v === "string");
  const mappedClusterF = formData.get("mappedClusterF") === "on";
  const submitted: AnalysisSettingsValues = {
    ...previous.values,
    englishLexicon: english,
    lexiconText: english && previous.values.englishText !== null ? previous.values.englishText : text,
    excludedCategories: excluded,
    mappedClusterF,
  };
  return runAction<AnalysisSettingsState>(
    "updating a task's analysis settings",
    async (viewer) => {
      const { settings, requeued } = await updateTaskAnalysisSettings(viewer, formString(formData, "taskId"), {
        pronounLexicon: english ? null : text,
        pronounExclusions: excluded,
        mappedClusterF,
      });
      revalidateTaskPages();
      return { attempt, values: analysisValuesFromSettings(settings, previous.values.englishText), status: "saved", requeued };
    },
    (failure) => ({ attempt, values: submitted, status: "error", ...failure }),
  );
}


/** State of the evaluation form: the values to show, and the outcome of the last save. */
export type EvaluationSettingsState = {
  attempt: number;
  values: EvaluationFormValues;
} & ({ status: "idle" } | { status: "saved"; changed: boolean; label: string; requeued: number } | ({ status: "error" } & ActionFailure));

/**
 * Saves a task's evaluation profile (form fields `taskId`, `evaluationProfile`, and for the
 * custom profile `mentionMatching`, `keepSingletons` ("keep" | "exclude"), `zeroMatching`).
 * `updateTaskEvaluation` checks that the viewer organizes the task, refuses a profile the
 * phases' active gold keys cannot be scored under, and re-queues the task's runs when the
 * profile changes.
 *
 * @returns "saved" with whether anything changed, the profile's label and how many runs were
 *   re-queued; or the error with the submitted values
 */
export async function updateTaskEvaluationAction(previous: EvaluationSettingsState, formData: FormData): Promise<EvaluationSettingsState> {
  const attempt = previous.attempt + 1;
  const values = evaluationValuesFromForm(formData);
  return runAction<EvaluationSettingsState>(
    "updating a task's evaluation profile",
    async (viewer) => {
      const { changed, evaluation, requeued } = await updateTaskEvaluation(viewer, formString(formData, "taskId"), evaluationInputFromValues(values));
      if (changed) revalidateTaskPages();
      return { attempt, values: evaluationFormValues(evaluation), status: "saved", changed, label: evaluation.label, requeued };
    },
    (failure) => ({ attempt, values, status: "error", ...failure }),
  );
}

/** The track fields of a form (as typed; the service validates them). */
function trackValuesFromForm(formData: FormData): TrackFormValues {
  const raw = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  return { name: raw("name"), description: raw("description"), dailyLimit: raw("dailyLimit"), totalLimit: raw("totalLimit") };
}

/** State of the add-track form: the outcome of the last attempt, and the submitted values after an error. */
export type AddTrackState = { attempt: number } & (
  | { status: "idle" }
  | { status: "added"; name: string }
  | ({ status: "error"; values: TrackFormValues } & ActionFailure)
);

/**
 * Adds a track to a phase (form fields `phaseId`, `name`, `description`, `dailyLimit`,
 * `totalLimit`; empty limits: the phase's). `addTrack` checks that the viewer organizes the
 * phase's task, validates the fields and audits it.
 *
 * @returns "added" with the track's name, or the error with field errors and the submitted values
 */
export async function addTrackAction(previous: AddTrackState, formData: FormData): Promise<AddTrackState> {
  const attempt = previous.attempt + 1;
  const values = trackValuesFromForm(formData);
  return runAction<AddTrackState>(
    "adding a track",
    async (viewer) => {
      const track = await addTrack(viewer, formString(formData, "phaseId"), values);
      revalidateTaskPages();
      return { attempt, status: "added", name: track.name };
    },
    (failure) => ({ attempt, status: "error", values, ...failure }),
  );
}

/** State of one track's form: the values to show, and the outcome of the last action on it. */
export type TrackState = {
  attempt: number;
  values: TrackFormValues;
} & ({ status: "idle" } | { status: "saved"; message: string } | ({ status: "error" } & ActionFailure));

/**
 * One action on a track, chosen by the pressed button's `intent`: `save` (fields `name`,
 * `description`, `dailyLimit`, `totalLimit`), `up` / `down` (its place in the phase's order)
 * or `delete` (refused with the reason when runs declare the track). Form field `trackId`.
 * The services check that the viewer organizes the task, validate and audit.
 *
 * @returns "saved" with the stored values and what happened, or the error (a refused delete's
 *   reason as the message) with the submitted values
 */
export async function trackAction(previous: TrackState, formData: FormData): Promise<TrackState> {
  const attempt = previous.attempt + 1;
  const intent = formString(formData, "intent");
  const trackId = formString(formData, "trackId");
  const values = intent === "save" ? trackValuesFromForm(formData) : previous.values;
  return runAction<TrackState>(
    "changing a track",
    async (viewer) => {
      if (intent === "delete") {
        await deleteTrack(viewer, trackId);
        revalidateTaskPages();
        return { attempt, values, status: "saved", message: `Track "${values.name}" deleted.` };
      }
      if (intent === "up" || intent === "down") {
        await moveTrack(viewer, trackId, intent);
        revalidateTaskPages();
        return { attempt, values, status: "saved", message: `Track "${values.name}" moved ${intent}.` };
      }
      const track = await updateTrack(viewer, trackId, values);
      revalidateTaskPages();
      return { attempt, values: trackFormValues(track), status: "saved", message: "Track saved." };
    },
    (failure) => ({ attempt, values, status: "error", ...failure, message: failure.fieldErrors.track ?? failure.fieldErrors.trackIds ?? failure.message }),
  );
}

/** The dataset fields of a form (as typed; the service validates them). */
function datasetValuesFromForm(formData: FormData): DatasetFormValues {
  const raw = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  return { name: raw("name"), language: raw("language"), fileName: raw("fileName"), format: raw("format"), position: raw("position") };
}

/** State of the add-dataset form: the outcome of the last attempt, and the submitted values after an error. */
export type AddDatasetState = { attempt: number } & (
  | { status: "idle" }
  | { status: "added"; name: string }
  | ({ status: "error"; values: DatasetFormValues } & ActionFailure)
);

/**
 * Adds a dataset to a phase (form fields `phaseId`, `name`, `language`, `fileName`, `format`,
 * `position`; an empty position: after the last dataset). `addDataset` checks that the viewer
 * organizes the phase's task, validates the fields (unique name and file name, the file name's
 * ending, a format the task's profile can score) and audits it.
 *
 * @returns "added" with the dataset's name, or the error with field errors and the submitted values
 */
export async function addDatasetAction(previous: AddDatasetState, formData: FormData): Promise<AddDatasetState> {
  const attempt = previous.attempt + 1;
  const values = datasetValuesFromForm(formData);
  return runAction<AddDatasetState>(
    "adding a dataset",
    async (viewer) => {
      const dataset = await addDataset(viewer, formString(formData, "phaseId"), values);
      revalidateTaskPages();
      return { attempt, status: "added", name: dataset.name };
    },
    (failure) => ({ attempt, status: "error", values, ...failure }),
  );
}

/** State of one dataset's form: the values to show, and the outcome of the last action on it. */
export type DatasetState = {
  attempt: number;
  values: DatasetFormValues;
} & ({ status: "idle" } | { status: "saved"; message: string } | ({ status: "error" } & ActionFailure));

/**
 * One action on a dataset, chosen by the pressed button's `intent`: `save` (fields `name`,
 * `language`, `fileName`, `format`, `position`) or `delete` (refused with the reason for the
 * phase's last dataset or one that runs have files for). Form field `datasetId`. The services
 * check that the viewer organizes the task, validate and audit.
 *
 * @returns "saved" with the stored values and what happened, or the error (a refused delete's
 *   reason as the message) with the submitted values
 */
export async function datasetAction(previous: DatasetState, formData: FormData): Promise<DatasetState> {
  const attempt = previous.attempt + 1;
  const intent = formString(formData, "intent");
  const datasetId = formString(formData, "datasetId");
  const values = intent === "save" ? datasetValuesFromForm(formData) : previous.values;
  return runAction<DatasetState>(
    "changing a dataset",
    async (viewer) => {
      if (intent === "delete") {
        const { requeued } = await deleteDataset(viewer, datasetId);
        revalidateTaskPages();
        const requeuedText = requeued > 0 ? ` ${requeued} submission${requeued === 1 ? " was" : "s were"} re-queued for scoring.` : "";
        return { attempt, values, status: "saved", message: `Dataset "${values.name}" deleted with its gold key versions.${requeuedText}` };
      }
      const dataset = await updateDataset(viewer, datasetId, values);
      revalidateTaskPages();
      return { attempt, values: datasetFormValues(dataset), status: "saved", message: "Dataset saved." };
    },
    (failure) => ({ attempt, values, status: "error", ...failure, message: failure.fieldErrors.dataset ?? failure.message }),
  );
}
