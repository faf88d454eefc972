-- 0016_board_settings_changes: a phase's board version also moves when the phase itself or its
-- task changes (issue 26 §3).
--
-- Until now a board view read its phase and task (two queries) besides the board version (one),
-- because the settings a board depends on (visibility, timing, freeze, selection rule, tie
-- policy, the task's status, primary metric and evaluation profile) moved no version. With these
-- triggers they do, so the web server keeps the phase with its task per board version, as it
-- keeps the board itself (lib/boards/cache.ts): a view of an unchanged board makes one
-- index-only query. Created, changed or deleted phases add a row for themselves; a changed task
-- adds one for each of its phases (a deleted task's phases are deleted with it, and add theirs).
-- Organizers change these rows by hand, rarely; nothing writes them on a schedule.

-- Up Migration

CREATE FUNCTION "record_phase_board_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO "board_changes" ("phase_id") VALUES (OLD."id");
    ELSE
        INSERT INTO "board_changes" ("phase_id") VALUES (NEW."id");
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "phases_board_change" AFTER INSERT OR UPDATE OR DELETE ON "phases"
    FOR EACH ROW EXECUTE FUNCTION "record_phase_board_change"();

CREATE FUNCTION "record_task_board_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "board_changes" ("phase_id") SELECT "id" FROM "phases" WHERE "task_id" = NEW."id";
    RETURN NULL;
END
$$;

CREATE TRIGGER "tasks_board_change" AFTER UPDATE ON "tasks"
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "record_task_board_changes"();

-- Down Migration

DROP TRIGGER IF EXISTS "tasks_board_change" ON "tasks";
DROP FUNCTION IF EXISTS "record_task_board_changes"();
DROP TRIGGER IF EXISTS "phases_board_change" ON "phases";
DROP FUNCTION IF EXISTS "record_phase_board_change"();
