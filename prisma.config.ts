/**
 * Prisma CLI configuration (Prisma 7 reads it instead of the schema's datasource url).
 *
 * Only `prisma generate` / `validate` / `format` are used here, run with
 * PRISMA_SCHEMA_ENGINE_BINARY=/bin/false because the native schema engine cannot be
 * downloaded (see shared/STACK.md). Migrations are plain SQL files applied by
 * node-pg-migrate (`npm run db:migrate`), not by `prisma migrate`, so no `migrations`
 * entry is configured. The datasource url is optional: generate does not connect.
 */
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
