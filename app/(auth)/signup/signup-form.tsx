"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Field, Notice, primaryButton } from "../../_components/ui";
import { signUpAction } from "../actions";

/** Sign-up form: creates the account (server action), then signs in and moves on. */
export function SignUpForm({ callbackPath }: { callbackPath: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await signUpAction(formData);
      if (!result.ok) {
        setErrors(result.errors);
        return;
      }
      const signedIn = await signIn("credentials", {
        email: String(formData.get("email") ?? ""),
        password: String(formData.get("password") ?? ""),
        redirect: false,
      });
      if (!signedIn?.ok) {
        setErrors({ form: "Your account was created, but signing in failed. Please sign in." });
        return;
      }
      router.replace(callbackPath);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {errors.form && <Notice kind="error">{errors.form}</Notice>}
      <Field label="Name" name="name" autoComplete="name" required maxLength={100} error={errors.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters."
        error={errors.password}
      />
      <button type="submit" disabled={pending} className={`${primaryButton} w-full`}>
        {pending ? "Creating account…" : "Create account"}
      </button>
    </form>
  );
}
