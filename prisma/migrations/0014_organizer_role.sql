-- 0014_organizer_role: a site role that may create tasks (issue 24 §4, "Who can create tasks").
--
-- - user_role ORGANIZER, between ADMIN and USER: the account may create tasks
--   (canCreateTask in lib/permissions.ts) and, as the creator, organizes each task it creates
--   (a task_organizers row, as for an admin); it is not an organizer of anyone else's task.
--   Granted and revoked by site admins at /admin/users or by an operator with
--   `npm run admin -- grant --email E --role organizer|admin|user` (lib/services/site-roles.ts),
--   each change audited as user.role_change. Existing accounts keep their role.
-- - ADD VALUE runs inside the migrations' transaction (Postgres 12 and later allow it); the new
--   value is not used by any statement of that transaction.
-- - Down: the organizers become plain users (the tasks they organize stay theirs) and the type
--   is made again without the value (Postgres cannot drop an enum value).

-- Up Migration

ALTER TYPE "user_role" ADD VALUE 'ORGANIZER' BEFORE 'USER';

-- Down Migration

UPDATE "users" SET "role" = 'USER' WHERE "role" = 'ORGANIZER';
ALTER TABLE "users" ALTER COLUMN "role" DROP DEFAULT;
ALTER TYPE "user_role" RENAME TO "user_role_0014";
CREATE TYPE "user_role" AS ENUM ('ADMIN', 'USER');
ALTER TABLE "users" ALTER COLUMN "role" TYPE "user_role" USING "role"::text::"user_role";
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'USER';
DROP TYPE "user_role_0014";
