/**
 * Datasets of a phase (issue 10 §1): the core reads every other part builds on.
 *
 * A phase has one or more datasets (e.g. `cs_pdt`, `en_gum` in CRAC), each with its own
 * versioned gold key. A phase is created with one dataset, {@link DEFAULT_DATASET_NAME}; with
 * one dataset it takes a plain file of any name, as before datasets existed. A run on a phase
 * with several datasets is an archive holding one file per dataset, named by the dataset's
 * `fileName`.
 */
import type { Db } from "./db";
import { defaultDb } from "./db";

/** The name of the dataset every new phase starts with (and that migration 0006 gave existing phases). */
export const DEFAULT_DATASET_NAME = "main";

/** A dataset's file format: CoNLL-2012 (`.conll`) or CorefUD CoNLL-U (`.conllu`). */
export type DatasetFormat = "conll2012" | "conllu";

/** The dataset formats, in the order forms offer them. */
export const DATASET_FORMATS: readonly DatasetFormat[] = ["conll2012", "conllu"];

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
 * evaluation profile reads (`crac` scores CorefUD CoNLL-U; the others start as CoNLL-2012 and
 * take whichever format the gold key has).
 *
 * @param evaluationProfile the task's profile name ("conll2012", "crac", "custom")
 * @returns the create data of a Prisma nested `datasets: { create }`
 */
export function defaultDatasetData(evaluationProfile: string): { name: string; fileName: string; format: DatasetFormat } {
  const format: DatasetFormat = evaluationProfile === "crac" ? "conllu" : "conll2012";
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
