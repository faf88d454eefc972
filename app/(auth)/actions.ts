"use server";

import { headers } from "next/headers";
import { RateLimitedError } from "../../lib/errors";
import { clientAddress } from "../../lib/rate-limit";
import { EmailTakenError, UserInputError, signUp } from "../../lib/services/users";
import { InvalidResetLinkError, requestPasswordReset, resetPassword } from "../../lib/services/password-reset";

/** Result of {@link signUpAction}: field errors to show inline, or success. */
export type SignUpResult = { ok: true } | { ok: false; errors: Record<string, string> };

/**
 * Creates an account from the sign-up form (fields `email`, `name`, `password`). The client
 * then signs in through next-auth with the same credentials.
 *
 * @returns `{ok: true}`, or the message for each bad field (`form` for anything else)
 */
export async function signUpAction(formData: FormData): Promise<SignUpResult> {
  const field = (key: string) => {
    const value = formData.get(key);
    return typeof value === "string" ? value : "";
  };
  try {
    await signUp(field("email"), field("name"), field("password"), clientAddress(await headers()));
    return { ok: true };
  } catch (error) {
    if (error instanceof UserInputError || error instanceof EmailTakenError) return { ok: false, errors: error.fields };
    // Too many accounts from this address, or the server is busy hashing passwords
    // (lib/auth/password.ts): say when to try again.
    if (error instanceof RateLimitedError) return { ok: false, errors: { form: error.message } };
    console.error("sign-up failed", error);
    return { ok: false, errors: { form: "Something went wrong on our side. Please try again." } };
  }
}

/** A form field as a string ("" when missing or a file). */
function textField(formData: FormData, key: string): string {
  const value = formData.get(key);
  return typeof value === "string" ? value : "";
}

/** Result of {@link requestPasswordResetAction}: the one answer for every address, or field errors. */
export type RequestPasswordResetResult = { ok: true; message: string } | { ok: false; errors: Record<string, string> };

/**
 * "Forgot your password?" (field `email`): mails a reset link when an account uses the
 * address. The answer is the same whether or not one does (no account enumeration).
 *
 * @returns `{ok: true, message}`, or `email` (not an address) / `form` (too many requests from
 *   this network address, "… Try again at 14:05 (UTC).", or any other problem)
 */
export async function requestPasswordResetAction(formData: FormData): Promise<RequestPasswordResetResult> {
  try {
    const { message } = await requestPasswordReset(textField(formData, "email"), { address: clientAddress(await headers()) });
    return { ok: true, message };
  } catch (error) {
    if (error instanceof UserInputError) return { ok: false, errors: error.fields };
    if (error instanceof RateLimitedError) return { ok: false, errors: { form: error.message } };
    console.error("password-reset request failed", error);
    return { ok: false, errors: { form: "Something went wrong on our side. Please try again." } };
  }
}

/** Result of {@link resetPasswordAction}: done, or a message per field (`token` for a dead link). */
export type ResetPasswordResult = { ok: true } | { ok: false; errors: Record<string, string> };

/**
 * Sets a new password from a reset link (fields `token`, `newPassword`, `confirmPassword`).
 * Every session of the account ends; the person then signs in with the new password.
 *
 * @returns `{ok: true}`, or the message for each bad field: `token` ("This reset link is
 *   invalid or has expired; ask for a new one."), `newPassword`, `confirmPassword`, or `form`
 *   (anything else, e.g. the server too busy hashing passwords)
 */
export async function resetPasswordAction(formData: FormData): Promise<ResetPasswordResult> {
  try {
    await resetPassword(textField(formData, "token"), textField(formData, "newPassword"), {
      confirmPassword: textField(formData, "confirmPassword"),
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof InvalidResetLinkError) return { ok: false, errors: { token: error.message } };
    if (error instanceof UserInputError) return { ok: false, errors: error.fields };
    if (error instanceof RateLimitedError) return { ok: false, errors: { form: error.message } };
    console.error("password reset failed", error);
    return { ok: false, errors: { form: "Something went wrong on our side. Please try again." } };
  }
}
