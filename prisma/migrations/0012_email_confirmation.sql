-- 0012_email_confirmation: sign-up confirms the e-mail address (issue 23 F8).
--
-- - users.email_confirmed_at: when the owner opened the link of the sign-up mail. Null: not
--   confirmed yet; such an account may sign in but not submit runs or create teams
--   (requireConfirmedEmail in lib/permissions.ts). Accounts that exist when this runs are
--   marked confirmed (at their creation time), so nobody is locked out.
-- - email_confirmation_tokens: one-time tokens of the confirmation mail, stored as the sha256
--   (lower-case hex) of the token, valid until expires_at, used at most once.

-- Up Migration

ALTER TABLE "users" ADD COLUMN "email_confirmed_at" TIMESTAMPTZ(3);
UPDATE "users" SET "email_confirmed_at" = "created_at" WHERE "email_confirmed_at" IS NULL;

CREATE TABLE "email_confirmation_tokens" (
    "id"         UUID           NOT NULL DEFAULT gen_random_uuid(),
    "user_id"    UUID           NOT NULL,
    "token_hash" TEXT           NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at"    TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_confirmation_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "email_confirmation_tokens_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "email_confirmation_tokens_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "email_confirmation_tokens_token_hash_key" ON "email_confirmation_tokens" ("token_hash");
CREATE INDEX "email_confirmation_tokens_user_id_idx" ON "email_confirmation_tokens" ("user_id");
