import type { Metadata } from "next";
import { INVALID_CONFIRMATION_LINK, describeEmailConfirmation } from "@/lib/accounts";
import { LinkConfirmationForm } from "../../_components/link-confirmation";
import { LinkConfirmationPage } from "../../_components/link-confirmation-page";
import { confirmAccountAction } from "../actions";

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
    <LinkConfirmationPage
      title="Confirm your account"
      invalidMessage={INVALID_CONFIRMATION_LINK}
      form={
        found && (
          <LinkConfirmationForm
            token={token}
            action={confirmAccountAction}
            question={
              <>
                Confirm that <strong>{found.email}</strong> is your e-mail address?
              </>
            }
            submitLabel="Confirm e-mail address"
            confirmed={{ before: "Your e-mail address ", after: " is confirmed: you can now submit runs and create teams.", signInLabel: "Sign in" }}
          />
        )
      }
    />
  );
}
