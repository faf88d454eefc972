"use client";

import Link from "../../_components/link";
import { useState, useTransition, type FormEvent } from "react";
import { NewPasswordFields } from "../../_components/new-password-fields";
import { Notice, primaryButton } from "../../_components/ui";
import { resetPasswordAction } from "../actions";

/**
 * The new-password form of a reset link: the new password twice, the token in a hidden
 * field. On success every session of the account has ended, and the person signs in with the
 * new password.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await resetPasswordAction(formData);
      if (!result.ok) {
        setErrors(result.errors);
        return;
      }
      setErrors({});
      setDone(true);
    });
  }

  if (done) {
    return (
      <div className="space-y-4">
        <Notice kind="success">Your password has been changed, and every session of your account has been signed out.</Notice>
        <p className="text-sm">
          <Link href="/signin" className="font-medium text-zinc-900 underline">
            Sign in with your new password
          </Link>
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      {errors.token && (
        <Notice kind="error">
          {errors.token}{" "}
          <Link href="/forgot-password" className="font-medium underline">
            Ask for a new link
          </Link>
        </Notice>
      )}
      <input type="hidden" name="token" value={token} />
      <NewPasswordFields errors={errors} />
      <button type="submit" disabled={pending} className={`${primaryButton} w-full`}>
        {pending ? "Setting…" : "Set new password"}
      </button>
    </form>
  );
}
