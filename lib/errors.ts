/**
 * Typed domain errors thrown by the domain modules (`lib/tasks/`, `lib/runs/`, `lib/boards/`, …) and `lib/permissions.ts`.
 *
 * Route handlers turn any `DomainError` into an HTTP answer with {@link errorResponseBody}
 * and `error.httpStatus`; anything else is a bug and becomes a 500 without details.
 *
 * Messages are written for a person (they may be shown as is) and never contain gold-key
 * content: a FormatError of a gold key is only ever reported to the organizer who uploaded it.
 */

/** Machine-readable error codes, stable across versions (API clients switch on them). */
export type DomainErrorCode =
  | "not_found"
  | "forbidden"
  | "unauthorized"
  | "validation"
  | "phase_closed"
  | "quota_exceeded"
  | "too_large"
  | "rate_limited"
  | "service_busy"
  | "conflict"
  | "gone";

/** One problem with one input field; `path` is the field name, dotted for nested fields. */
export interface FieldError {
  path: string;
  message: string;
}

/** A file-format problem as `FormatError.toJSON()` gives it (1-based line and column). */
export interface FormatProblem {
  file: string;
  line: number;
  column: number;
  expected: string;
  found: string;
  message: string;
}

/** Base class: a code, an HTTP status, a person-readable message and optional JSON details. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    readonly httpStatus: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The JSON body of an HTTP error answer: `{error: {code, message, ...details}}`. */
  toJSON(): { error: { code: DomainErrorCode; message: string } & Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

/**
 * 404. Also used when the viewer may not know that the thing exists (e.g. another team's
 * private submission), so the answer is the same as for an id that does not exist.
 */
export class NotFoundError extends DomainError {
  constructor(message = "Not found.") {
    super("not_found", 404, message);
  }
}

/**
 * 410: a one-time link (invitation, confirmation) that existed but no longer works: revoked,
 * expired or already used. The message says which. A token that never existed is a 404.
 */
export class GoneError extends DomainError {
  constructor(message = "This link no longer works.") {
    super("gone", 410, message);
  }
}

/** 403: the viewer is known but not allowed to do this. */
export class ForbiddenError extends DomainError {
  constructor(message = "You are not allowed to do this.") {
    super("forbidden", 403, message);
  }
}

/** 401: signing in is required (or might grant access). */
export class UnauthorizedError extends DomainError {
  constructor(message = "Please sign in first.") {
    super("unauthorized", 401, message);
  }
}

/**
 * 422: the input is well-formed HTTP but wrong. `fieldErrors` for form fields,
 * `formatErrors` for an uploaded file that could not be read (with line and column).
 */
export class ValidationError extends DomainError {
  readonly fieldErrors: FieldError[];
  readonly formatErrors: FormatProblem[];

  constructor(message: string, options: { fieldErrors?: FieldError[]; formatErrors?: FormatProblem[] } = {}) {
    const fieldErrors = options.fieldErrors ?? [];
    const formatErrors = options.formatErrors ?? [];
    super("validation", 422, message, {
      ...(fieldErrors.length > 0 ? { fieldErrors } : {}),
      ...(formatErrors.length > 0 ? { formatErrors } : {}),
    });
    this.fieldErrors = fieldErrors;
    this.formatErrors = formatErrors;
  }

  /** A validation error about one field; the message is `message`. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(message, { fieldErrors: [{ path, message }] });
  }
}

/**
 * 409 Conflict: the phase is not accepting submissions now. 409 rather than 403 because the
 * request is allowed in principle and becomes valid (or stays invalid) with time, not with
 * other credentials; clients should not retry with another account.
 */
export class PhaseClosedError extends DomainError {
  constructor(message: string, details: { opensAt: string; closesAt: string }) {
    super("phase_closed", 409, message, details);
  }
}

/** 429: the team used up its daily or total submissions for the phase. */
export class QuotaExceededError extends DomainError {
  constructor(message: string, details: { limit: "daily" | "total"; resetsAt?: string }) {
    super("quota_exceeded", 429, message, details);
  }
}

/** 413: the upload is larger than the configured limit. */
export class TooLargeError extends DomainError {
  constructor(message: string, details: { maxBytes: number; size: number }) {
    super("too_large", 413, message, details);
  }
}

/**
 * 429: too many attempts of one kind (sign-in per account or per address, team creation per
 * user) in the current window (`lib/rate-limit.ts`). The message says when to try again
 * ("… Try again at 14:05 (UTC)."); `retryAt` is that instant (ISO 8601) and
 * `retryAfterSeconds` the wait, which API answers also send as `Retry-After`.
 */
export class RateLimitedError extends DomainError {
  constructor(message: string, details: { retryAt: string; retryAfterSeconds: number }) {
    super("rate_limited", 429, message, details);
  }
}

/**
 * 503: the server is busy with this kind of work (e.g. every upload-checking thread is taken
 * and the waiting line is full, `lib/upload-pool/`). Nothing was stored and nothing counted;
 * `retryAfterSeconds` is a suggested wait, which API answers also send as `Retry-After`.
 */
export class ServiceBusyError extends DomainError {
  constructor(message: string, details: { retryAfterSeconds: number }) {
    super("service_busy", 503, message, details);
  }
}

/**
 * 409 Conflict: the request is valid but needs the client's confirmation before it takes
 * effect, e.g. an upload whose document names do not match the gold key on a phase that
 * warns (`lib/uploads/checks.ts`). Nothing was stored and nothing counted; `details` say
 * what to confirm and how to resend (e.g. `warnings` and `acknowledgeWith`).
 */
export class ConflictError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("conflict", 409, message, details);
  }
}

/** True for any {@link DomainError} subclass instance. */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * The HTTP status and JSON body for an error thrown by a service.
 *
 * @param error anything caught in a route handler
 * @returns the domain error's status and body; for any other error 500 and a generic body
 *   (the error itself must be logged by the caller, never sent)
 */
export function errorResponseBody(error: unknown): { status: number; body: { error: { code: string; message: string } & Record<string, unknown> } } {
  if (isDomainError(error)) return { status: error.httpStatus, body: error.toJSON() };
  return { status: 500, body: { error: { code: "internal", message: "Something went wrong on our side. Please try again later." } } };
}
