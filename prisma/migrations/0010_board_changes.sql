-- 0010_board_changes: a number per phase that grows whenever its leaderboards may change (issue 12 §1).
--
-- Triggers add a row to board_changes for everything a board shows or ranks by: a run added,
-- deleted, or changed in a column a board reads (status, visibility, withdrawal, hiding,
-- disqualification, final selection, track, names and links, scoring); its corpus scores
-- (scores, dataset_scores); a team renamed (each phase it has runs in); tracks, datasets and
-- gold keys of the phase. A phase's board version
-- is its largest `seq` (an index-only lookup). The web server keeps the boards it computed
-- keyed by that number, so a view reads one number instead of ranking 10,000 runs again. A
-- heartbeat, which changes no board, adds nothing. The phase's own settings and its task's are
-- read on every view and need no row here.
--
-- Rows are only ever inserted (no counter row that concurrent transactions would queue on, so
-- no lock waits or deadlocks between scoring, uploads and organizers' actions). No foreign
-- key: a deleted phase's rows are harmless; the worker's reconciler prunes rows older than a
-- phase's latest.

-- Up Migration

CREATE SEQUENCE "board_changes_seq";
CREATE TABLE "board_changes" (
    "phase_id" UUID           NOT NULL,
    "seq"      BIGINT         NOT NULL DEFAULT nextval('board_changes_seq'),
    "at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "board_changes_pkey" PRIMARY KEY ("phase_id", "seq")
);
ALTER SEQUENCE "board_changes_seq" OWNED BY "board_changes"."seq";

CREATE FUNCTION "record_board_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO "board_changes" ("phase_id") VALUES (OLD."phase_id");
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."phase_id" IS DISTINCT FROM OLD."phase_id") THEN
        INSERT INTO "board_changes" ("phase_id") VALUES (NEW."phase_id");
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "submissions_board_change" AFTER INSERT OR DELETE OR UPDATE OF
    "status", "visibility", "withdrawn_at", "hidden_at", "disqualified_at", "disqualified_reason",
    "final_selected_at", "track_id", "system_name", "paper_url", "code_url", "scored_at",
    "gold_version", "scorer_version", "evaluation", "team_id", "is_baseline", "created_at", "phase_id"
    ON "submissions" FOR EACH ROW EXECUTE FUNCTION "record_board_change"();
CREATE TRIGGER "tracks_board_change" AFTER INSERT OR UPDATE OR DELETE ON "tracks"
    FOR EACH ROW EXECUTE FUNCTION "record_board_change"();
CREATE TRIGGER "datasets_board_change" AFTER INSERT OR UPDATE OR DELETE ON "datasets"
    FOR EACH ROW EXECUTE FUNCTION "record_board_change"();
CREATE TRIGGER "gold_keys_board_change" AFTER INSERT OR UPDATE OR DELETE ON "gold_keys"
    FOR EACH ROW EXECUTE FUNCTION "record_board_change"();

-- Corpus scores (written with the run's status, but also by hand): one row per statement and phase.
CREATE FUNCTION "record_score_board_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO "board_changes" ("phase_id") SELECT DISTINCT "phase_id" FROM "old_rows";
    ELSE
        INSERT INTO "board_changes" ("phase_id") SELECT DISTINCT "phase_id" FROM "new_rows";
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "scores_board_change_insert" AFTER INSERT ON "scores"
    REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();
CREATE TRIGGER "scores_board_change_update" AFTER UPDATE ON "scores"
    REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();
CREATE TRIGGER "scores_board_change_delete" AFTER DELETE ON "scores"
    REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();
CREATE TRIGGER "dataset_scores_board_change_insert" AFTER INSERT ON "dataset_scores"
    REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();
CREATE TRIGGER "dataset_scores_board_change_update" AFTER UPDATE ON "dataset_scores"
    REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();
CREATE TRIGGER "dataset_scores_board_change_delete" AFTER DELETE ON "dataset_scores"
    REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_score_board_changes"();

CREATE FUNCTION "record_team_board_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "board_changes" ("phase_id")
        SELECT DISTINCT "phase_id" FROM "submissions" WHERE "team_id" = NEW."id";
    RETURN NULL;
END
$$;

CREATE TRIGGER "teams_board_change" AFTER UPDATE OF "name" ON "teams"
    FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name") EXECUTE FUNCTION "record_team_board_changes"();
