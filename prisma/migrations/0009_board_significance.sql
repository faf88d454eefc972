-- 0009_board_significance: leaderboard significance computed off the request path (issue 12 §1).
--
-- A board's paired-bootstrap markers and 95 % intervals are computed by the worker when a run
-- is scored or when a view finds them out of date, and stored here per board: `board_key` names
-- the board (track, metric, dataset, ranking dataset, all runs, and whether it is the
-- organizers' or the frozen view), `version` is a digest of the board's listed runs in order with
-- the time each was scored and its gold version, so a stored result is used only for exactly
-- the board it was computed on. A page view reads the row; it never runs the bootstrap.

-- Up Migration

CREATE TABLE "board_significance" (
    "phase_id"    UUID           NOT NULL,
    "board_key"   TEXT           NOT NULL,
    "version"     TEXT           NOT NULL,
    "data"        JSONB          NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ms"          INTEGER        NOT NULL,
    CONSTRAINT "board_significance_pkey" PRIMARY KEY ("phase_id", "board_key"),
    CONSTRAINT "board_significance_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
