/**
 * Vitest global set-up: one throwaway embedded Postgres for the whole test run, with the
 * migrations applied once to a template database. Each test file that calls
 * `useTestDatabase()` gets its own database copied from that template (`CREATE DATABASE …
 * TEMPLATE`, a file copy that takes milliseconds), instead of its own cluster (initdb and every
 * migration: seconds). The server's address reaches the test files through vitest's
 * `provide`/`inject` (`TEST_POSTGRES`).
 */
import type { TestProject } from "vitest/node";
import pg from "pg";
import { startTemporaryPostgres, type EmbeddedPostgresHandle } from "./embedded";
import { migrate } from "./migrate";

/** The migrated template every test database is copied from. */
export const TEMPLATE_DATABASE = "corefboard_test_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test run's Postgres: an admin connection string (database `postgres`) and the template's name. */
    TEST_POSTGRES: { adminUrl: string; template: string };
  }
}

/** The run's server and template, started by the first project that asks (both site projects share it). */
let shared: Promise<{ server: EmbeddedPostgresHandle; adminUrl: string }> | undefined;
/** Projects whose teardown has not run yet; the last one stops the server. */
let users = 0;

/** Starts the server and migrates the template. */
async function start(): Promise<{ server: EmbeddedPostgresHandle; adminUrl: string }> {
  const server = await startTemporaryPostgres();
  const admin = new URL(server.connectionString);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    const template = new URL(server.connectionString);
    template.pathname = `/${TEMPLATE_DATABASE}`;
    await migrate(template.toString());
    // No connection may stay open to a template while it is copied.
    await client.query(`ALTER DATABASE ${TEMPLATE_DATABASE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  } finally {
    await client.end();
  }
  return { server, adminUrl: admin.toString() };
}

/**
 * Gives `project` the run's server (starting it and migrating the template the first time;
 * vitest calls this once per project that lists it, before that project's files).
 * @returns the teardown: the last project's stops the server
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared ??= start();
  users++;
  const { server, adminUrl } = await shared;
  project.provide("TEST_POSTGRES", { adminUrl, template: TEMPLATE_DATABASE });
  return async () => {
    if (--users === 0) {
      shared = undefined;
      await server.stop();
    }
  };
}
