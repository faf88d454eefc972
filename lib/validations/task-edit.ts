/**
 * Editing a task's own fields after creation (issue 11 §1): title, description and rules
 * (markdown), data licence and data source. Shared by the overview tab's details form and
 * `PATCH /api/v1/tasks/{slug}`; the service is `updateTask` in lib/tasks/tasks.ts.
 */
import { z } from "zod";

/** Longest task title (as at creation). */
export const TASK_TITLE_MAX = 200;
/** Longest description or rules text (markdown). */
export const TASK_TEXT_MAX = 100_000;
/** Longest licence or data-source text. */
export const TASK_NOTE_MAX = 10_000;

/** Free text that may be cleared: trimmed; "" and null both store null. */
const optionalNote = z
  .string({ error: "expected text" })
  .trim()
  .max(TASK_NOTE_MAX, { error: `at most ${TASK_NOTE_MAX.toLocaleString("en")} characters` })
  .nullable()
  .transform((s) => (s ? s : null));

/**
 * A change to a task: any subset of `title` (1–200 characters, trimmed), `description` and
 * `rules` (markdown, at most 100,000 characters each; "" clears them), `dataLicense` and
 * `dataSource` (at most 10,000 characters; "" or null clears them). Unknown fields are
 * refused (the evaluation profile and analysis settings have their own forms and services).
 */
export const taskPatchSchema = z
  .object({
    title: z.string({ error: "expected text" }).trim().min(1, { error: "required" }).max(TASK_TITLE_MAX, { error: `at most ${TASK_TITLE_MAX} characters` }),
    description: z.string({ error: "expected text" }).max(TASK_TEXT_MAX, { error: `at most ${TASK_TEXT_MAX.toLocaleString("en")} characters` }),
    rules: z.string({ error: "expected text" }).max(TASK_TEXT_MAX, { error: `at most ${TASK_TEXT_MAX.toLocaleString("en")} characters` }),
    dataLicense: optionalNote,
    dataSource: optionalNote,
  })
  .partial()
  .strict();
/** A validated change to a task: only the fields sent. */
export type TaskPatch = z.output<typeof taskPatchSchema>;
/** The fields {@link taskPatchSchema} takes. */
export const TASK_PATCH_FIELDS = ["title", "description", "rules", "dataLicense", "dataSource"] as const;
