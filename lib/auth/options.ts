/**
 * next-auth (v4) configuration: email + password sign-in (Credentials provider), sessions in a
 * signed JWT cookie (no session table), the user's id and role carried in the token.
 *
 * The secret comes from `NEXTAUTH_SECRET`; `scripts/serve.ts` validates it with `loadEnv()` and
 * passes it on. Outside production a development secret is used when it is unset.
 */
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { DEV_NEXTAUTH_SECRET } from "../env";
import { verifyCredentials, type UserRole } from "../services/users";

/** Sessions last 30 days; the cookie is refreshed at most once a day. */
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The signing secret: `NEXTAUTH_SECRET`, else (not in production) the development secret.
 *
 * @returns undefined in production without a secret; next-auth then refuses to run
 */
export function authSecret(): string | undefined {
  return process.env.NEXTAUTH_SECRET || (process.env.NODE_ENV === "production" ? undefined : DEV_NEXTAUTH_SECRET);
}

/** The options passed to `NextAuth()` and `getServerSession()`. */
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
      async authorize(credentials) {
        if (typeof credentials?.email !== "string" || typeof credentials.password !== "string") return null;
        return verifyCredentials(credentials.email, credentials.password);
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // `user` is set only at sign-in: copy what the session needs into the token.
      if (user) {
        token.sub = user.id;
        token.role = (user as { role?: UserRole }).role ?? "USER";
        token.name = user.name;
        token.email = user.email;
      }
      return token;
    },
    session({ session, token }) {
      session.user = {
        id: token.sub ?? "",
        role: (token.role as UserRole | undefined) ?? "USER",
        name: token.name ?? null,
        email: token.email ?? null,
      };
      return session;
    },
  },
};
