"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Notice, primaryButton } from "../../_components/ui";
import { confirmAccountAction, type ConfirmAccountState } from "../actions";

/** The confirm button of a sign-up confirmation link; afterwards it points to signing in. */
export function ConfirmAccountForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<ConfirmAccountState, FormData>(confirmAccountAction, { status: "idle" });
  return (
    <div className="space-y-4">
      <div aria-live="polite">
        {state.status === "confirmed" && (
          <Notice kind="success">
            Your e-mail address {state.email} is confirmed: you can now submit runs and create teams.{" "}
            <Link href="/signin?callbackUrl=%2Faccount" className="font-medium underline">
              Sign in
            </Link>
          </Notice>
        )}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
      {state.status !== "confirmed" && (
        <form action={action} className="space-y-3">
          <input type="hidden" name="token" value={token} />
          <p className="text-sm text-zinc-800">
            Confirm that <strong>{email}</strong> is your e-mail address?
          </p>
          <button type="submit" disabled={pending} className={primaryButton}>
            {pending ? "Confirming…" : "Confirm e-mail address"}
          </button>
        </form>
      )}
    </div>
  );
}
