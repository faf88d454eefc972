/**
 * next-auth (v4) configuration: email + password sign-in (Credentials provider), sessions in a
 * signed, encrypted JWT cookie (no session table), the user's id, role and session version
 * carried in the token.
 *
 * - Sign-in goes through `verifyCredentials` (`lib/accounts/users.ts`): rate limited per
 *   email and per client address before any hashing. A refusal is thrown as an Error whose
 *   message is a sentence for a person ("Too many sign-in attempts … Try again at 14:05
 *   (UTC)."), after a delay (`SIGN_IN_REFUSAL_DELAY_MS`, 1 s); next-auth hands it to the
 *   client as `error` of `signIn()`, and the sign-in form shows it. Unexpected failures are
 *   logged and answered with a generic sentence.
 * - Revocation: the token carries `sv`, the user's session version at sign-in. Every request
 *   that resolves the viewer re-reads the user and refuses a token whose version is no longer
 *   the user's (`getCurrentUser` in `lib/auth/session.ts`, and the session callback here, which
 *   serves `/api/auth/session`). Signing out bumps the version (`events.signOut`), so a copy
 *   of the cookie dies with it.
 *
 * The secret comes from `NEXTAUTH_SECRET`; `scripts/serve.ts` validates it with `loadEnv()` and
 * passes it on. Outside production a development secret is used when it is unset.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { AuthOptions, Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { DEV_NEXTAUTH_SECRET } from "../env";
import { RateLimitedError } from "../errors";
import { safeRedirectUrl } from "./redirect";
import { clientAddress, signInRefusalDelayMs, type HeaderSource } from "../rate-limit";
import { getSessionUser, revokeSessions, verifyCredentials, type SignedInUser, type UserRole } from "../accounts";

/** Sessions last 30 days; the cookie is refreshed at most once a day. */
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/** Shown when sign-in fails for a reason other than the credentials or a rate limit. */
export const SIGN_IN_UNAVAILABLE = "Signing in is not possible right now. Please try again in a minute.";

/**
 * The signing secret: `NEXTAUTH_SECRET`, else (not in production) the development secret.
 *
 * @returns undefined in production without a secret; next-auth then refuses to run
 */
export function authSecret(): string | undefined {
  return process.env.NEXTAUTH_SECRET || (process.env.NODE_ENV === "production" ? undefined : DEV_NEXTAUTH_SECRET);
}

/**
 * Whether the session cookie is a `__Secure-` cookie with the `Secure` flag: as next-auth
 * decides it, from `useSecureCookies` or else an https `NEXTAUTH_URL`.
 */
export function usesSecureCookies(): boolean {
  return authOptions.useSecureCookies ?? (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
}

/** The version a token carries; tokens from before session versions count as 0. */
export function tokenSessionVersion(token: { sv?: unknown }): number {
  return typeof token.sv === "number" ? token.sv : 0;
}

/** The options passed to `NextAuth()`. */
export const authOptions: AuthOptions = {
  get secret() {
    return authSecret();
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S, updateAge: 24 * 3600 },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        if (typeof credentials?.email !== "string" || typeof credentials.password !== "string") return null;
        const address = clientAddress((req?.headers ?? {}) as HeaderSource);
        try {
          return await verifyCredentials(credentials.email, credentials.password, address);
        } catch (error) {
          if (error instanceof RateLimitedError) {
            // Answer refusals slowly (a timer, no CPU), so a fast retry loop cannot crowd out
            // the pages (lib/rate-limit.ts).
            await sleep(signInRefusalDelayMs());
            throw new Error(error.message);
          }
          console.error("sign-in failed:", error);
          throw new Error(SIGN_IN_UNAVAILABLE);
        }
      },
    }),
  ],
  callbacks: {
    // Every URL next-auth redirects to (after signing in or out, the sign-in page's
    // callbackUrl) is a path of this site, safe in a Location header (lib/auth/redirect.ts).
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl);
    },
    jwt({ token, user }) {
      // `user` is set only at sign-in: copy what the session needs into the token.
      if (user) {
        const signedIn = user as unknown as SignedInUser;
        token.sub = signedIn.id;
        token.role = signedIn.role ?? "USER";
        token.name = signedIn.name;
        token.email = signedIn.email;
        token.sv = signedIn.sessionVersion ?? 0;
      }
      return token;
    },
    async session({ session, token }) {
      // The token only proves who signed in, and with which session version: re-read the
      // user, and answer "no user" for a revoked session or a deleted account.
      const user = token.sub ? await getSessionUser(token.sub, tokenSessionVersion(token)) : null;
      if (!user) return { expires: session.expires } as Session;
      session.user = { id: user.id, role: user.role as UserRole, name: user.name, email: user.email };
      return session;
    },
  },
  events: {
    async signOut({ token }) {
      // Ends every session of the user, copies of this cookie included. A token that is
      // already revoked changes nothing.
      if (token?.sub) await revokeSessions(token.sub, tokenSessionVersion(token));
    },
  },
};
