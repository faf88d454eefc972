-- 0005_tracks: tracks of a phase (issue 10 §5), e.g. "LLM" and "unconstrained" in CRAC 2025.
--
-- - tracks: a phase's tracks, in `position` order. A run declares its track at upload (required
--   once the phase has tracks) and each track is ranked separately. `daily_limit` and
--   `total_limit` are the per-team quotas of the track; when both are null the phase's quotas
--   apply to the team's runs in every track together, as they do without tracks.
-- - submissions.track_id: the run's track (null in a phase without tracks, and for runs made
--   before the phase had any). The foreign key (track_id, phase_id) keeps the track in the
--   run's own phase.

-- Up Migration

CREATE TABLE "tracks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "phase_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "daily_limit" INTEGER,
    "total_limit" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tracks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "tracks_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "tracks_daily_limit_check" CHECK ("daily_limit" IS NULL OR "daily_limit" >= 0),
    CONSTRAINT "tracks_total_limit_check" CHECK ("total_limit" IS NULL OR "total_limit" >= 0)
);
CREATE UNIQUE INDEX "tracks_phase_id_name_key" ON "tracks" ("phase_id", "name");
CREATE UNIQUE INDEX "tracks_id_phase_id_key" ON "tracks" ("id", "phase_id");

ALTER TABLE "submissions" ADD COLUMN "track_id" UUID;
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_track_id_phase_id_fkey"
    FOREIGN KEY ("track_id", "phase_id") REFERENCES "tracks"("id", "phase_id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "submissions_track_id_idx" ON "submissions" ("track_id");
