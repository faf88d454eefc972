/**
 * Shared helpers for the `/api/v1` route handlers: JSON answers (always `Cache-Control:
 * no-store`), mapping thrown errors to JSON error answers, bounded request bodies
 * (multipart uploads and JSON), and query-string validation with zod.
 *
 * Every answer of `/api/v1` is JSON (or the CSV a client asked for), errors included:
 * `{"error": {"code", "message", ...details}}`. Errors other than `DomainError`s are logged
 * here and answered with a generic 500; their messages are never sent, so nothing internal
 * (and never gold content) reaches a client through an error.
 */
import type { z } from "zod";
import { loadEnv } from "../env";
import { errorResponseBody, ForbiddenError, isDomainError, TooLargeError, UnauthorizedError, ValidationError } from "../errors";
import type { Viewer } from "../permissions";
import { getViewer } from "../auth/session";
import { formatMegabytes } from "../units";
import { parseInput } from "../validations/parse";

/** Headers every `/api/v1` answer carries: answers depend on who asks, so nothing is cached. */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { "Cache-Control": "no-store" };

/**
 * Extra bytes allowed on top of the file limit for the multipart envelope (boundaries, part
 * headers, and the metadata fields: system name, description up to 5000 characters, URLs).
 */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/** Largest accepted JSON request body (phase changes and the like). */
export const JSON_MAX_BYTES = 256 * 1024;

/**
 * An HTTP-level problem that is not a domain error (bad content type, malformed JSON or
 * multipart). Answered with its status and `{"error": {"code", "message"}}`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * A JSON answer with `Cache-Control: no-store`.
 *
 * @param body any JSON-serializable value (Dates become ISO 8601 strings)
 * @param init status (default 200) and extra headers
 */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE_HEADERS, ...init.headers },
  });
}

/**
 * An unexpected error for the server log: its name, the start of its message and its stack
 * frames. The message is cut because database client errors can quote a query's arguments,
 * which for a gold upload would be gold content; the log must not carry it.
 */
function describeForLog(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const frames = (error.stack ?? "").split("\n").filter((line) => line.trimStart().startsWith("at "));
  return [`${error.name}: ${error.message.slice(0, 200)}`, ...frames.slice(0, 12)].join("\n");
}

/**
 * The JSON error answer for anything a handler threw.
 *
 * - `DomainError`: its status and `errorResponseBody` body. For a file that could not be
 *   read, the body also lists the problems as `errors: [{file, line, column, expected,
 *   found, message}]` (the documented API shape; `formatErrors` carries the same list).
 *   When its details carry `retryAfterSeconds` (rate limits, a busy server), the answer has
 *   a `Retry-After` header with that many seconds (at least 1).
 * - {@link HttpError}: its status, code and message.
 * - Anything else: logged, then a generic 500 (the error's message is not sent).
 *
 * @param error what was caught
 * @param context what was being done, for the log line (e.g. "POST /api/v1/phases/:id/submissions")
 */
export function errorResponse(error: unknown, context = "api"): Response {
  if (error instanceof HttpError) {
    return jsonResponse({ error: { code: error.code, message: error.message } }, { status: error.status });
  }
  if (!isDomainError(error)) console.error(`${context}: unexpected error: ${describeForLog(error)}`);
  const { status, body } = errorResponseBody(error);
  if (error instanceof ValidationError && error.formatErrors.length > 0) {
    body.error.errors = error.formatErrors;
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="corefboard"';
  const retryAfter = isDomainError(error) ? error.details?.retryAfterSeconds : undefined;
  if (typeof retryAfter === "number" && Number.isFinite(retryAfter)) headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfter)));
  return jsonResponse(body, { status, headers });
}

/**
 * The caller of an API request: the bearer token's owner, else the session cookie's user,
 * else anonymous (null).
 *
 * A request that sends an `Authorization` header is judged by it alone: a missing,
 * malformed, unknown or revoked token is refused rather than treated as anonymous, so a
 * script with a bad token gets a clear 401 instead of a confusing 404 or an anonymous view.
 *
 * Requests that change something (not GET/HEAD) and rely on the session cookie must come
 * from this site: a browser's `Origin` header, when sent, must be the site's own (request
 * host or NEXTAUTH_URL), so another site cannot submit on a signed-in user's behalf (CSRF;
 * the cookie's SameSite=Lax already blocks this in current browsers).
 *
 * @throws UnauthorizedError (401) for an `Authorization` header that does not authenticate;
 *   ForbiddenError (403) for a cross-site cookie-authenticated change
 */
export async function apiViewer(request: Request): Promise<Viewer> {
  const hasAuthorization = request.headers.has("authorization");
  if (!hasAuthorization && request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
  const viewer = await getViewer(request);
  if (!viewer && hasAuthorization) {
    throw new UnauthorizedError("The API token is malformed, unknown or revoked. Send Authorization: Bearer <token> with a token from your account page.");
  }
  return viewer;
}

/** @throws ForbiddenError (403) when the request's `Origin` is another site's (see {@link apiViewer}) */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = "";
  }
  const allowed = new Set([request.headers.get("host"), new URL(loadEnv().NEXTAUTH_URL).host]);
  if (!allowed.has(host)) {
    throw new ForbiddenError("Cross-site requests are not accepted. Use an API token (Authorization: Bearer <token>) from scripts.");
  }
}

/** The second argument Next passes to a route handler of a dynamic route. */
export interface RouteContext<P extends Record<string, string | string[]>> {
  params: Promise<P>;
}

/**
 * Wraps a route handler so that anything it throws becomes a JSON error answer
 * ({@link errorResponse}).
 *
 * @param context a label for log lines, e.g. "GET /api/v1/tasks"
 * @param handler the handler proper
 * @returns a handler with the same signature
 */
export function apiRoute<C>(context: string, handler: (request: Request, ctx: C) => Promise<Response>): (request: Request, ctx: C) => Promise<Response> {
  return async (request, ctx) => {
    try {
      return await handler(request, ctx);
    } catch (error) {
      return errorResponse(error, context);
    }
  };
}

/** Limits of a request body: `maxBytes` is the limit people are told about; `allowance` extra bytes are accepted on top (e.g. the multipart envelope around a file). */
export interface BodyLimit {
  maxBytes: number;
  allowance?: number;
  /** the noun for the message: "file" for uploads (default "request body") */
  what?: string;
}

function tooLarge(size: number, limit: BodyLimit, exact: boolean): TooLargeError {
  const what = limit.what ?? "request body";
  const shown = exact ? formatMegabytes(size) : `over ${formatMegabytes(limit.maxBytes + (limit.allowance ?? 0))}`;
  return new TooLargeError(`The upload is ${shown}; the largest accepted ${what} is ${formatMegabytes(limit.maxBytes)}.`, { maxBytes: limit.maxBytes, size });
}

/**
 * Throws when the request declares (`Content-Length`) a body larger than the limit plus its
 * allowance. Call it before reading the body, so that an oversized upload is refused
 * without reading it.
 *
 * @throws TooLargeError (413) stating the declared size and the limit in MB
 */
export function assertContentLength(request: Request, limit: BodyLimit): void {
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared.trim())) return;
  const size = Number(declared);
  if (size > limit.maxBytes + (limit.allowance ?? 0)) throw tooLarge(size, limit, true);
}

/**
 * Reads the request body, at most the limit plus its allowance. Checks `Content-Length`
 * first, then counts the bytes as they arrive (a chunked body has no declared length) and
 * stops reading as soon as the limit is passed.
 *
 * @returns the body (empty for a request without one)
 * @throws TooLargeError (413) when the body is too large
 */
export async function readBodyLimited(request: Request, limit: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  assertContentLength(request, limit);
  const max = limit.maxBytes + (limit.allowance ?? 0);
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(total, limit, false);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a `multipart/form-data` body within `limit` and parses it with the platform's
 * parser (`Response.formData()`, undici).
 *
 * @throws HttpError 415 for another content type, 400 for a malformed body;
 *   TooLargeError (413) for a body over the limit
 */
export async function readMultipart(request: Request, limit: BodyLimit): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new HttpError(415, "unsupported_media_type", "Send the upload as multipart/form-data (e.g. curl -F file=@system.conll -F systemName=...).");
  }
  const body = await readBodyLimited(request, limit);
  try {
    return await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "bad_request", "The multipart/form-data body could not be read.");
  }
}

/**
 * Reads a JSON request body of at most `maxBytes` (default {@link JSON_MAX_BYTES}).
 *
 * @returns the parsed value (validate it with zod before use)
 * @throws HttpError 415 unless the content type is JSON, 400 for malformed JSON;
 *   TooLargeError (413)
 */
export async function readJson(request: Request, maxBytes: number = JSON_MAX_BYTES): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new HttpError(415, "unsupported_media_type", "Send a JSON body with Content-Type: application/json.");
  }
  const body = await readBodyLimited(request, { maxBytes });
  try {
    return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch {
    throw new HttpError(400, "bad_request", "The request body is not valid JSON.");
  }
}

/**
 * Validates a request's query string with a zod object schema. Each parameter is given as
 * its first value (a string); absent parameters are absent.
 *
 * @throws ValidationError (422) with one field error per bad parameter
 */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  const input: Record<string, string> = {};
  for (const key of new Set(params.keys())) input[key] = params.get(key)!;
  return parseInput(schema, input, "query");
}

/**
 * A text field of a multipart form: its value, or undefined when absent.
 *
 * @throws ValidationError (422) when the field holds a file instead of text
 */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== "string") throw ValidationError.field(name, `${name} must be a text field, not a file.`);
  return value;
}

/**
 * The file field of a multipart form.
 *
 * @throws ValidationError (422) when the field is missing or is not a file
 */
export function formFile(form: FormData, name: string): File {
  const value = form.get(name);
  if (value === null) throw ValidationError.field(name, `Attach the file to score as the "${name}" field.`);
  if (typeof value === "string") throw ValidationError.field(name, `"${name}" must be a file upload (e.g. curl -F ${name}=@system.conll).`);
  return value;
}
