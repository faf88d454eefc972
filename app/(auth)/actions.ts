"use server";

import { headers } from "next/headers";
import { RateLimitedError } from "../../lib/errors";
import { clientAddress } from "../../lib/rate-limit";
import { EmailTakenError, UserInputError, signUp } from "../../lib/services/users";

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
