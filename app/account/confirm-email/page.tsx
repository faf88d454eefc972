import type { Metadata } from "next";
import { INVALID_EMAIL_CHANGE_LINK, describeEmailChange } from "@/lib/accounts";
import { LinkConfirmationForm } from "../../_components/link-confirmation";
import { LinkConfirmationPage } from "../../_components/link-confirmation-page";
import { confirmEmailChangeAction } from "../actions";

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
    <LinkConfirmationPage
      title="Confirm your new email address"
      invalidMessage={INVALID_EMAIL_CHANGE_LINK}
      form={
        change && (
          <LinkConfirmationForm
            token={token}
            action={confirmEmailChangeAction}
            question={
              <>
                Change your account&apos;s email address to <strong>{change.newEmail}</strong>? You will be signed out everywhere and sign in with the new
                address.
              </>
            }
            submitLabel="Confirm new email address"
            confirmed={{ before: "Your email address is now ", after: ". Every session of your account was signed out.", signInLabel: "Sign in with your new address" }}
          />
        )
      }
    />
  );
}
