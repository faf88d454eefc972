-- 0008_task_lifecycle: running a shared task from draft to final results (issue 11 §1, §2, §3,
-- §4, §5).
--
-- - tasks.status: DRAFT (organizers only), PUBLISHED, ARCHIVED (read-only). Tasks that exist
--   already were public, so they become PUBLISHED (published_at = created_at); new tasks start
--   as DRAFT. tasks.rules: markdown, shown on the task page.
-- - phases.leaderboard_timing: "live" (as runs are scored), "after_close" (until the phase
--   closes, teams see only their own runs' scores) or "frozen" (runs made at or after
--   frozen_at are scored but not shown to others). frozen_at is set exactly when frozen.
-- - selection_rule TEAM_SELECTED, phases.final_run_limit: each team marks up to that many runs
--   as final (submissions.final_selected_at); a team that marks none has its latest run count.
-- - submissions.hidden_at / hidden_by_id: an organizer hid the run from the boards (the team
--   and organizers still see it; reversible, unlike a withdrawal).
-- - result_snapshots: an organizer's published final results of a phase, immutable (a trigger
--   refuses UPDATE); a later gold change or re-score can only lead to a new snapshot.
-- - team_invitations: revocable invitation links to a team (only the token's sha256 is stored).
-- - organizer_invitations: a co-organizer invited by email (token sha256, one use).
-- - email_change_tokens: a confirmation mail to the new address (token sha256, one hour, one use).
-- - users.deleted_at: a deleted account, its name and email replaced; its runs stay with the team.

-- Up Migration

CREATE TYPE "task_status" AS ENUM ('DRAFT', 'PUBLISHED', 'ARCHIVED');
ALTER TABLE "tasks"
    ADD COLUMN "status"       "task_status"  NOT NULL DEFAULT 'PUBLISHED',
    ADD COLUMN "rules"        TEXT           NOT NULL DEFAULT '',
    ADD COLUMN "published_at" TIMESTAMPTZ(3),
    ADD COLUMN "archived_at"  TIMESTAMPTZ(3);
UPDATE "tasks" SET "published_at" = "created_at";
ALTER TABLE "tasks" ALTER COLUMN "status" SET DEFAULT 'DRAFT';
CREATE INDEX "tasks_status_idx" ON "tasks" ("status");

ALTER TYPE "selection_rule" ADD VALUE 'TEAM_SELECTED';
ALTER TABLE "phases"
    ADD COLUMN "leaderboard_timing" TEXT           NOT NULL DEFAULT 'live',
    ADD COLUMN "frozen_at"          TIMESTAMPTZ(3),
    ADD COLUMN "final_run_limit"    INTEGER        NOT NULL DEFAULT 1,
    ADD CONSTRAINT "phases_leaderboard_timing_check" CHECK ("leaderboard_timing" IN ('live', 'after_close', 'frozen')),
    ADD CONSTRAINT "phases_frozen_at_check" CHECK (("leaderboard_timing" = 'frozen') = ("frozen_at" IS NOT NULL)),
    ADD CONSTRAINT "phases_final_run_limit_check" CHECK ("final_run_limit" BETWEEN 1 AND 100);

ALTER TABLE "submissions"
    ADD COLUMN "final_selected_at" TIMESTAMPTZ(3),
    ADD COLUMN "hidden_at"         TIMESTAMPTZ(3),
    ADD COLUMN "hidden_by_id"      UUID,
    ADD CONSTRAINT "submissions_hidden_by_id_fkey" FOREIGN KEY ("hidden_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "submissions_hidden_by_id_idx" ON "submissions" ("hidden_by_id");
-- The console's listing of a phase's runs, newest first (lib/services/console-runs.ts).
CREATE INDEX "submissions_phase_id_created_at_id_idx" ON "submissions" ("phase_id", "created_at" DESC, "id" DESC);

CREATE TABLE "result_snapshots" (
    "id"             UUID           NOT NULL DEFAULT gen_random_uuid(),
    "phase_id"       UUID           NOT NULL,
    "number"         INTEGER        NOT NULL,
    "created_by_id"  UUID,
    "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "note"           TEXT           NOT NULL DEFAULT '',
    "changes"        JSONB          NOT NULL DEFAULT '[]',
    "gold"           JSONB          NOT NULL,
    "scorer_version" TEXT           NOT NULL,
    "board"          JSONB          NOT NULL,
    "csv"            TEXT           NOT NULL,
    "csv_sha256"     TEXT           NOT NULL,
    "json"           TEXT           NOT NULL,
    "json_sha256"    TEXT           NOT NULL,
    CONSTRAINT "result_snapshots_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "result_snapshots_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "result_snapshots_created_by_id_fkey" FOREIGN KEY ("created_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "result_snapshots_number_check" CHECK ("number" >= 1),
    CONSTRAINT "result_snapshots_csv_sha256_check" CHECK ("csv_sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "result_snapshots_json_sha256_check" CHECK ("json_sha256" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "result_snapshots_phase_id_number_key" ON "result_snapshots" ("phase_id", "number");
CREATE INDEX "result_snapshots_created_by_id_idx" ON "result_snapshots" ("created_by_id");

-- A published snapshot never changes. (Only the creator link may be cleared, when that account is deleted.)
CREATE FUNCTION "result_snapshots_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW."id", NEW."phase_id", NEW."number", NEW."created_at", NEW."note", NEW."changes", NEW."gold",
        NEW."scorer_version", NEW."board", NEW."csv", NEW."csv_sha256", NEW."json", NEW."json_sha256")
       IS DISTINCT FROM
       (OLD."id", OLD."phase_id", OLD."number", OLD."created_at", OLD."note", OLD."changes", OLD."gold",
        OLD."scorer_version", OLD."board", OLD."csv", OLD."csv_sha256", OLD."json", OLD."json_sha256") THEN
        RAISE EXCEPTION 'result snapshots are immutable' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER "result_snapshots_immutable" BEFORE UPDATE ON "result_snapshots"
    FOR EACH ROW EXECUTE FUNCTION "result_snapshots_immutable"();

CREATE TABLE "team_invitations" (
    "id"            UUID           NOT NULL DEFAULT gen_random_uuid(),
    "team_id"       UUID           NOT NULL,
    "token_hash"    TEXT           NOT NULL,
    "created_by_id" UUID,
    "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at"    TIMESTAMPTZ(3) NOT NULL,
    "revoked_at"    TIMESTAMPTZ(3),
    "uses"          INTEGER        NOT NULL DEFAULT 0,
    CONSTRAINT "team_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "team_invitations_team_id_fkey" FOREIGN KEY ("team_id")
        REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "team_invitations_created_by_id_fkey" FOREIGN KEY ("created_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "team_invitations_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "team_invitations_token_hash_key" ON "team_invitations" ("token_hash");
CREATE INDEX "team_invitations_team_id_idx" ON "team_invitations" ("team_id");
CREATE INDEX "team_invitations_created_by_id_idx" ON "team_invitations" ("created_by_id");

CREATE TABLE "organizer_invitations" (
    "id"             UUID           NOT NULL DEFAULT gen_random_uuid(),
    "task_id"        UUID           NOT NULL,
    "email"          TEXT           NOT NULL,
    "token_hash"     TEXT           NOT NULL,
    "invited_by_id"  UUID,
    "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at"     TIMESTAMPTZ(3) NOT NULL,
    "accepted_at"    TIMESTAMPTZ(3),
    "accepted_by_id" UUID,
    "revoked_at"     TIMESTAMPTZ(3),
    CONSTRAINT "organizer_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "organizer_invitations_task_id_fkey" FOREIGN KEY ("task_id")
        REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "organizer_invitations_invited_by_id_fkey" FOREIGN KEY ("invited_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "organizer_invitations_accepted_by_id_fkey" FOREIGN KEY ("accepted_by_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "organizer_invitations_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "organizer_invitations_token_hash_key" ON "organizer_invitations" ("token_hash");
CREATE INDEX "organizer_invitations_task_id_idx" ON "organizer_invitations" ("task_id");
CREATE INDEX "organizer_invitations_invited_by_id_idx" ON "organizer_invitations" ("invited_by_id");
CREATE INDEX "organizer_invitations_accepted_by_id_idx" ON "organizer_invitations" ("accepted_by_id");

CREATE TABLE "email_change_tokens" (
    "id"         UUID           NOT NULL DEFAULT gen_random_uuid(),
    "user_id"    UUID           NOT NULL,
    "new_email"  TEXT           NOT NULL,
    "token_hash" TEXT           NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at"    TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_change_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "email_change_tokens_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "email_change_tokens_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "email_change_tokens_token_hash_key" ON "email_change_tokens" ("token_hash");
CREATE INDEX "email_change_tokens_user_id_idx" ON "email_change_tokens" ("user_id");

ALTER TABLE "users" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
