/**
 * The "New password" and "New password again" fields of the forms that set a password (the
 * account page's change form, the reset page). Client- and server-safe. The length rule is the
 * server's (`newPasswordSchema` in lib/accounts/schemas.ts, `MIN_PASSWORD_LENGTH`), repeated here as
 * a plain number because that module holds zod, which must stay out of client bundles (CSP).
 */
import { Field } from "./ui";

/** The server's minimum password length, for the browser's own check and the hint. */
const MIN_LENGTH = 10;

/**
 * The two fields.
 *
 * @param errors the server's messages for `newPassword` and `confirmPassword`, if any
 */
export function NewPasswordFields({ errors }: { errors: { newPassword?: string; confirmPassword?: string } }) {
  return (
    <>
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_LENGTH}
        hint={`At least ${MIN_LENGTH} characters.`}
        error={errors.newPassword}
      />
      <Field label="New password again" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
    </>
  );
}
