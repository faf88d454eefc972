// Adds the user id and role to next-auth's Session, and the role and session version to its JWT.
import type { DefaultSession } from "next-auth";
import type { UserRole } from "../generated/prisma/enums";

declare module "next-auth" {
  interface Session {
    user: { id: string; role: UserRole } & DefaultSession["user"];
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: UserRole;
    /** `users.session_version` at sign-in; the token is refused once the user's version moves on. */
    sv?: number;
  }
}
