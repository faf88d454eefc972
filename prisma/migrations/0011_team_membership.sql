-- 0011_team_membership: only a team's owners make invitation links, and a link is single-use
-- unless its owner says otherwise (issue 23 F4). `max_uses` is how many people may join
-- through a link; `uses` (0006) already counts them.
--
-- Links made before this migration: those an owner of the team made keep working as they did
-- (many uses until they expire), with the largest limit a new link may have (50, or more when
-- more people already used one); those made by anyone else (any member could make links
-- before) are revoked now, as the rules would not let their makers make them today.

-- Up Migration

ALTER TABLE "team_invitations" ADD COLUMN "max_uses" INTEGER NOT NULL DEFAULT 1;
UPDATE "team_invitations" SET "max_uses" = GREATEST(50, "uses");
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_max_uses_check" CHECK ("max_uses" >= 1);
UPDATE "team_invitations" AS i SET "revoked_at" = now()
 WHERE i."revoked_at" IS NULL
   AND NOT EXISTS (
     SELECT 1 FROM "team_members" AS m
      WHERE m."team_id" = i."team_id" AND m."user_id" = i."created_by_id" AND m."role" = 'OWNER'
   );

-- Down Migration

ALTER TABLE "team_invitations" DROP COLUMN "max_uses";
