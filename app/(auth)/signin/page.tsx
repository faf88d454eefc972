import type { Metadata } from "next";
import Link from "../../_components/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";
import { safeCallbackPath } from "@/lib/auth/redirect";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };

/** next-auth error codes that can land here (pages.signIn), as messages. */
const ERRORS: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  SessionRequired: "Please sign in to see that page.",
};

/** Sign-in page (next-auth's custom `pages.signIn`). Signed-in visitors go straight on. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl, "/");
  if (await getCurrentUser()) redirect(callbackPath);
  const errorCode = typeof params.error === "string" ? params.error : undefined;
  const initialError = errorCode ? (ERRORS[errorCode] ?? "Signing in failed. Please try again.") : undefined;
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-2 text-sm text-zinc-600">
        New here?{" "}
        <Link href={`/signup?callbackUrl=${encodeURIComponent(callbackPath)}`} className="font-medium text-zinc-900 underline">
          Create an account
        </Link>
      </p>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <SignInForm callbackPath={callbackPath} initialError={initialError} />
      </div>
    </div>
  );
}
