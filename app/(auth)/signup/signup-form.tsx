"use client";

import Link from "../../_components/link";
import { useState, useTransition, type FormEvent } from "react";
import { Field, Notice, primaryButton } from "../../_components/ui";
import { signUpAction } from "../actions";

/**
 * Sign-up form: asks the server action to sign up, then shows its one answer ("Check your
 * e-mail …"), the same whether or not the address was registered. Nobody is signed in: the
 * person confirms the address from the mail, then signs in.
 */
export function SignUpForm({ callbackPath }: { callbackPath: string }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
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
      setErrors({});
      setDone(result.message);
    });
  }

  if (done) {
    return (
      <div className="space-y-4" aria-live="polite">
        <Notice kind="success">{done}</Notice>
        <p className="text-sm">
          <Link href={`/signin?callbackUrl=${encodeURIComponent(callbackPath)}`} className="font-medium text-zinc-900 underline">
            Go to sign in
          </Link>
        </p>
      </div>
    );
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
