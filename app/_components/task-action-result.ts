/**
 * Turning errors thrown by services into what a form shows: a message, field errors keyed
 * by field path, and file-format problems with line and column. Server-side.
 */
import { DomainError, ValidationError, type FieldError, type FormatProblem } from "../../lib/errors";
import { fieldErrorMap, type FieldErrorMap } from "./task-phase-form-data";

/** A failed form action, as the form renders it. */
export interface ActionFailure {
  message: string;
  fieldErrors: FieldErrorMap;
  formatErrors: FormatProblem[];
}

/** The message for errors that are not the user's (details go to the server log only). */
export const GENERIC_FAILURE = "Something went wrong on our side. Please try again.";

/**
 * Describes an error from a service call for a form.
 *
 * @param error what the service threw
 * @param context what was being done, for the server log of unexpected errors
 * @param earlier field errors found before the service was called (they win over the
 *   service's own message for the same field)
 * @returns a person-readable message; for validation errors also the field errors and the
 *   format problems. Unexpected errors are logged and described generically.
 */
export function describeActionError(error: unknown, context: string, earlier: readonly FieldError[] = []): ActionFailure {
  if (error instanceof ValidationError) {
    const fieldErrors = fieldErrorMap([...earlier, ...error.fieldErrors]);
    const hasFieldErrors = Object.keys(fieldErrors).length > 0 && error.formatErrors.length === 0;
    return {
      message: hasFieldErrors ? "Please correct the marked fields." : error.message,
      fieldErrors,
      formatErrors: error.formatErrors,
    };
  }
  if (error instanceof DomainError) return { message: error.message, fieldErrors: fieldErrorMap(earlier), formatErrors: [] };
  console.error(`${context} failed`, error);
  return { message: GENERIC_FAILURE, fieldErrors: {}, formatErrors: [] };
}

/** The failure for a request whose session has ended. */
export function signedOutFailure(): ActionFailure {
  return { message: "Your session has ended. Please sign in again.", fieldErrors: {}, formatErrors: [] };
}
