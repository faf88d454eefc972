-- 0007_run_controls: a team withdrawing its run, organizers disqualifying one (issue 11 §3, §4),
-- and password reset tokens (issue 11 §5).
--
-- - submissions.withdrawn_at: set when the run's team withdrew it (before the phase closed). A
--   withdrawn run leaves every board; it still counts against the quota, and organizers still
--   see it.
-- - submissions.disqualified_at / disqualified_reason / disqualified_by_id: set when an organizer
--   disqualified the run, with a public reason; the board shows it struck through with the
--   reason, unranked.
-- - password_reset_tokens: one-time tokens of the "forgot password" mail, stored as the sha256
--   (lower-case hex) of the token, valid until expires_at (one hour), used at most once.

-- Up Migration

ALTER TABLE "submissions"
    ADD COLUMN "withdrawn_at"        TIMESTAMPTZ(3),
    ADD COLUMN "disqualified_at"     TIMESTAMPTZ(3),
    ADD COLUMN "disqualified_reason" TEXT,
    ADD COLUMN "disqualified_by_id"  UUID,
    ADD CONSTRAINT "submissions_disqualified_by_id_fkey" FOREIGN KEY ("disqualified_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    ADD CONSTRAINT "submissions_disqualified_check"
        CHECK (("disqualified_at" IS NULL) = ("disqualified_reason" IS NULL));
CREATE INDEX "submissions_disqualified_by_id_idx" ON "submissions" ("disqualified_by_id");

CREATE TABLE "password_reset_tokens" (
    "id"         UUID           NOT NULL DEFAULT gen_random_uuid(),
    "user_id"    UUID           NOT NULL,
    "token_hash" TEXT           NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at"    TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_reset_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "password_reset_tokens_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "password_reset_tokens_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "password_reset_tokens_token_hash_key" ON "password_reset_tokens" ("token_hash");
CREATE INDEX "password_reset_tokens_user_id_idx" ON "password_reset_tokens" ("user_id");
