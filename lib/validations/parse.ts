/**
 * Runs a zod schema on untrusted input and turns its issues into a {@link ValidationError}
 * with one field error per issue, so forms and API routes report problems the same way.
 */
import type { z } from "zod";
import { ValidationError, type FieldError } from "../errors";

/**
 * Parses `input` with `schema`.
 *
 * @param schema any zod schema
 * @param input untrusted data (JSON body, form values)
 * @param what a noun for the message, e.g. "task"
 * @returns the parsed (and transformed) value
 * @throws ValidationError (422) whose `fieldErrors` list every issue as `{path, message}`
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "input"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: FieldError[] = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const first = fieldErrors[0];
  const where = first.path ? `${first.path}: ` : "";
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more problem${fieldErrors.length > 2 ? "s" : ""})` : "";
  throw new ValidationError(`Invalid ${what}: ${where}${first.message}${more}`, { fieldErrors });
}
