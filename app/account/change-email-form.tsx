"use client";

import { useActionState } from "react";
import { Field, Notice, primaryButton } from "../_components/ui";
import { requestEmailChangeAction, type ChangeEmailState } from "./actions";

/**
 * The email-change form: the new address and the current password. On success a confirmation
 * link goes to the new address (and a notice to the current one); nothing changes until it is
 * opened and confirmed.
 */
export function ChangeEmailForm() {
  const [state, action, pending] = useActionState<ChangeEmailState, FormData>(requestEmailChangeAction, { status: "idle", attempt: 0 });
  const errors = state.status === "error" ? state.errors : {};
  return (
    <form key={state.attempt} action={action} noValidate className="max-w-sm space-y-4">
      <div aria-live="polite">
        {errors.form && <Notice kind="error">{errors.form}</Notice>}
        {state.status === "sent" && (
          <Notice kind="success">
            We sent a confirmation link to {state.newEmail}. Open it within one hour to switch to that address; until then your address stays the
            same.
          </Notice>
        )}
      </div>
      <Field
        label="New email address"
        name="newEmail"
        type="email"
        autoComplete="email"
        required
        defaultValue={state.status === "error" ? state.value : ""}
        error={errors.newEmail}
      />
      <Field label="Your password, to confirm the change" name="password" id="field-email-password" type="password" autoComplete="current-password" required error={errors.password} />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Sending…" : "Send confirmation link"}
      </button>
    </form>
  );
}
