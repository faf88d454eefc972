import type { Metadata } from "next";
import Link from "next/link";
import { INVALID_CONFIRMATION_LINK, describeEmailConfirmation } from "../../../lib/services/email-confirmation";
import { Notice } from "../../_components/ui";
import { ConfirmAccountForm } from "./confirm-account-form";

export const metadata: Metadata = { title: "Confirm your account", robots: { index: false, follow: false } };

/**
 * The page a sign-up confirmation link opens (`/confirm-account?token=…`): the address and a
 * Confirm button while the link works, else why not. Opening the page changes nothing (mail
 * scanners follow links); the button does. No session needed: the link proves the mail was read.
 */
export default async function ConfirmAccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const found = token ? await describeEmailConfirmation(token) : null;
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">Confirm your account</h1>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        {found ? (
          <ConfirmAccountForm token={token} email={found.email} />
        ) : (
          <div className="space-y-4">
            <Notice kind="error">{INVALID_CONFIRMATION_LINK}</Notice>
            <p className="text-sm">
              <Link href="/account" className="font-medium text-zinc-900 underline">
                Your account
              </Link>
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
