/**
 * Runs a zod schema on untrusted input and turns its issues into a {@link ValidationError}
 * with one field error per issue, so forms and API routes report problems the same way.
 *
 * Every string that passes is also checked for NUL characters, which no field may hold:
 * PostgreSQL refuses them in text (error 22021), so one would otherwise surface as a 500 at
 * the insert instead of a 422 naming the field.
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
 * @throws ValidationError (422) whose `fieldErrors` list every issue as `{path, message}`,
 *   including every string of the parsed value that holds a NUL character
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "input"): z.output<S> {
  const result = schema.safeParse(input);
  const fieldErrors: FieldError[] = result.success
    ? nulPaths(result.data).map((path) => ({ path, message: "must not contain NUL characters" }))
    : result.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  if (fieldErrors.length === 0) return result.data as z.output<S>;
  const first = fieldErrors[0];
  const where = first.path ? `${first.path}: ` : "";
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more problem${fieldErrors.length > 2 ? "s" : ""})` : "";
  throw new ValidationError(`Invalid ${what}: ${where}${first.message}${more}`, { fieldErrors });
}

/** Paths (dot-separated) of the strings holding a NUL in a parsed value's plain objects and arrays. Iterative: no recursion on input depth. */
function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === "string") {
      if (item.includes("\u0000")) found.push(path);
    } else if (Array.isArray(item) || (item !== null && typeof item === "object" && Object.getPrototypeOf(item) === Object.prototype)) {
      for (const [key, child] of Object.entries(item)) stack.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return found.reverse();
}
