import type { Metadata } from "next";
import Link from "../../_components/link";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password?" };

/** "Forgot your password?": asks for a reset link by email (`lib/accounts/password-reset.ts`). */
export default function ForgotPasswordPage() {
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mt-2 text-sm text-zinc-600">
        Enter the email address of your account. We will mail it a link to set a new password; the link works once, within
        one hour.
      </p>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <ForgotPasswordForm />
      </div>
      <p className="mt-4 text-sm text-zinc-600">
        Remembered it?{" "}
        <Link href="/signin" className="font-medium text-zinc-900 underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
