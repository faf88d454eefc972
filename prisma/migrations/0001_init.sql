-- 0001_init: the initial Corefboard schema (prisma/schema.prisma, first version).
--
-- Applied by node-pg-migrate (lib/db/migrate.ts), all pending files in one transaction.
-- Names follow Prisma's conventions (<table>_pkey, <table>_<cols>_key, <table>_<cols>_idx,
-- <table>_<cols>_fkey) so Prisma's error messages name the right constraint.
-- Objects Prisma cannot express (CHECK constraints, the partial unique index on
-- gold_keys) are extra; lib/db/schema.test.ts lists them explicitly.

-- Up Migration

CREATE TYPE "user_role" AS ENUM ('ADMIN', 'USER');
CREATE TYPE "team_role" AS ENUM ('OWNER', 'MEMBER');
CREATE TYPE "leaderboard_visibility" AS ENUM ('PUBLIC', 'PARTICIPANTS', 'ORGANIZERS');
CREATE TYPE "selection_rule" AS ENUM ('BEST', 'LATEST');
CREATE TYPE "submission_status" AS ENUM ('QUEUED', 'SCORING', 'SCORED', 'FAILED');
CREATE TYPE "submission_visibility" AS ENUM ('PUBLIC', 'PRIVATE');

CREATE TABLE "users" (
    "id"            UUID           NOT NULL DEFAULT gen_random_uuid(),
    "email"         TEXT           NOT NULL,
    "name"          TEXT           NOT NULL,
    "password_hash" TEXT,
    "role"          "user_role"    NOT NULL DEFAULT 'USER',
    "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email"))
);
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");

CREATE TABLE "teams" (
    "id"         UUID           NOT NULL DEFAULT gen_random_uuid(),
    "name"       TEXT           NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "teams_name_key" ON "teams" ("name");

CREATE TABLE "team_members" (
    "team_id"    UUID           NOT NULL,
    "user_id"    UUID           NOT NULL,
    "role"       "team_role"    NOT NULL DEFAULT 'MEMBER',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id", "user_id"),
    CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id")
        REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "team_members_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "team_members_user_id_idx" ON "team_members" ("user_id");

CREATE TABLE "tasks" (
    "id"               UUID           NOT NULL DEFAULT gen_random_uuid(),
    "slug"             TEXT           NOT NULL,
    "title"            TEXT           NOT NULL,
    "description"      TEXT           NOT NULL DEFAULT '',
    "primary_metric"   TEXT           NOT NULL DEFAULT 'conll',
    "keep_singletons"  BOOLEAN        NOT NULL DEFAULT true,
    "mention_matching" TEXT           NOT NULL DEFAULT 'exact',
    "data_license"     TEXT,
    "data_source"      TEXT,
    "created_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tasks_slug_key" ON "tasks" ("slug");

CREATE TABLE "task_organizers" (
    "task_id"    UUID           NOT NULL,
    "user_id"    UUID           NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "task_organizers_pkey" PRIMARY KEY ("task_id", "user_id"),
    CONSTRAINT "task_organizers_task_id_fkey" FOREIGN KEY ("task_id")
        REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "task_organizers_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "task_organizers_user_id_idx" ON "task_organizers" ("user_id");

CREATE TABLE "phases" (
    "id"                         UUID                     NOT NULL DEFAULT gen_random_uuid(),
    "task_id"                    UUID                     NOT NULL,
    "name"                       TEXT                     NOT NULL,
    "opens_at"                   TIMESTAMPTZ(3)           NOT NULL,
    "closes_at"                  TIMESTAMPTZ(3)           NOT NULL,
    "display_time_zone"          TEXT                     NOT NULL DEFAULT 'UTC',
    "daily_limit"                INTEGER,
    "total_limit"                INTEGER,
    "leaderboard_visibility"     "leaderboard_visibility" NOT NULL DEFAULT 'PUBLIC',
    "selection_rule"             "selection_rule"         NOT NULL DEFAULT 'BEST',
    "allow_participant_analysis" BOOLEAN                  NOT NULL DEFAULT false,
    "created_at"                 TIMESTAMPTZ(3)           NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at"                 TIMESTAMPTZ(3)           NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "phases_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "phases_task_id_fkey" FOREIGN KEY ("task_id")
        REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "phases_window_check" CHECK ("closes_at" > "opens_at"),
    CONSTRAINT "phases_daily_limit_check" CHECK ("daily_limit" IS NULL OR "daily_limit" >= 0),
    CONSTRAINT "phases_total_limit_check" CHECK ("total_limit" IS NULL OR "total_limit" >= 0)
);
CREATE UNIQUE INDEX "phases_task_id_name_key" ON "phases" ("task_id", "name");

CREATE TABLE "gold_keys" (
    "id"             UUID           NOT NULL DEFAULT gen_random_uuid(),
    "phase_id"       UUID           NOT NULL,
    "version"        INTEGER        NOT NULL,
    "file_name"      TEXT           NOT NULL,
    "sha256"         TEXT           NOT NULL,
    "gzip"           BYTEA          NOT NULL,
    "size"           INTEGER        NOT NULL,
    "document_count" INTEGER        NOT NULL,
    "stats"          JSONB          NOT NULL DEFAULT '{}',
    "uploaded_by_id" UUID           NOT NULL,
    "active"         BOOLEAN        NOT NULL DEFAULT false,
    "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "gold_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gold_keys_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gold_keys_uploaded_by_id_fkey" FOREIGN KEY ("uploaded_by_id")
        REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "gold_keys_version_check" CHECK ("version" >= 1),
    CONSTRAINT "gold_keys_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "gold_keys_size_check" CHECK ("size" >= 0 AND "document_count" >= 0)
);
CREATE UNIQUE INDEX "gold_keys_phase_id_version_key" ON "gold_keys" ("phase_id", "version");
CREATE INDEX "gold_keys_uploaded_by_id_idx" ON "gold_keys" ("uploaded_by_id");
-- At most one active gold key per phase (Prisma cannot declare partial indexes).
CREATE UNIQUE INDEX "gold_keys_one_active_per_phase" ON "gold_keys" ("phase_id") WHERE "active";

CREATE TABLE "submissions" (
    "id"             UUID                    NOT NULL DEFAULT gen_random_uuid(),
    "phase_id"       UUID                    NOT NULL,
    "team_id"        UUID                    NOT NULL,
    "submitter_id"   UUID                    NOT NULL,
    "system_name"    TEXT                    NOT NULL,
    "description"    TEXT                    NOT NULL DEFAULT '',
    "paper_url"      TEXT,
    "code_url"       TEXT,
    "file_name"      TEXT                    NOT NULL,
    "sha256"         TEXT                    NOT NULL,
    "gzip"           BYTEA                   NOT NULL,
    "size"           INTEGER                 NOT NULL,
    "status"         "submission_status"     NOT NULL DEFAULT 'QUEUED',
    "attempts"       INTEGER                 NOT NULL DEFAULT 0,
    "error_stage"    TEXT,
    "error_message"  TEXT,
    "error_location" JSONB,
    "gold_version"   INTEGER,
    "scorer_version" TEXT,
    "is_baseline"    BOOLEAN                 NOT NULL DEFAULT false,
    "visibility"     "submission_visibility" NOT NULL DEFAULT 'PUBLIC',
    "created_at"     TIMESTAMPTZ(3)          NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at"     TIMESTAMPTZ(3),
    "scored_at"      TIMESTAMPTZ(3),
    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "submissions_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "submissions_team_id_fkey" FOREIGN KEY ("team_id")
        REFERENCES "teams" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "submissions_submitter_id_fkey" FOREIGN KEY ("submitter_id")
        REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "submissions_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "submissions_size_check" CHECK ("size" >= 0),
    CONSTRAINT "submissions_attempts_check" CHECK ("attempts" >= 0)
);
CREATE UNIQUE INDEX "submissions_id_phase_id_key" ON "submissions" ("id", "phase_id");
CREATE INDEX "submissions_phase_id_team_id_created_at_idx" ON "submissions" ("phase_id", "team_id", "created_at");
CREATE INDEX "submissions_status_idx" ON "submissions" ("status");
CREATE INDEX "submissions_team_id_idx" ON "submissions" ("team_id");
CREATE INDEX "submissions_submitter_id_idx" ON "submissions" ("submitter_id");

CREATE TABLE "scores" (
    "submission_id" UUID             NOT NULL,
    "phase_id"      UUID             NOT NULL,
    "metric"        TEXT             NOT NULL,
    "recall_num"    DOUBLE PRECISION,
    "recall_den"    DOUBLE PRECISION,
    "precision_num" DOUBLE PRECISION,
    "precision_den" DOUBLE PRECISION,
    "recall"        DOUBLE PRECISION,
    "precision"     DOUBLE PRECISION,
    "f1"            DOUBLE PRECISION NOT NULL,
    CONSTRAINT "scores_pkey" PRIMARY KEY ("submission_id", "metric"),
    CONSTRAINT "scores_submission_id_phase_id_fkey" FOREIGN KEY ("submission_id", "phase_id")
        REFERENCES "submissions" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "scores_phase_id_metric_f1_idx" ON "scores" ("phase_id", "metric", "f1" DESC);

CREATE TABLE "document_scores" (
    "submission_id" UUID             NOT NULL,
    "document"      TEXT             NOT NULL,
    "metric"        TEXT             NOT NULL,
    "recall_num"    DOUBLE PRECISION NOT NULL,
    "recall_den"    DOUBLE PRECISION NOT NULL,
    "precision_num" DOUBLE PRECISION NOT NULL,
    "precision_den" DOUBLE PRECISION NOT NULL,
    CONSTRAINT "document_scores_pkey" PRIMARY KEY ("submission_id", "document", "metric"),
    CONSTRAINT "document_scores_submission_id_fkey" FOREIGN KEY ("submission_id")
        REFERENCES "submissions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "api_tokens" (
    "id"           UUID           NOT NULL DEFAULT gen_random_uuid(),
    "user_id"      UUID           NOT NULL,
    "name"         TEXT           NOT NULL,
    "token_hash"   TEXT           NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at"   TIMESTAMPTZ(3),
    "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_tokens_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens" ("token_hash");
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens" ("user_id");

CREATE TABLE "audit_events" (
    "id"          UUID           NOT NULL DEFAULT gen_random_uuid(),
    "actor_id"    UUID,
    "action"      TEXT           NOT NULL,
    "target_type" TEXT           NOT NULL,
    "target_id"   TEXT           NOT NULL,
    "data"        JSONB          NOT NULL DEFAULT '{}',
    "at"          TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id")
        REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "audit_events_target_type_target_id_at_idx" ON "audit_events" ("target_type", "target_id", "at");
CREATE INDEX "audit_events_actor_id_idx" ON "audit_events" ("actor_id");
CREATE INDEX "audit_events_at_idx" ON "audit_events" ("at");

-- Down Migration

DROP TABLE IF EXISTS "audit_events";
DROP TABLE IF EXISTS "api_tokens";
DROP TABLE IF EXISTS "document_scores";
DROP TABLE IF EXISTS "scores";
DROP TABLE IF EXISTS "submissions";
DROP TABLE IF EXISTS "gold_keys";
DROP TABLE IF EXISTS "phases";
DROP TABLE IF EXISTS "task_organizers";
DROP TABLE IF EXISTS "tasks";
DROP TABLE IF EXISTS "team_members";
DROP TABLE IF EXISTS "teams";
DROP TABLE IF EXISTS "users";
DROP TYPE IF EXISTS "submission_visibility";
DROP TYPE IF EXISTS "submission_status";
DROP TYPE IF EXISTS "selection_rule";
DROP TYPE IF EXISTS "leaderboard_visibility";
DROP TYPE IF EXISTS "team_role";
DROP TYPE IF EXISTS "user_role";
