/**
 * Who is making the request: from the next-auth session cookie (pages, server actions) or a
 * bearer API token (`/api/v1` routes). Server-only.
 *
 * The session cookie is next-auth's encrypted JWT; it only proves who signed in and with which
 * session version. Each call re-reads the user (`getSessionUser`), so a deleted account loses
 * access at once, a role change applies on the next request, and a session ended by sign-out,
 * a password change or "sign out everywhere" is refused from the next request on, even
 * when someone kept a copy of the cookie.
 */
import { cookies } from "next/headers";
import { getToken } from "next-auth/jwt";
import { authSecret, tokenSessionVersion, usesSecureCookies } from "./options";
import { authenticateBearer, getSessionUser, type PublicUser } from "../accounts";
import type { SignedInViewer } from "../permissions";

/** The signed-in user, as pages and services see them. */
export type CurrentUser = PublicUser;

/**
 * A signed-in viewer, `{userId, role}`: `SignedInViewer` from `lib/permissions.ts` (where
 * `Viewer` itself also admits null for anonymous). Kept under this name for the pages.
 */
export type Viewer = SignedInViewer;

/**
 * The user signed in through the session cookie of the current request.
 *
 * Call only where `next/headers` works: server components, server actions, route handlers.
 *
 * @returns `{id, email, name, role}`, or null when nobody is signed in, the cookie is not a
 *   valid session token, the session was revoked, or the account is gone
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const jar = await cookies();
  // Only the cookie: getToken would also take a JWT from an Authorization header.
  const token = await getToken({
    req: { cookies: Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])), headers: {} } as never,
    secret: authSecret(),
    secureCookie: usesSecureCookies(),
  });
  if (!token?.sub) return null;
  return getSessionUser(token.sub, tokenSessionVersion(token));
}

/**
 * The viewer of a request: a bearer token when the request carries an `Authorization`
 * header, else the session cookie.
 *
 * A request with an `Authorization` header is judged by that header alone: a bad or revoked
 * token gives null even when a session cookie is present too.
 *
 * @param request the incoming request (route handlers); omit in server components and actions
 * @returns `{userId, role}`, or null for an anonymous viewer
 */
export async function getViewer(request?: Request): Promise<SignedInViewer | null> {
  const authorization = request?.headers.get("authorization");
  const user = authorization ? await authenticateBearer(authorization) : await getCurrentUser();
  return user ? { userId: user.id, role: user.role } : null;
}
