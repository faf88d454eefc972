/**
 * A task's analysis settings: the pronoun lexicon of the standard disclosure (the shipped
 * English lexicon, or a list the organizers supply for another language), the pronoun
 * categories excluded from the disclosure's evaluation set, and whether the optional mapped
 * cluster F metric is computed.
 *
 * Changing the lexicon or the mapped-F switch changes what the worker computes, so every
 * submission of the task is re-queued (as a new gold key does). Exclusions are applied when
 * the disclosure is shown, so changing them re-queues nothing.
 */
import { assertCanChangeTask } from "./state";
import { z } from "zod";
import { NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, type Viewer } from "../permissions";
import { ENGLISH_PRONOUNS, formatPronounLexicon, parsePronounLexicon, type PronounLexicon } from "../../scoring/analysis";
import { FormatError } from "../../scoring";
import { recordAudit } from "../audit";
import { defaultDb } from "../db";
import { enqueueAfterCommit } from "../queue";
import { requeueSubmissions } from "../submission-states";
import { parseInput } from "../validations/parse";

/** The settings as pages show them. */
export interface TaskAnalysisSettings {
  /** true when the task uses the shipped English lexicon */
  englishLexicon: boolean;
  /** the lexicon in use, as text (the task's list, or the English lexicon formatted) */
  lexiconText: string;
  lexicon: PronounLexicon;
  /** categories the lexicon uses, in first-use order */
  categories: string[];
  excludedCategories: string[];
  mappedClusterF: boolean;
}

/** Longest accepted pronoun list, in characters. */
export const MAX_LEXICON_CHARS = 100_000;

/** A settings change from a form or API client. */
export const taskAnalysisSchema = z
  .object({
    /** the task's pronoun list; empty or null = the shipped English lexicon */
    pronounLexicon: z.string().max(MAX_LEXICON_CHARS, { error: `at most ${MAX_LEXICON_CHARS.toLocaleString("en")} characters` }).nullable(),
    pronounExclusions: z.array(z.string().trim().min(1).max(100)).max(100),
    mappedClusterF: z.boolean(),
  })
  .strict();

/**
 * The stored exclusions (a JSON array) as a list of category names; anything else reads as
 * no exclusion.
 */
export function excludedCategoriesOf(json: unknown): string[] {
  return Array.isArray(json) ? json.filter((c): c is string => typeof c === "string") : [];
}

/** The lexicon a task's stored list stands for. */
function lexiconOf(text: string | null): PronounLexicon {
  return text === null ? ENGLISH_PRONOUNS : parsePronounLexicon(text, "the task's pronoun list");
}

/**
 * The pronoun forms of a task's lexicon in lexicon order (the order of the disclosure's
 * columns), from the task's stored list (null: the shipped English lexicon). A stored list that
 * no longer parses (it was checked when saved) gives none: callers then keep their own order.
 *
 * @param text the task's `pronounLexicon`
 * @returns the forms, e.g. `["he", "him", "his", …]`
 */
export function pronounFormOrder(text: string | null): string[] {
  try {
    return lexiconOf(text).types.map((t) => t.form);
  } catch (error) {
    if (error instanceof FormatError) return [];
    throw error;
  }
}

/** Category names of a lexicon in first-use order. */
function categoriesOf(lexicon: PronounLexicon): string[] {
  return [...new Set(lexicon.types.flatMap((t) => t.categories))];
}

/**
 * A task's analysis settings (organizers only: they are shown on the manage page).
 *
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, unknown task)
 */
export async function getTaskAnalysisSettings(actor: Viewer, taskId: string): Promise<TaskAnalysisSettings> {
  await assertCanManageTask(actor, taskId);
  const task = await defaultDb().task.findUnique({
    where: { id: taskId },
    select: { pronounLexicon: true, pronounExclusions: true, mappedClusterF: true },
  });
  if (!task) throw new NotFoundError("No such task.");
  const lexicon = lexiconOf(task.pronounLexicon);
  return {
    englishLexicon: task.pronounLexicon === null,
    lexiconText: task.pronounLexicon ?? formatPronounLexicon(ENGLISH_PRONOUNS),
    lexicon,
    categories: categoriesOf(lexicon),
    excludedCategories: excludedCategoriesOf(task.pronounExclusions),
    mappedClusterF: task.mappedClusterF,
  };
}

/**
 * Changes a task's analysis settings (organizers). Writes `task.analysis.update`; when the
 * lexicon or the mapped-F switch changes, re-queues every submission of the task in the same
 * transaction and enqueues them after commit.
 *
 * @param input `{pronounLexicon: string | null, pronounExclusions: string[], mappedClusterF: boolean}`;
 *   a list equal to the formatted English lexicon, or blank, means the English lexicon
 * @returns the new settings and how many submissions were re-queued
 * @throws UnauthorizedError, ForbiddenError, NotFoundError; ValidationError (422) for a list
 *   that does not parse (with the line and column, as `formatErrors`) or an exclusion that
 *   is not a category of the lexicon
 */
export async function updateTaskAnalysisSettings(
  actor: Viewer,
  taskId: string,
  input: unknown,
): Promise<{ settings: TaskAnalysisSettings; requeued: number }> {
  const user = await assertCanChangeTask(actor, taskId, undefined, "change its analysis settings");
  const data = parseInput(taskAnalysisSchema, input, "analysis settings");
  const text = data.pronounLexicon?.trim() ? data.pronounLexicon.replace(/\r\n?/g, "\n") : null;
  const english = text === null || text.trim() === formatPronounLexicon(ENGLISH_PRONOUNS).trim();
  let lexicon: PronounLexicon;
  try {
    lexicon = english ? ENGLISH_PRONOUNS : parsePronounLexicon(text!, "pronoun list");
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    const problem = error.toJSON();
    throw new ValidationError(`The pronoun list could not be read: ${problem.message}`, {
      formatErrors: [problem],
      fieldErrors: [{ path: "pronounLexicon", message: problem.message }],
    });
  }
  const categories = new Set(categoriesOf(lexicon));
  const unknown = data.pronounExclusions.filter((c) => !categories.has(c));
  if (unknown.length > 0) {
    throw ValidationError.field("pronounExclusions", `Not a category of the pronoun list: ${unknown.join(", ")}. Categories: ${[...categories].join(", ")}.`);
  }
  const stored = english ? null : text;
  const excluded = [...new Set(data.pronounExclusions)];
  const db = defaultDb();
  const requeuedIds = await db.$transaction(async (tx) => {
    const before = await tx.task.findUnique({ where: { id: taskId }, select: { pronounLexicon: true, mappedClusterF: true } });
    if (!before) throw new NotFoundError("No such task.");
    await tx.task.update({ where: { id: taskId }, data: { pronounLexicon: stored, pronounExclusions: excluded, mappedClusterF: data.mappedClusterF } });
    const rescore = before.pronounLexicon !== stored || before.mappedClusterF !== data.mappedClusterF;
    const ids = rescore ? await requeueSubmissions(tx, { phase: { taskId } }) : [];
    await recordAudit(tx, {
      actorId: user.userId,
      action: "task.analysis.update",
      targetType: "task",
      targetId: taskId,
      data: { englishLexicon: english, lexiconTypes: lexicon.types.length, excludedCategories: excluded, mappedClusterF: data.mappedClusterF, requeued: ids.length },
    });
    return ids;
  });
  await enqueueAfterCommit(requeuedIds, `analysis settings of task ${taskId}`);
  return { settings: await getTaskAnalysisSettings(actor, taskId), requeued: requeuedIds.length };
}
