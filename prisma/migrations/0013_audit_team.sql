-- 0013_audit_team: find a team's audit events by an indexed column, not by a JSON path.
--
-- The teams page lists who withdrew which of the team's runs and who chose its final runs
-- (listTeamRunActions in lib/services/team-membership.ts). It used to filter audit_events on
-- data->>'teamId', which no index serves, so every view read all run events of the site.
--
-- - audit_events.team_id: the team an event concerns. recordAudit (lib/services/audit.ts)
--   fills it for the events on a team (target_type 'team': team.create, team.join, ...) and
--   for the events whose data carry the team's id (the run events: submission.create,
--   submission.withdraw, submission.final_select, ...). Null for everything else (tasks,
--   phases, accounts, and task.participant.update, which concerns two teams).
--   ON DELETE SET NULL, like actor_id: the audit log is append-only and outlives what it
--   names (the data keep the id).
-- - Existing events are backfilled the same way, from data->>'teamId' and from target_id
--   (compared as text, so a malformed id in old data is skipped rather than failing the cast;
--   ids of teams that no longer exist stay null).
-- - Index (team_id, at DESC, id): the query filters on team_id and reads newest first with
--   id as the tie-break, so the index returns the rows in order and the LIMIT stops early.

-- Up Migration

ALTER TABLE "audit_events" ADD COLUMN "team_id" UUID;

UPDATE "audit_events" AS a SET "team_id" = t."id"
    FROM "teams" AS t
    WHERE a."target_type" = 'team' AND lower(a."target_id") = t."id"::text;

UPDATE "audit_events" AS a SET "team_id" = t."id"
    FROM "teams" AS t
    WHERE a."team_id" IS NULL AND lower(a."data" ->> 'teamId') = t."id"::text;

ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_team_id_fkey" FOREIGN KEY ("team_id")
    REFERENCES "teams" ("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE INDEX "audit_events_team_id_at_id_idx" ON "audit_events" ("team_id", "at" DESC, "id");

-- Down Migration

DROP INDEX IF EXISTS "audit_events_team_id_at_id_idx";
ALTER TABLE "audit_events" DROP COLUMN IF EXISTS "team_id";
