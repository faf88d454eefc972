"use server";

import { headers } from "next/headers";
import type { LinkConfirmationState } from "../_components/link-confirmation";
import { RateLimitedError } from "@/lib/errors";
import { clientAddress } from "@/lib/rate-limit";
import { InvalidConfirmationLinkError, confirmEmailAddress, SIGN_UP_ANSWER_MIN_MS, UserInputError, signUp, InvalidResetLinkError, requestPasswordReset, resetPassword } from "@/lib/accounts";

/** Result of {@link signUpAction}: the one answer for every accepted sign-up, or field errors. */
export type SignUpResult = { ok: true; message: string } | { ok: false; errors: Record<string, string> };

/**
 * Signs up from the sign-up form (fields `email`, `name`, `password`): a new address gets an
 * unconfirmed account and a confirmation link by mail; a registered one gets a notice to its
 * owner. The answer is the same either way, comes no sooner than `SIGN_UP_ANSWER_MIN_MS` (half
 * a second) after the request so that its time does not tell the cases apart either, and
 * nobody is signed in.
 *
 * @returns `{ok: true, message}` ("Check your e-mail. …"), or the message for each bad field
 *   (`form` for a rate-limit refusal, "… Try again at 14:05 (UTC).", or anything else)
 */
export async function signUpAction(formData: FormData): Promise<SignUpResult> {
  try {
    const { message } = await signUp(textField(formData, "email"), textField(formData, "name"), textField(formData, "password"), clientAddress(await headers()), {
      answerAfterMs: SIGN_UP_ANSWER_MIN_MS,
    });
    return { ok: true, message };
  } catch (error) {
    if (error instanceof UserInputError) return { ok: false, errors: error.fields };
    // Too many attempts for this address or from this network address, or the server is busy
    // hashing passwords (lib/accounts/password.ts): say when to try again.
    if (error instanceof RateLimitedError) return { ok: false, errors: { form: error.message } };
    console.error("sign-up failed", error);
    return { ok: false, errors: { form: "Something went wrong on our side. Please try again." } };
  }
}

/** State of the confirm-account form. */
export type ConfirmAccountState = LinkConfirmationState;

/**
 * Confirms a new account's e-mail address (field `token`, from the mailed link). Needs no
 * session: the link is the credential.
 *
 * @returns `confirmed` with the address, or `error` ("This confirmation link is invalid, …")
 */
export async function confirmAccountAction(_previous: ConfirmAccountState, formData: FormData): Promise<ConfirmAccountState> {
  try {
    const { email } = await confirmEmailAddress(textField(formData, "token"));
    return { status: "confirmed", email };
  } catch (error) {
    if (error instanceof InvalidConfirmationLinkError) return { status: "error", message: error.message };
    console.error("confirming an account failed", error);
    return { status: "error", message: "Something went wrong on our side. Please try again." };
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
