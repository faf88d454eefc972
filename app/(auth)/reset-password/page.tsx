import type { Metadata } from "next";
import Link from "../../_components/link";
import { Notice } from "../../_components/ui";
import { INVALID_RESET_LINK, isPasswordResetTokenUsable } from "@/lib/accounts";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Set a new password", robots: { index: false, follow: false } };

/**
 * The page a reset link opens (`/reset-password?token=…`): the new-password form while the
 * link works, else the reason and a way to ask for a new link. Looking at the page uses
 * nothing up; only setting the password does.
 */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const usable = token !== "" && (await isPasswordResetTokenUsable(token));
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Set a new password</h1>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        {usable ? (
          <ResetPasswordForm token={token} />
        ) : (
          <div className="space-y-4">
            <Notice kind="error">{INVALID_RESET_LINK}</Notice>
            <p className="text-sm">
              <Link href="/forgot-password" className="font-medium text-zinc-900 underline">
                Ask for a new link
              </Link>
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
