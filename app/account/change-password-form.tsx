"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { NewPasswordFields } from "../_components/new-password-fields";
import { Field, Notice, primaryButton } from "../_components/ui";
import { changePasswordAction } from "./actions";

/**
 * The password-change form: current password, new password twice. On success every session
 * of the account has ended (server side); this browser signs in again at once with the new
 * password, so it stays signed in.
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [changed, setChanged] = useState(false);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const formData = new FormData(form);
    setChanged(false);
    startTransition(async () => {
      const result = await changePasswordAction(formData);
      if (!result.ok) {
        setErrors(result.errors);
        return;
      }
      setErrors({});
      form.reset();
      const signedIn = await signIn("credentials", { email, password: String(formData.get("newPassword") ?? ""), redirect: false });
      if (!signedIn?.ok || signedIn.error) {
        // The password did change; only this browser's new session is missing.
        router.replace("/signin?callbackUrl=%2Faccount");
        return;
      }
      setChanged(true);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-sm space-y-4">
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      {changed && <Notice kind="success">Your password was changed. Every other session has been signed out.</Notice>}
      <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={errors.currentPassword} />
      <NewPasswordFields errors={errors} />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}
