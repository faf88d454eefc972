"use server";

import { isDomainError } from "@/lib/errors";
import { resendEmailConfirmation } from "@/lib/accounts";
import { getViewer } from "@/lib/auth/session";

/** State of the account page's "send a new confirmation link" button. */
export type ResendConfirmationState = { status: "idle" } | { status: "sent"; email: string } | { status: "error"; message: string };

/**
 * Mails the signed-in user a new confirmation link (the earlier ones stop working). Limited to
 * a few links an hour per account.
 *
 * @returns `sent` with the address, or `error`: "Please sign in …" (no session), "… already
 *   confirmed.", "You asked for 3 confirmation links in the last hour. Try again at 14:05
 *   (UTC).", or the mail could not be sent
 */
export async function resendConfirmationAction(_previous: ResendConfirmationState, _formData: FormData): Promise<ResendConfirmationState> {
  const viewer = await getViewer();
  if (!viewer) return { status: "error", message: "Your session has ended. Please sign in again." };
  try {
    const { email } = await resendEmailConfirmation(viewer);
    return { status: "sent", email };
  } catch (error) {
    if (isDomainError(error)) return { status: "error", message: error.message };
    console.error("sending a new confirmation link failed", error);
    return { status: "error", message: "Something went wrong on our side. Please try again." };
  }
}
