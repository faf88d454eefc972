/**
 * The resilience suite (issue 8's acceptance list) against one running site, started the way
 * a deployer starts it (scripts/serve.ts with one worker, on its own embedded Postgres; see
 * ./harness.ts), in this order:
 *
 * 1. attacks (./attacks.ts): hostile uploads, 100 concurrent uploads against a daily limit, a
 *    sign-in flood;
 * 2. scoring fairness (./fairness.ts): a normal run right after another team's slow runs;
 * 3. failures of the site's own parts (./recovery.ts), last since they disturb it: kill -9 of
 *    the worker mid-scoring, a Postgres restart.
 *
 * One site for both: starting a site (Postgres, migrations, `next start`, the worker) is
 * paid once. Only the failure tests' runs are slowed down in the worker (./recovery.ts's
 * FAILURES_ENV, by system name), so the attacks' runs are scored at full speed. The worker
 * also checks its claims more often than deployed (FAILURES_ENV's heartbeat settings), so that
 * the kill test waits seconds, not half a minute, for the dead worker's run.
 *
 * Run with `npm run test:resilience` (./run.mjs: node's test runner through tsx).
 */
import { after, before } from "node:test";
import { attacks } from "./attacks";
import { fairness } from "./fairness";
import { startSite, type Site } from "./harness";
import { failures, FAILURES_ENV } from "./recovery";

let site: Site | undefined;

/** The running site; the suite's `before` has started it. */
function getSite(): Site {
  if (!site) throw new Error("the resilience site did not start");
  return site;
}

before(
  async () => {
    site = await startSite({ env: FAILURES_ENV });
  },
  { timeout: 360_000 },
);

after(
  async () => {
    await site?.stop();
  },
  { timeout: 60_000 },
);

attacks(getSite);
fairness(getSite);
failures(getSite);
