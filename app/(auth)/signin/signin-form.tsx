"use client";

import { signIn } from "next-auth/react";
import Link from "../../_components/link";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Field, Notice, primaryButton } from "../../_components/ui";

/**
 * What to show for the `error` of next-auth's `signIn()`: "CredentialsSignin" is a wrong email
 * or password; a sentence (it holds a space) was written for the user by the sign-in check
 * (`lib/auth/options.ts`: "Too many sign-in attempts … Try again at 14:05 (UTC).", or that
 * signing in is unavailable) and is shown as is; any other next-auth code gets a generic line.
 */
export function signInErrorMessage(error: string | null | undefined): string {
  if (error === "CredentialsSignin") return "Wrong email or password.";
  if (error && /\s/.test(error)) return error;
  return "Signing in failed. Please try again.";
}

/**
 * Email + password form that signs in through next-auth's credentials provider, with a
 * "Forgot your password?" link to `/forgot-password` below it.
 */
export function SignInForm({ callbackPath, initialError }: { callbackPath: string; initialError?: string }) {
  const router = useRouter();
  const [error, setError] = useState(initialError);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    const email = String(formData.get("email") ?? "").trim();
    const password = String(formData.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email and password.");
      return;
    }
    startTransition(async () => {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result?.ok || result.error) {
        setError(signInErrorMessage(result?.error));
        return;
      }
      router.replace(callbackPath);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {error && <Notice kind="error">{error}</Notice>}
      <Field label="Email" name="email" type="email" autoComplete="email" required />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <button type="submit" disabled={pending} className={`${primaryButton} w-full`}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      <p className="text-center text-sm">
        <Link href="/forgot-password" className="font-medium text-zinc-900 underline">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}
