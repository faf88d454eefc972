import type { Metadata } from "next";
import Link from "../../_components/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";
import { safeCallbackPath } from "@/lib/auth/redirect";
import { SignUpForm } from "./signup-form";

export const metadata: Metadata = { title: "Sign up" };

/** Account creation. Signed-in visitors go straight on. */
export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl, "/account");
  if (await getCurrentUser()) redirect(callbackPath);
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Create an account</h1>
      <p className="mt-2 text-sm text-zinc-600">
        Already registered?{" "}
        <Link href={`/signin?callbackUrl=${encodeURIComponent(callbackPath)}`} className="font-medium text-zinc-900 underline">
          Sign in
        </Link>
      </p>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <SignUpForm callbackPath={callbackPath} />
      </div>
    </div>
  );
}
