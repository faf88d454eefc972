/** next-auth's endpoints (/api/auth/signin, /callback/credentials, /session, /csrf, /signout, …). */
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
