/**
 * zod schemas for account input, shared by the sign-up form, the services and the admin CLI.
 */
import { z } from "zod";
import { MAX_PASSWORD_BYTES } from "./password";

/** Shortest accepted password, in characters. */
export const MIN_PASSWORD_LENGTH = 10;

/** An email address, trimmed and lower-cased. */
export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .min(1, { error: "Enter your email address." })
  .max(254, { error: "That email address is too long." })
  .pipe(z.email({ error: "Enter a valid email address." }));

/**
 * A short label typed by a person: trimmed, 1–100 characters, no control characters.
 *
 * @param messages what to say when it is missing (or blank), too long, or holds control characters
 */
function labelSchema(messages: { missing: string; tooLong: string; control: string }) {
  return z
    .string({ error: messages.missing })
    .trim()
    .min(1, { error: messages.missing })
    .max(100, { error: messages.tooLong })
    .regex(/^[^\p{Cc}]*$/u, { error: messages.control });
}

/** A display name: trimmed, 1–100 characters, no control characters. */
export const nameSchema = labelSchema({
  missing: "Enter your name.",
  tooLong: "Names can be at most 100 characters.",
  control: "Names cannot contain control characters.",
});

/** True when a password fits in {@link MAX_PASSWORD_BYTES} UTF-8 bytes. */
const withinMaxBytes = (p: string) => Buffer.byteLength(p, "utf8") <= MAX_PASSWORD_BYTES;

/**
 * A new password: at least {@link MIN_PASSWORD_LENGTH} characters, at most
 * {@link MAX_PASSWORD_BYTES} UTF-8 bytes (argon2 reads all of it; the bound only keeps absurd
 * inputs out).
 */
export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(MIN_PASSWORD_LENGTH, { error: `Passwords must be at least ${MIN_PASSWORD_LENGTH} characters.` })
  .refine(withinMaxBytes, {
    error: `Passwords can be at most ${MAX_PASSWORD_BYTES} bytes (about ${MAX_PASSWORD_BYTES} plain letters).`,
  });

/** Sign-up form input. */
export const signUpSchema = z.object({
  email: emailSchema,
  name: nameSchema,
  password: newPasswordSchema,
});
/** What the sign-up form sends (before trimming and lower-casing). */
export type SignUpInput = z.input<typeof signUpSchema>;

/** Sign-in input: only bounded, not checked for strength (old passwords stay valid). */
export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().min(1).max(254),
  password: z.string().min(1).refine(withinMaxBytes),
});

/**
 * The password-change form: the current password (bounded like sign-in input), a new one
 * ({@link newPasswordSchema}, different from the current one) typed twice.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "Enter your current password." })
      .min(1, { error: "Enter your current password." })
      .refine(withinMaxBytes, { error: "That is not your current password." }),
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: "Type the new password again." }),
  })
  .superRefine((input, ctx) => {
    if (input.confirmPassword !== input.newPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "The two new passwords do not match." });
    }
    if (input.newPassword === input.currentPassword) {
      ctx.addIssue({ code: "custom", path: ["newPassword"], message: "The new password must differ from the current one." });
    }
  });
/** What the password-change form sends. */
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** Name of an API token, e.g. "laptop" or "CI": trimmed, 1–100 characters, no control characters. */
export const tokenNameSchema = labelSchema({
  missing: "Give the token a name.",
  tooLong: "Token names can be at most 100 characters.",
  control: "Token names cannot contain control characters.",
});

/**
 * Turns a zod error into one message per field (the first problem of each).
 *
 * @param error a zod error from one of the schemas above
 * @returns e.g. `{ email: "Enter a valid email address." }`
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
