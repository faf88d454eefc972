"use client";

import { useState, useTransition, type FormEvent } from "react";
import { Field, Notice, primaryButton } from "../../_components/ui";
import { requestPasswordResetAction } from "../actions";

/**
 * The reset-request form: one email field. The answer is the same sentence whether or not an
 * account uses the address (the server decides; see `requestPasswordReset`).
 */
export function ForgotPasswordForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    setSent(null);
    startTransition(async () => {
      const result = await requestPasswordResetAction(formData);
      if (!result.ok) {
        setErrors(result.errors);
        return;
      }
      setErrors({});
      setSent(result.message);
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      {sent && <Notice kind="success">{sent}</Notice>}
      <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
      <button type="submit" disabled={pending} className={`${primaryButton} w-full`}>
        {pending ? "Sending…" : "Send reset link"}
      </button>
    </form>
  );
}
