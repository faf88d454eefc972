import type { Metadata } from "next";
import Link from "next/link";
import { INVALID_EMAIL_CHANGE_LINK, describeEmailChange } from "../../../lib/services/account";
import { Notice } from "../../_components/ui";
import { ConfirmEmailForm } from "./confirm-email-form";

export const metadata: Metadata = { title: "Confirm your new email address", robots: { index: false, follow: false } };

/**
 * The page an email-change link opens (`/account/confirm-email?token=…`): the new address and
 * a Confirm button while the link works, else why not. Opening the page changes nothing (mail
 * scanners follow links); the button does. No session needed: the link proves the mail was read.
 */
export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const change = token ? await describeEmailChange(token) : null;
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">Confirm your new email address</h1>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        {change ? (
          <ConfirmEmailForm token={token} newEmail={change.newEmail} />
        ) : (
          <div className="space-y-4">
            <Notice kind="error">{INVALID_EMAIL_CHANGE_LINK}</Notice>
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
