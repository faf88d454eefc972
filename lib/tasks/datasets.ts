/**
 * Datasets of a phase (issue 10 §1): the core reads every other part builds on.
 *
 * A phase has one or more datasets (e.g. `cs_pdt`, `en_gum` in CRAC), each with its own
 * versioned gold key. A phase is created with one dataset, {@link DEFAULT_DATASET_NAME}; with
 * one dataset it takes a plain file of any name, as before datasets existed. A run on a phase
 * with several datasets is an archive holding one file per dataset, named by the dataset's
 * `fileName`.
 *
 * Organizers manage a phase's datasets (below the core reads): add, change and delete them,
 * each audited (`dataset.create`, `dataset.update`, `dataset.delete`). The rules:
 * - names and file names are unique in the phase regardless of case (a name or file name
 *   resolves to one dataset: gold uploads name a dataset, archives hold files by file name);
 *   the fields' own rules are in `lib/validations/dataset.ts`;
 * - a task whose evaluation profile matches mentions by their heads (`crac`, custom partial
 *   or head match) only takes `conllu` datasets: the heads are in CorefUD CoNLL-U files
 *   (`updateTaskEvaluation` refuses such a profile while a dataset is `conll2012`);
 * - a phase keeps at least one dataset, and a dataset a run has a file for cannot be deleted
 *   (`submission_files` → `datasets` is ON DELETE RESTRICT); deleting a dataset deletes its
 *   gold key versions, and when it had an active one, re-queues the phase's runs (the
 *   macro-average loses a dataset);
 * - adding a dataset re-queues nothing (it has no gold key yet, so it is left out of the
 *   macro-average); changing one re-queues nothing either (names, order and expected file
 *   names do not change scores; a new format applies to the next uploads, and the active gold
 *   key stays until one in the new format replaces it).
 * Every change takes the phase's `gold:` lock, as gold uploads and profile changes do.
 */
import { assertCanChangeTask } from "./state";
import { NotFoundError, ValidationError } from "../errors";
import { profileNeedsHeads, taskEvaluationProfile, type EvaluationProfileName, type TaskEvaluationFields } from "./evaluation";
import { assertCanManageTask, taskStanding, type Viewer } from "../permissions";
import { enqueueAfterCommit } from "../queue";
import { requeueSubmissions } from "../submission-states";
import {
  checkDatasetInput,
  checkDatasetPatch,
  fileNameFitsFormat,
  fileNameFormatProblem,
  MAX_DATASETS,
  type DatasetFormatName,
  type DatasetPatch,
} from "../validations/dataset";
import { recordAudit } from "../audit";
import type { Db } from "../db";
import { defaultDb, isUniqueViolation, isUuid, lockKey } from "../db";
import { loadPhase } from "./phases";

/** The name of the dataset every new phase starts with (and that migration 0006 gave existing phases). */
export const DEFAULT_DATASET_NAME = "main";

/** A dataset's file format: CoNLL-2012 (`.conll`) or CorefUD CoNLL-U (`.conllu`); defined in lib/validations/dataset.ts. */
export type DatasetFormat = DatasetFormatName;

/** A dataset as pages, services and the worker see it. */
export interface DatasetView {
  id: string;
  phaseId: string;
  /** e.g. "en_gum": letters, digits, "_", "." and "-", at most 64 */
  name: string;
  /** e.g. "en"; "" when not given */
  language: string;
  /** the file name a run's archive holds this dataset under, e.g. "en_gum-corefud-test.conllu" */
  fileName: string;
  format: DatasetFormat;
  position: number;
}

/** The Prisma `select` of a {@link DatasetView}. */
export const DATASET_SELECT = { id: true, phaseId: true, name: true, language: true, fileName: true, format: true, position: true } as const;

/** The order datasets are listed, ranked and averaged in: position, then name. */
export const DATASET_ORDER = [{ position: "asc" as const }, { name: "asc" as const }];

/**
 * The dataset a new phase starts with: {@link DEFAULT_DATASET_NAME}, in the format the task's
 * evaluation profile reads (a profile that matches mentions by heads or partially, such as
 * `crac`, scores CorefUD CoNLL-U only; the others start as CoNLL-2012, and a one-dataset phase
 * takes whichever format its gold key has).
 *
 * @param task the task's evaluation columns, or just a profile's name ("custom" standing for its
 *   default columns, exact match)
 * @returns the create data of a Prisma nested `datasets: { create }`
 */
export function defaultDatasetData(task: TaskEvaluationFields | EvaluationProfileName): { name: string; fileName: string; format: DatasetFormat } {
  const needsHeads = typeof task === "string" ? task === "crac" : profileNeedsHeads(taskEvaluationProfile(task));
  const format: DatasetFormat = needsHeads ? "conllu" : "conll2012";
  return { name: DEFAULT_DATASET_NAME, fileName: `${DEFAULT_DATASET_NAME}.${format === "conllu" ? "conllu" : "conll"}`, format };
}

/** Narrows a stored format (CHECK-constrained in the migration) to {@link DatasetFormat}. */
export function toDatasetView(row: { id: string; phaseId: string; name: string; language: string; fileName: string; format: string; position: number }): DatasetView {
  return { ...row, format: row.format === "conllu" ? "conllu" : "conll2012" };
}

/**
 * A phase's datasets in {@link DATASET_ORDER}. No permission check: dataset names, languages
 * and file names are public (they are on the leaderboard and the submit page).
 *
 * @param phaseId the phase
 * @param db client or transaction (default: the shared client)
 * @returns the datasets (empty for an unknown phase)
 */
export async function listDatasets(phaseId: string, db: Db = defaultDb()): Promise<DatasetView[]> {
  const rows = await db.dataset.findMany({ where: { phaseId }, orderBy: DATASET_ORDER, select: DATASET_SELECT });
  return rows.map(toDatasetView);
}

/** A dataset with what organizers see of it on the manage page. */
export interface ManagedDataset extends DatasetView {
  /** the active gold key's version and file name (organizers only), or null */
  activeGold: { version: number; fileName: string } | null;
  /** gold key versions uploaded for it */
  goldVersions: number;
  /** runs that have a file for it (such a dataset cannot be deleted) */
  runs: number;
}


/**
 * Why a task cannot take a dataset of `format`, or null when it can: a profile that matches
 * mentions by their heads needs CorefUD CoNLL-U (`conllu`) datasets.
 *
 * @param format the dataset's format
 * @param task the task's evaluation columns
 */
export function datasetFormatProblem(format: DatasetFormat, task: TaskEvaluationFields): string | null {
  const profile = taskEvaluationProfile(task);
  if (format === "conllu" || !profileNeedsHeads(profile)) return null;
  return `The task's evaluation profile (${profile.label}) matches mentions by their heads, which only CorefUD CoNLL-U files have, so its datasets must have the conllu format.`;
}

/** `"cs_pdt", "en_gum"`: dataset names for messages. */
export function datasetChoices(datasets: readonly Pick<DatasetView, "name">[]): string {
  return datasets.map((d) => JSON.stringify(d.name)).join(", ");
}

/**
 * The dataset a reference names among a phase's datasets: an id, else the exact name, else
 * the name in any case.
 *
 * @param datasets the phase's datasets
 * @param ref a dataset id or name
 * @param field the input field, for the error (default `dataset`)
 * @returns the dataset
 * @throws ValidationError (422, field `field`) when `ref` names none of them; the message lists the names
 */
export function findDataset<T extends Pick<DatasetView, "id" | "name">>(datasets: readonly T[], ref: string, field = "dataset"): T {
  const r = ref.trim();
  const found =
    datasets.find((d) => d.id === r.toLowerCase()) ?? datasets.find((d) => d.name === r) ?? datasets.find((d) => d.name.toLowerCase() === r.toLowerCase());
  if (!found) throw ValidationError.field(field, `No dataset "${r}" in this phase; choose one of ${datasetChoices(datasets)} (by name or id).`);
  return found;
}

/** Field errors as one ValidationError (the first problem in the message). */
function invalid(errors: { path: string; message: string }[]): ValidationError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  return new ValidationError(`Invalid dataset: ${first.path ? `${first.path}: ` : ""}${first.message}${more}`, { fieldErrors: errors });
}

/** @throws ValidationError (422, field `name` or `fileName`) when another dataset of the phase has this name or file name in any case */
async function assertUnique(db: Db, phaseId: string, fields: { name?: string; fileName?: string }, exceptId?: string): Promise<void> {
  const others = await db.dataset.findMany({ where: { phaseId, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { name: true, fileName: true } });
  const errors: { path: string; message: string }[] = [];
  const name = fields.name?.toLowerCase();
  const fileName = fields.fileName?.toLowerCase();
  const sameName = name === undefined ? undefined : others.find((d) => d.name.toLowerCase() === name);
  const sameFile = fileName === undefined ? undefined : others.find((d) => d.fileName.toLowerCase() === fileName);
  if (sameName) errors.push({ path: "name", message: `This phase already has a dataset named "${sameName.name}".` });
  if (sameFile) errors.push({ path: "fileName", message: `The dataset "${sameFile.name}" of this phase already expects the file name ${sameFile.fileName}.` });
  if (errors.length > 0) throw invalid(errors);
}

/** @throws ValidationError (422, field `format`) when the task's profile cannot take `format` ({@link datasetFormatProblem}) */
function assertFormatFits(format: DatasetFormat, task: TaskEvaluationFields): void {
  const problem = datasetFormatProblem(format, task);
  if (problem) throw ValidationError.field("format", problem);
}

/** The columns of a task's evaluation profile. */
const EVALUATION_SELECT = { evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true } as const;

/** Audit facts of a dataset. */
function auditDataset(d: Pick<DatasetView, "name" | "language" | "fileName" | "format" | "position">) {
  return { name: d.name, language: d.language, fileName: d.fileName, format: d.format, position: d.position };
}

/**
 * Loads a dataset with its phase's task id.
 *
 * @param ref a dataset id; with `phaseId`, also a dataset name of that phase
 * @param phaseId when given, the dataset must belong to this phase
 * @throws NotFoundError (404) for an unknown dataset (or phase), or one of another phase
 */
async function loadDataset(ref: string, phaseId: string | undefined, db: Db) {
  const select = { ...DATASET_SELECT, phase: { select: { taskId: true } } } as const;
  if (phaseId !== undefined) {
    const phase = await loadPhase(phaseId, db);
    const rows = await db.dataset.findMany({ where: { phaseId: phase.id }, orderBy: DATASET_ORDER, select });
    const r = ref.trim();
    const found = rows.find((d) => d.id === r.toLowerCase()) ?? rows.find((d) => d.name === r) ?? rows.find((d) => d.name.toLowerCase() === r.toLowerCase());
    if (!found) throw new NotFoundError(`No dataset "${r}" in this phase.`);
    const { phase: owner, ...row } = found;
    return { ...toDatasetView(row), taskId: owner.taskId };
  }
  const found = isUuid(ref) ? await db.dataset.findUnique({ where: { id: ref }, select }) : null;
  if (!found) throw new NotFoundError("No such dataset.");
  const { phase: owner, ...row } = found;
  return { ...toDatasetView(row), taskId: owner.taskId };
}

/**
 * Whether a dataset is the untouched automatic one a phase starts with: named
 * {@link DEFAULT_DATASET_NAME}, its default file name (`main.conll` or `main.conllu`), no
 * language. Pure; gold keys and runs are checked by the caller.
 */
export function isDefaultDataset(d: Pick<DatasetView, "name" | "fileName" | "language">): boolean {
  return d.name === DEFAULT_DATASET_NAME && d.language === "" && (d.fileName === `${DEFAULT_DATASET_NAME}.conll` || d.fileName === `${DEFAULT_DATASET_NAME}.conllu`);
}

/**
 * Deletes the phase's automatic dataset when the first named dataset is added (issue 24 §4):
 * only when it is the phase's only dataset, untouched ({@link isDefaultDataset}), and has
 * neither a gold key (any version) nor a run's file. Inside the caller's transaction, under
 * the phase's `gold:` lock.
 *
 * @param newName the name of the dataset being added (a new "main" replaces nothing)
 * @returns the deleted dataset, or null when nothing was replaced
 */
async function replaceUntouchedMain(tx: Db, phaseId: string, newName: string): Promise<DatasetView | null> {
  if (newName.toLowerCase() === DEFAULT_DATASET_NAME) return null;
  const rows = await tx.dataset.findMany({ where: { phaseId }, select: DATASET_SELECT });
  if (rows.length !== 1) return null;
  const only = toDatasetView(rows[0]);
  if (!isDefaultDataset(only)) return null;
  const used = (await tx.goldKey.count({ where: { datasetId: only.id } })) + (await tx.submissionFile.count({ where: { datasetId: only.id } }));
  if (used > 0) return null;
  await tx.dataset.delete({ where: { id: only.id } });
  return only;
}

/**
 * Adds a dataset to a phase (organizers): e.g. `{name: "en_gum", language: "en", fileName:
 * "en_gum-corefud-test.conllu", format: "conllu"}`. Writes `dataset.create`. Re-queues
 * nothing: the dataset has no gold key yet, so it does not count in the macro-average. The
 * first named dataset replaces the phase's untouched automatic "main" (no gold key, no runs):
 * it is deleted in the same transaction (audited `dataset.delete` with `replacedBy`).
 *
 * @param input `{name, language?, fileName, format?, position?}` (see `lib/validations/dataset.ts`;
 *   format default: from the file name; position default: after the last dataset)
 * @returns the new dataset
 * @throws UnauthorizedError (401), ForbiddenError (403, not an organizer of the phase's task),
 *   NotFoundError (404, no phase), ValidationError (422: field errors on `name`, `language`,
 *   `fileName` (also: not ending as the format requires), `format` (also: a `conll2012`
 *   dataset in a task whose profile matches heads), `position`; a name or file name the phase
 *   already has (in any case); more than `MAX_DATASETS` datasets)
 */
export async function addDataset(actor: Viewer, phaseId: string, input: unknown): Promise<DatasetView> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanChangeTask(actor, phase.taskId, db, "change its datasets", "No such phase.");
  const checked = checkDatasetInput(input);
  if (!checked.data) throw invalid(checked.errors);
  const data = checked.data;
  try {
    return await db.$transaction(async (tx) => {
      await lockKey(tx, `gold:${phase.id}`);
      const task = await tx.task.findUniqueOrThrow({ where: { id: phase.taskId }, select: EVALUATION_SELECT });
      assertFormatFits(data.format, task);
      await assertUnique(tx, phase.id, data);
      const replaced = await replaceUntouchedMain(tx, phase.id, data.name);
      const existing = await tx.dataset.aggregate({ where: { phaseId: phase.id }, _count: true, _max: { position: true } });
      if (existing._count >= MAX_DATASETS) throw ValidationError.field("name", `A phase has at most ${MAX_DATASETS} datasets.`);
      const position = data.position ?? (existing._max.position ?? -1) + 1;
      const row = await tx.dataset.create({
        data: { phaseId: phase.id, name: data.name, language: data.language, fileName: data.fileName, format: data.format, position },
        select: DATASET_SELECT,
      });
      const dataset = toDatasetView(row);
      await recordAudit(tx, {
        actorId: user.userId,
        action: "dataset.create",
        targetType: "dataset",
        targetId: dataset.id,
        data: { taskId: phase.taskId, phaseId: phase.id, ...auditDataset(dataset), ...(replaced ? { replacedDefault: replaced.name } : {}) },
      });
      if (replaced) {
        await recordAudit(tx, {
          actorId: user.userId,
          action: "dataset.delete",
          targetType: "dataset",
          targetId: replaced.id,
          data: { taskId: phase.taskId, phaseId: phase.id, ...auditDataset(replaced), hadGold: false, requeued: 0, replacedBy: dataset.name },
        });
      }
      return dataset;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid([{ path: "name", message: `This phase already has a dataset named "${data.name}" or expecting the file name ${data.fileName}.` }]);
    throw error;
  }
}

/**
 * Changes a dataset's name, language, expected file name, format or position (organizers).
 * Writes `dataset.update` with each changed field's old and new value (nothing when nothing
 * changes). Re-queues nothing (see the module comment); a new format applies to the next
 * gold uploads and runs, and the file name must end as it requires (give both together).
 *
 * @param datasetId the dataset's id (with `options.phaseId`, also its name)
 * @param patch any subset of `{name, language, fileName, format, position}`
 * @param options `phaseId`: the dataset must belong to this phase (the API's URL)
 * @returns the dataset after the change
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no such dataset
 *   in the phase), ValidationError (422: bad fields; a name or file name another dataset of
 *   the phase has; a file name that does not end as the (new) format requires, field
 *   `fileName`; a `conll2012` format in a task whose profile matches heads, field `format`)
 */
export async function updateDataset(actor: Viewer, datasetId: string, patch: unknown, options: { phaseId?: string } = {}): Promise<DatasetView> {
  const db = defaultDb();
  const dataset = await loadDataset(datasetId, options.phaseId, db);
  const user = await assertCanChangeTask(actor, dataset.taskId, db, "change its datasets", options.phaseId !== undefined ? "No such phase." : "No such dataset.");
  const checked = checkDatasetPatch(patch);
  if (!checked.data) throw invalid(checked.errors);
  const changes: DatasetPatch = checked.data;
  const { taskId, ...view } = dataset;
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(changes) as [keyof DatasetPatch, unknown][]) {
    if (value !== undefined && view[key] !== value) diff[key] = { from: view[key], to: value };
  }
  if (Object.keys(diff).length === 0) return view;
  const merged = { ...view, ...changes };
  if ((diff.fileName || diff.format) && !fileNameFitsFormat(merged.fileName, merged.format)) {
    throw ValidationError.field("fileName", `${fileNameFormatProblem(merged.fileName, merged.format)}${diff.format && !diff.fileName ? "; change the file name together with the format" : ""}.`);
  }
  try {
    return await db.$transaction(async (tx) => {
      await lockKey(tx, `gold:${view.phaseId}`);
      if (diff.format) {
        const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: EVALUATION_SELECT });
        assertFormatFits(merged.format, task);
      }
      await assertUnique(tx, view.phaseId, { name: diff.name ? merged.name : undefined, fileName: diff.fileName ? merged.fileName : undefined }, view.id);
      const data = Object.fromEntries(Object.keys(diff).map((k) => [k, merged[k as keyof typeof merged]]));
      const row = await tx.dataset.update({ where: { id: view.id }, data, select: DATASET_SELECT });
      await recordAudit(tx, {
        actorId: user.userId,
        action: "dataset.update",
        targetType: "dataset",
        targetId: view.id,
        data: { taskId, phaseId: view.phaseId, name: row.name, changes: diff },
      });
      return toDatasetView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid([{ path: "name", message: `This phase already has a dataset named "${merged.name}" or expecting the file name ${merged.fileName}.` }]);
    throw error;
  }
}

/**
 * Deletes a dataset (organizers), with its gold key versions and its stored per-dataset
 * scores. Refused while it is the phase's only dataset, or while a run has a file for it.
 * When it had an active gold key, every run of the phase is re-queued (the macro-average
 * loses a dataset) and enqueued after commit. Writes `dataset.delete` with the dataset's
 * fields, whether it had gold, and the re-queued count.
 *
 * @param datasetId the dataset's id (with `options.phaseId`, also its name)
 * @param options `phaseId`: the dataset must belong to this phase (the API's URL)
 * @returns the deleted dataset and how many runs were re-queued
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404), ValidationError
 *   (422, field `dataset`): the phase's last dataset, or runs have files for it (the message
 *   says how many)
 */
export async function deleteDataset(actor: Viewer, datasetId: string, options: { phaseId?: string } = {}): Promise<{ dataset: DatasetView; requeued: number }> {
  const db = defaultDb();
  const dataset = await loadDataset(datasetId, options.phaseId, db);
  const user = await assertCanChangeTask(actor, dataset.taskId, db, "change its datasets", options.phaseId !== undefined ? "No such phase." : "No such dataset.");
  const { taskId, ...view } = dataset;
  const outcome = await db.$transaction(async (tx) => {
    await lockKey(tx, `gold:${view.phaseId}`);
    // Lock the row: a run's upload inserting a file for it waits (its foreign-key check), then fails.
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM datasets WHERE id = ${view.id}::uuid FOR UPDATE`;
    if (locked.length === 0) throw new NotFoundError("No such dataset.");
    const count = await tx.dataset.count({ where: { phaseId: view.phaseId } });
    if (count <= 1) {
      throw ValidationError.field("dataset", `The dataset "${view.name}" is this phase's only dataset and cannot be deleted; a phase has at least one (you can rename it or change its fields).`);
    }
    const runs = await tx.submissionFile.count({ where: { datasetId: view.id } });
    if (runs > 0) {
      throw ValidationError.field(
        "dataset",
        `The dataset "${view.name}" cannot be deleted: ${runs} run${runs === 1 ? " has a file" : "s have files"} for it. A dataset with runs stays (you can rename it or change its fields).`,
      );
    }
    const hadGold = (await tx.goldKey.count({ where: { datasetId: view.id, active: true } })) > 0;
    await tx.dataset.delete({ where: { id: view.id } });
    // The other datasets keep their results; the worker only averages over one dataset fewer.
    const requeued = hadGold ? await requeueSubmissions(tx, { phaseId: view.phaseId }, { datasetIds: [] }) : [];
    await recordAudit(tx, {
      actorId: user.userId,
      action: "dataset.delete",
      targetType: "dataset",
      targetId: view.id,
      data: { taskId, phaseId: view.phaseId, ...auditDataset(view), hadGold, requeued: requeued.length },
    });
    return requeued;
  });
  if (outcome.length > 0) await enqueueAfterCommit(outcome, `deletion of dataset ${view.name} of phase ${view.phaseId}`);
  return { dataset: view, requeued: outcome.length };
}

/**
 * A phase's datasets for the manage page (organizers): each with its active gold key's
 * version and file name, how many gold versions it has, and how many runs have a file for it.
 *
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase)
 */
export async function listDatasetsForOrganizers(actor: Viewer, phaseId: string): Promise<ManagedDataset[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const rows = await db.dataset.findMany({
    where: { phaseId: phase.id },
    orderBy: DATASET_ORDER,
    select: {
      ...DATASET_SELECT,
      goldKeys: { where: { active: true }, select: { version: true, fileName: true } },
      _count: { select: { goldKeys: true, submissionFiles: true } },
    },
  });
  return rows.map(({ goldKeys, _count, ...row }) => ({
    ...toDatasetView(row),
    activeGold: goldKeys[0] ?? null,
    goldVersions: _count.goldKeys,
    runs: _count.submissionFiles,
  }));
}


/**
 * A phase's datasets as the viewer may see them (`GET /api/v1/phases/{id}/datasets`): anyone
 * gets each dataset's id, name, language, expected file name, format and position (public, as
 * on the submit page) and whether it has an active gold key; the task's organizers and site
 * admins get the {@link ManagedDataset} fields as well (active gold key's version and file
 * name, versions, runs).
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @returns the datasets in order, and whether the organizer fields are included
 * @throws NotFoundError (404) for an unknown phase, and for a draft task's phase to anyone but
 *   its organizers and site admins (the same answer)
 */
export async function listDatasetsForViewer(
  viewer: Viewer,
  phaseId: string,
): Promise<{ organizer: boolean; datasets: (DatasetView & { hasGold: boolean })[] | (ManagedDataset & { hasGold: boolean })[] }> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const standing = await taskStanding(viewer, phase.taskId, db, viewer ? undefined : phase.task);
  // A draft's datasets are its organizers' only: anyone else gets the unknown phase's 404 (issue 23 F6).
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (standing.isOrganizer) {
    const managed = await listDatasetsForOrganizers(viewer, phase.id);
    return { organizer: true, datasets: managed.map((d) => ({ ...d, hasGold: d.activeGold !== null })) };
  }
  const rows = await db.dataset.findMany({
    where: { phaseId: phase.id },
    orderBy: DATASET_ORDER,
    select: { ...DATASET_SELECT, _count: { select: { goldKeys: { where: { active: true } } } } },
  });
  return { organizer: false, datasets: rows.map(({ _count, ...row }) => ({ ...toDatasetView(row), hasGold: _count.goldKeys > 0 })) };
}
