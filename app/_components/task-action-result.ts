/**
 * Running a form's server action against a service, and turning what the service throws
 * into what the form shows: a message, field errors keyed by field path, and file-format
 * problems with line and column. Server-side.
 */
import { unstable_rethrow } from "next/navigation";
import { DomainError, ValidationError, type FieldError, type FormatProblem } from "@/lib/errors";
import { getViewer, type Viewer } from "@/lib/auth/session";

/** Field errors keyed by field path ("slug", "phases.0.closesAt", …): the first message per path. */
export type FieldErrorMap = Record<string, string>;

/** A failed form action, as the form renders it. */
export interface ActionFailure {
  message: string;
  fieldErrors: FieldErrorMap;
  formatErrors: FormatProblem[];
}

/** The message for errors that are not the user's (details go to the server log only). */
const GENERIC_FAILURE = "Something went wrong on our side. Please try again.";

/** Field errors as a map from path to the first message per path. */
function fieldErrorMap(errors: readonly FieldError[]): FieldErrorMap {
  const map: FieldErrorMap = {};
  for (const { path, message } of errors) {
    if (!(path in map)) map[path] = message;
  }
  return map;
}

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
function describeActionError(error: unknown, context: string, earlier: readonly FieldError[] = []): ActionFailure {
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
function signedOutFailure(): ActionFailure {
  return { message: "Your session has ended. Please sign in again.", fieldErrors: {}, formatErrors: [] };
}

/**
 * The body of a form's server action: reads the viewer from the session (never from the
 * form), runs `work` as them, and turns a missing session or anything `work` throws into the
 * form's failure state. The services that `work` calls do the authorization checks.
 * Next's own control-flow errors (`redirect()`, `notFound()`) pass through.
 *
 * @param context what is being done, for the server log of unexpected errors
 * @param work the action proper; its result is the form's next state
 * @param failed the form's state for a failure (session ended, or an error from `work`)
 * @param earlier field errors found before `work` ran (see {@link describeActionError})
 */
export async function runAction<S>(
  context: string,
  work: (viewer: Viewer) => Promise<S>,
  failed: (failure: ActionFailure) => S,
  earlier: readonly FieldError[] = [],
): Promise<S> {
  const viewer = await getViewer();
  if (!viewer) return failed(signedOutFailure());
  try {
    return await work(viewer);
  } catch (error) {
    unstable_rethrow(error);
    return failed(describeActionError(error, context, earlier));
  }
}
