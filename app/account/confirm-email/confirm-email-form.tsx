"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Notice, primaryButton } from "../../_components/ui";
import { confirmEmailChangeAction, type ConfirmEmailState } from "../actions";

/** The confirm button of an email change link; afterwards it asks to sign in with the new address. */
export function ConfirmEmailForm({ token, newEmail }: { token: string; newEmail: string }) {
  const [state, action, pending] = useActionState<ConfirmEmailState, FormData>(confirmEmailChangeAction, { status: "idle" });
  return (
    <div className="space-y-4">
      <div aria-live="polite">
        {state.status === "confirmed" && (
          <Notice kind="success">
            Your email address is now {state.email}. Every session of your account was signed out.{" "}
            <Link href="/signin?callbackUrl=%2Faccount" className="font-medium underline">
              Sign in with your new address
            </Link>
          </Notice>
        )}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
      {state.status !== "confirmed" && (
        <form action={action} className="space-y-3">
          <input type="hidden" name="token" value={token} />
          <p className="text-sm text-zinc-800">
            Change your account&apos;s email address to <strong>{newEmail}</strong>? You will be signed out everywhere and sign in with the new
            address.
          </p>
          <button type="submit" disabled={pending} className={primaryButton}>
            {pending ? "Confirming…" : "Confirm new email address"}
          </button>
        </form>
      )}
    </div>
  );
}
