/**
 * `npm run demo`: loads the demo tasks "LitBank coreference (demo)" and "GUM multi-genre
 * (CorefUD demo)" into the database at DATABASE_URL (the serve script sets it for the embedded
 * database and runs this before starting the web server and worker). Safe to run again: it
 * adds only what is missing.
 *
 * Data: the copies shipped in the repository (lib/demo/data/, no network needed); LitBank also
 * from DEMO_DATA_DIR when set. Without a shipped copy, ../shared/data, else a download at the
 * pinned commit. Every file's sha256 is checked (lib/demo/litbank.ts, lib/demo/gum.ts).
 * Exit codes: 0 loaded (or already there), 1 an error (printed).
 */
import { disconnectPrisma } from "../lib/db/client";
import { loadDemoTasks } from "../lib/demo/demo-task";
import { EnvError, loadEnv } from "../lib/env";
import { stopBoss } from "../lib/queue";

async function main(): Promise<number> {
  try {
    const env = loadEnv();
    if (!env.DATABASE_URL) {
      console.error("demo: DATABASE_URL is not set. Run `npm run serve` (it starts the embedded database and loads the demo), or set DATABASE_URL.");
      return 1;
    }
    await loadDemoTasks({ log: (line) => console.log(`demo: ${line}`) });
    return 0;
  } catch (error) {
    if (error instanceof EnvError) console.error(error.message);
    else console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await stopBoss().catch(() => {});
    await disconnectPrisma().catch(() => {});
  }
}

process.exitCode = await main();
