"use client";

import { signOut } from "next-auth/react";
import { useActionState, useEffect } from "react";
import { CheckboxField, Field, Notice } from "../_components/ui";
import { deleteAccountAction, type DeleteAccountState } from "./actions";

const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white shadow-sm " +
  "hover:bg-red-600 focus:outline-none focus:ring-2 focus:ring-red-300 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * The delete-account form: the current password and a confirmation checkbox. On success the
 * account is gone (server side) and this browser's session cookie is cleared, landing on the
 * home page.
 */
export function DeleteAccountForm() {
  const [state, action, pending] = useActionState<DeleteAccountState, FormData>(deleteAccountAction, { status: "idle", attempt: 0 });
  const errors = state.status === "error" ? state.errors : {};
  useEffect(() => {
    if (state.status === "deleted") void signOut({ callbackUrl: "/" });
  }, [state]);
  return (
    <form key={state.attempt} action={action} noValidate className="max-w-sm space-y-4">
      <div aria-live="polite">
        {errors.form && <Notice kind="error">{errors.form}</Notice>}
        {state.status === "deleted" && <Notice kind="success">Your account was deleted. Signing you out…</Notice>}
      </div>
      <Field label="Your password, to confirm the deletion" name="password" id="field-delete-password" type="password" autoComplete="current-password" required error={errors.password} />
      <CheckboxField label="I understand that my account is deleted for good" name="confirm" required error={errors.confirm} />
      <button type="submit" disabled={pending || state.status === "deleted"} className={dangerButton}>
        {pending ? "Deleting…" : "Delete account"}
      </button>
    </form>
  );
}
