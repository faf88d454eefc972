/**
 * Where to send the user after signing in: only paths on this site, never another origin.
 *
 * @param value a `callbackUrl` from the query string (or anything else)
 * @param fallback used when `value` is missing or unsafe; default "/"
 * @returns a path that starts with a single "/", e.g. "/account"
 */
export function safeCallbackPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  return value;
}
