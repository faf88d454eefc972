-- 0003_resilience: what a public shared task needs to survive its participants.
--
-- - users.session_version: bumped by sign-out, a password change and "sign out everywhere";
--   a session token carrying an older version is refused on the next request.
-- - phases.participant_analysis replaces allow_participant_analysis: who besides the
--   organizers sees a run's error analysis (which reveals the gold). NONE; TEAMS (signed-in
--   members of the task's teams); PUBLIC (anyone who may see the run, anonymous readers
--   included). An old `true` becomes TEAMS, the safe reading of the old switch.
-- - phases.team_document_scores: on a phase whose leaderboard is hidden (ORGANIZERS), teams
--   see per-document scores of their own runs only when this is on (per-document scores of
--   a hidden test set are a probe of the gold).
-- - task_participants: the one team a user submits for in a task, fixed at the user's first
--   (non-baseline) submission; changing it needs an organizer. Back-filled from the oldest
--   existing submission of each user in each task.
-- - submissions.worker_id / heartbeat_at: which worker process holds a SCORING row and when
--   it last said it is alive; a row whose heartbeat is stale is re-queued.
-- - rate_limits: counters of rate-limiter-flexible's Postgres store (sign-in per account
--   and per IP, team creation), in the layout that library creates itself.

-- Up Migration

ALTER TABLE "users" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;

CREATE TYPE "participant_analysis" AS ENUM ('NONE', 'TEAMS', 'PUBLIC');
ALTER TABLE "phases"
    ADD COLUMN "participant_analysis" "participant_analysis" NOT NULL DEFAULT 'NONE',
    ADD COLUMN "team_document_scores" BOOLEAN NOT NULL DEFAULT false;
UPDATE "phases" SET "participant_analysis" = 'TEAMS' WHERE "allow_participant_analysis";
ALTER TABLE "phases" DROP COLUMN "allow_participant_analysis";

CREATE TABLE "task_participants" (
    "task_id"    UUID           NOT NULL,
    "user_id"    UUID           NOT NULL,
    "team_id"    UUID           NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "task_participants_pkey" PRIMARY KEY ("task_id", "user_id"),
    CONSTRAINT "task_participants_task_id_fkey" FOREIGN KEY ("task_id")
        REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "task_participants_user_id_fkey" FOREIGN KEY ("user_id")
        REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "task_participants_team_id_fkey" FOREIGN KEY ("team_id")
        REFERENCES "teams" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "task_participants_team_id_idx" ON "task_participants" ("team_id");
CREATE INDEX "task_participants_user_id_idx" ON "task_participants" ("user_id");

INSERT INTO "task_participants" ("task_id", "user_id", "team_id", "created_at")
SELECT DISTINCT ON (p."task_id", s."submitter_id") p."task_id", s."submitter_id", s."team_id", s."created_at"
  FROM "submissions" s JOIN "phases" p ON p."id" = s."phase_id"
 WHERE NOT s."is_baseline"
 ORDER BY p."task_id", s."submitter_id", s."created_at", s."id";

ALTER TABLE "submissions"
    ADD COLUMN "worker_id"    TEXT,
    ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3);

CREATE TABLE "rate_limits" (
    "key"    VARCHAR(255) NOT NULL,
    "points" INTEGER      NOT NULL DEFAULT 0,
    "expire" BIGINT,
    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- Down Migration

DROP TABLE IF EXISTS "rate_limits";
ALTER TABLE "submissions" DROP COLUMN IF EXISTS "heartbeat_at", DROP COLUMN IF EXISTS "worker_id";
DROP TABLE IF EXISTS "task_participants";
ALTER TABLE "phases" ADD COLUMN "allow_participant_analysis" BOOLEAN NOT NULL DEFAULT false;
UPDATE "phases" SET "allow_participant_analysis" = ("participant_analysis" <> 'NONE');
ALTER TABLE "phases" DROP COLUMN "team_document_scores", DROP COLUMN "participant_analysis";
DROP TYPE IF EXISTS "participant_analysis";
ALTER TABLE "users" DROP COLUMN IF EXISTS "session_version";
