"use client";

import { useActionState } from "react";
import { Notice, secondaryButton } from "../_components/ui";
import { resendConfirmationAction, type ResendConfirmationState } from "./confirmation-actions";

/**
 * The account page's "confirm your e-mail" notice for an unconfirmed account, with a button
 * that mails a new confirmation link (a few an hour).
 */
export function ConfirmEmailNotice({ email }: { email: string }) {
  const [state, action, pending] = useActionState<ResendConfirmationState, FormData>(resendConfirmationAction, { status: "idle" });
  return (
    <div className="space-y-3" data-testid="confirm-email-notice">
      <Notice kind="info">
        Please confirm your e-mail address {email}: open the link in the mail we sent you when you signed up. Until then you can
        sign in, but not submit runs or create teams.
      </Notice>
      <div aria-live="polite">
        {state.status === "sent" && <Notice kind="success">We have sent a new confirmation link to {state.email}. Earlier links no longer work.</Notice>}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
      <form action={action}>
        <button type="submit" disabled={pending} className={secondaryButton}>
          {pending ? "Sending…" : "Send a new confirmation link"}
        </button>
      </form>
    </div>
  );
}
