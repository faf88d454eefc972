-- 0011_team_membership: invitation links are single-use unless their owner says otherwise
-- (issue 23 F4). `max_uses` is how many people may join through a link; `uses` (0001/0006)
-- already counts them. Links made before this migration keep working as they did (many uses
-- until they expire): they get the largest limit a new link may have.

-- Up Migration

ALTER TABLE "team_invitations" ADD COLUMN "max_uses" INTEGER NOT NULL DEFAULT 1;
UPDATE "team_invitations" SET "max_uses" = GREATEST(50, "uses");
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_max_uses_check" CHECK ("max_uses" >= 1);

-- Down Migration

ALTER TABLE "team_invitations" DROP COLUMN "max_uses";
