"use client";

import Link from "./link";
import { useActionState, type ReactNode } from "react";
import { Notice, primaryButton } from "./ui";

/** What a link-confirmation server action answers (the sign-up and e-mail-change links). */
export type LinkConfirmationState = { status: "idle" } | { status: "confirmed"; email: string } | { status: "error"; message: string };

/**
 * The Confirm button of a mailed one-time link (`/confirm-account`, `/account/confirm-email`):
 * opening the page changes nothing (mail scanners follow links), the button does. Once
 * confirmed, a success notice `<before><email><after>` with a link to sign in replaces the form.
 *
 * @param token the link's token, sent back in the form's `token` field
 * @param action the server action that redeems it
 * @param question what the button confirms, above it
 * @param submitLabel the button's label (it reads "Confirming…" while pending)
 * @param confirmed the success notice's text around the address, and its sign-in link's label
 */
export function LinkConfirmationForm({
  token,
  action: confirm,
  question,
  submitLabel,
  confirmed,
}: {
  token: string;
  action: (previous: LinkConfirmationState, formData: FormData) => Promise<LinkConfirmationState>;
  question: ReactNode;
  submitLabel: string;
  confirmed: { before: string; after: string; signInLabel: string };
}) {
  const [state, action, pending] = useActionState<LinkConfirmationState, FormData>(confirm, { status: "idle" });
  return (
    <div className="space-y-4">
      <div aria-live="polite">
        {state.status === "confirmed" && (
          <Notice kind="success">
            {confirmed.before}
            {state.email}
            {confirmed.after}{" "}
            <Link href="/signin?callbackUrl=%2Faccount" className="font-medium underline">
              {confirmed.signInLabel}
            </Link>
          </Notice>
        )}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
      {state.status !== "confirmed" && (
        <form action={action} className="space-y-3">
          <input type="hidden" name="token" value={token} />
          <p className="text-sm text-zinc-800">{question}</p>
          <button type="submit" disabled={pending} className={primaryButton}>
            {pending ? "Confirming…" : submitLabel}
          </button>
        </form>
      )}
    </div>
  );
}
