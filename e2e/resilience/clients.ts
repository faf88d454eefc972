/**
 * HTTP clients for the resilience suite, doing what participants and browsers do:
 * - runs are uploaded as participants' scripts upload them: `POST
 *   /api/v1/phases/{id}/submissions` (multipart) with a bearer token;
 * - sign-in goes through next-auth's credentials callback, as the sign-in form does
 *   (`GET /api/auth/csrf`, then `POST /api/auth/callback/credentials`).
 */

/** The answer to an upload. */
export interface UploadResult {
  /** HTTP status; 0 when no answer came (network error, or none within {@link REQUEST_TIMEOUT_MS}) */
  status: number;
  /** the parsed JSON body (or `{ text }` when it was not JSON) */
  body: Record<string, unknown>;
  /** milliseconds from sending to the end of the answer */
  ms: number;
}

/**
 * Uploads a run with `POST /api/v1/phases/{phaseId}/submissions` and a bearer token.
 *
 * @param file the file's bytes, or a Blob (e.g. from `openAsBlob`)
 * @param fields extra form fields (e.g. `team`; `systemName`, default "resilience system")
 */
export async function uploadRun(
  baseUrl: string,
  phaseId: string,
  token: string,
  file: Uint8Array | Blob,
  fileName = "run.conll",
  fields: Record<string, string> = {},
): Promise<UploadResult> {
  const form = new FormData();
  form.append("file", file instanceof Blob ? file : new Blob([new Uint8Array(file)]), fileName);
  form.append("systemName", fields.systemName ?? "resilience system");
  for (const [k, v] of Object.entries(fields)) if (k !== "systemName") form.append(k, v);
  const t0 = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${baseUrl}/api/v1/phases/${phaseId}/submissions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    return { status: 0, body: { error: { code: "no_answer", message: noAnswer(error) } }, ms: performance.now() - t0 };
  }
  const ms = performance.now() - t0;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body, ms };
}

/** How long a client waits for an answer before it gives up (status 0). */
export const REQUEST_TIMEOUT_MS = 120_000;

/** Why a request got no answer, e.g. "no answer within 120 s" or the network error. */
function noAnswer(error: unknown, timeoutMs = REQUEST_TIMEOUT_MS): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `no answer: ${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** The `error` object of a JSON error answer (`{ error: { code, message, … } }`), if any. */
export function errorOf(result: UploadResult): { code?: string; message?: string; errors?: unknown[] } | undefined {
  const error = result.body.error;
  return error && typeof error === "object" ? (error as { code?: string; message?: string; errors?: unknown[] }) : undefined;
}

/** A next-auth CSRF token with the cookie that must come with it. */
export interface Csrf {
  token: string;
  cookie: string;
}

/** Gets a CSRF token and its cookie from `GET /api/auth/csrf`. */
export async function getCsrf(baseUrl: string): Promise<Csrf> {
  const response = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { token: csrfToken, cookie };
}

/** The outcome of one sign-in attempt. */
export interface SignInResult {
  /** HTTP status; 0 when no answer came (then `error` says why) */
  status: number;
  /** whether a session cookie was set (the sign-in succeeded) */
  signedIn: boolean;
  /** the `error` parameter of the URL next-auth sends back (e.g. "CredentialsSignin" or a lockout message) */
  error: string | null;
  ms: number;
}

/**
 * One sign-in attempt through next-auth's credentials callback, as the sign-in form makes it
 * (`POST /api/auth/callback/credentials`, form-encoded, `json=true`).
 *
 * @param timeoutMs how long to wait for the answer (default {@link REQUEST_TIMEOUT_MS});
 *   without one, the result has status 0 and the reason in `error`
 */
export async function signIn(baseUrl: string, csrf: Csrf, email: string, password: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<SignInResult> {
  const t0 = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: csrf.cookie },
      body: new URLSearchParams({ csrfToken: csrf.token, email, password, callbackUrl: `${baseUrl}/`, json: "true" }),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    return { status: 0, signedIn: false, error: noAnswer(error, timeoutMs), ms: performance.now() - t0 };
  }
  const ms = performance.now() - t0;
  const signedIn = response.headers.getSetCookie().some((c) => /session-token=[^;]+/.test(c));
  let url = response.headers.get("location") ?? "";
  try {
    url = ((JSON.parse(text) as { url?: string }).url ?? url) || url;
  } catch {
    // not JSON: the Location header says where it went
  }
  let error: string | null = null;
  try {
    error = url ? new URL(url, baseUrl).searchParams.get("error") : null;
  } catch {
    error = null;
  }
  return { status: response.status, signedIn, error, ms };
}
