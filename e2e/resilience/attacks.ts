/**
 * Resilience, part 1: attacks on the running site (issue 8's acceptance list), in this order
 * (the suite's one server: scripts/serve.ts, one worker, its own Postgres; see ./site.test.ts):
 *
 * a. three hostile ~48 MB uploads in parallel while pages are probed;
 * c. 100 concurrent API uploads from 5 teams with a daily limit of 7;
 * e. a flood of 200 wrong passwords for one account while the home page is probed (it may
 *    leave 127.0.0.1 rate-limited for sign-in; nothing after it signs in);
 * F1. a 47 MB multipart body of ~800,000 fields sent to `/signup` as a server action call
 *    while pages are probed (issue 23);
 * F2. 24 concurrent 52 MB bodies to `/`, `/tasks/nope` and `/api/v1/nope`, then 8 more,
 *    watching the web server's memory (issue 23).
 * F1 and F2 come last: their clients send about 1.7 GB of bodies, and the machine's aftermath
 * (page cache, allocator) moved e's flood p95 to 10× its baseline in one run before this order.
 *
 * Each test prints its figures (`ℹ` lines): latencies, validation times, throughput.
 * Run with `npm run test:resilience` (node's test runner through tsx).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, test } from "node:test";
import { seconds, readRuns, scoredLogCounts, waitForRuns } from "./checks";
import { errorOf, getCsrf, signIn, uploadRun, type SignInResult, type UploadResult } from "./clients";
import { descendants, sleep, type Site } from "./harness";
import { writeHostileConll } from "./hostile";
import { formatReport, pages, startProbe, warmUp, type ProbeReport } from "./probe";
import { createAccount, createScoredTask, createTeamWith, RUN, useSuiteSite } from "./seed";

/** How long one sign-in attempt of the flood may take before it counts as unanswered. */
const FLOOD_TIMEOUT_MS = 60_000;

/**
 * Page latency under attack may be at most this many times the quiet baseline's p95, measured
 * on the same site just before (a ratio, so that a busy or slow machine moves both; an absolute
 * bound failed CI when other work shared the 2 cores). Measured here: 2.9× during the hostile
 * uploads (78.9 → 230.3 ms); a blocked event loop gives seconds. (The sign-in flood bounds the
 * median instead: {@link FLOOD_P50_RATIO}.)
 */
const P95_RATIO = 8;

/** The p95 bound under attack for a baseline report. */
const p95Bound = (baseline: ProbeReport) => Math.round(P95_RATIO * baseline.p95);

/**
 * During the sign-in flood, the home page's median latency may be at most this many times the
 * quiet baseline's median, measured on the same site just before.
 *
 * Why the median here, and not the p95 as for the other attacks: when the 200 sign-ins arrive
 * at once, the web server's one event loop works through their first steps in turn (Next's
 * proxy and route handling, about 3–4 ms each; profiled), so a page request that arrives with
 * them waits 0.2–1 s, once. Each probe loop meets that wait in one sample, so it is 2 of the
 * flood's ~50–60 samples, and whether the p95 fell on it depended on how many samples the
 * flood left: the p95 ratio ranged 1.6–8.7 over 10 floods on one quiet site here, and 31× in a
 * CI run (1,874 ms). More probe loops do not help: each meets the wait too (4 loops: 4 of ~90
 * samples). That one wait is the fair cost of a burst on one process, not starvation; what
 * the check exists for is a flood that keeps the pages waiting (hashing on the event loop:
 * every request behind 200 checks of 30–60 ms), which moves the median by seconds. Measured
 * here: median ratio 1.1–2.0 over 28 floods (2, 4 and 8 probe loops). Every probe must still
 * be answered with 200, and the slowest samples are printed with when they were sent.
 */
const FLOOD_P50_RATIO = 4;

/** How long the quiet baseline is probed before an attack. */
const BASELINE_MS = 4_000;

/**
 * The same probe on the quiet site, just before the attack: the baseline the latency under
 * attack is compared with (a ratio, not an absolute bound, so a busy machine moves both).
 */
async function quietBaseline(baseUrl: string, pages: string[]): Promise<ProbeReport> {
  const probe = await startProbe(baseUrl, pages);
  await sleep(BASELINE_MS);
  return probe.stop();
}

/**
 * The worst probe latency under the oversized-body attacks (F1, F2) may be at most this many
 * times the quiet baseline's p95, measured on the same site just before. Before the fixes a
 * 47 MB server action body froze every request for 2.2 s (baseline 7–14 ms: ~200×), and 24
 * bodies of 52 MB stalled probes for 1.7–4.6 s.
 */
const WORST_RATIO = 25;

/** The most the web server's resident memory may grow during the F2 bodies (bytes). */
const F2_RSS_GROWTH_MAX = 400 * 2 ** 20;

/**
 * The pid of the process listening on the site's port (`next start`'s server, a descendant
 * of serve), from /proc/net/tcp{,6} and the descendants' open sockets (Linux).
 *
 * @throws Error when no descendant of serve listens on the port
 */
function webServerPid(site: Site): number {
  const portHex = site.port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address "0100007F:1F90", state 0A = LISTEN, inode in column 10
      if (f.length > 9 && f[1]!.endsWith(`:${portHex}`) && f[3] === "0A") inodes.add(f[9]!);
    }
  }
  for (const pid of [site.servePid, ...descendants(site.servePid)]) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  throw new Error(`no process of serve (pid ${site.servePid}) listens on port ${site.port}`);
}

/** A process's resident memory (VmRSS of /proc/PID/status), in bytes. */
function rssBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/**
 * The bytes a process has read through read(2) and friends, sockets included (`rchar` in
 * /proc/PID/io): a server that reads a refused body to its end reads all of it.
 */
function bytesRead(pid: number): number {
  const value = /^rchar:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1];
  if (value === undefined) throw new Error(`no rchar for pid ${pid}`);
  return Number(value);
}

/** Megabytes with one decimal, for figures. */
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * A `multipart/form-data` body of `fields` tiny text fields, about `totalBytes` long (the F1
 * body: hundreds of thousands of parts, each cheap to send and costly to parse).
 */
function manyFieldsBody(fields: number, totalBytes: number): { boundary: string; body: Uint8Array<ArrayBuffer> } {
  const boundary = "b";
  const head = (i: number) => `--${boundary}\r\nContent-Disposition: form-data; name="${i.toString(36)}"\r\n\r\n`;
  const fixed = head(fields).length + 2;
  const valueLength = Math.max(1, Math.floor(totalBytes / fields) - fixed);
  const value = "x".repeat(valueLength);
  const parts: string[] = [];
  for (let i = 0; i < fields; i++) parts.push(`${head(i)}${value}\r\n`);
  parts.push(`--${boundary}--\r\n`);
  return { boundary, body: new TextEncoder().encode(parts.join("")) };
}

/**
 * Sends one body with node:http, as fast as the machine's loopback takes it (fetch sends a
 * 52 MB Uint8Array at about 25 MB/s, 25 times slower, so the attack would be the test
 * client's own work); the answer's status and time (status 0: no answer, with the error).
 */
function sendBody(url: string, body: Uint8Array, headers: Record<string, string>): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, text: string) => resolve({ status, ms: performance.now() - t0, text });
    const request = http.request(url, { method: "POST", headers: { ...headers, "Content-Length": String(body.byteLength) }, timeout: 120_000 }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => done(response.statusCode ?? 0, text));
      response.on("error", (error: NodeJS.ErrnoException) => done(response.statusCode ?? 0, text || `${error.code ?? ""} ${error.message}`));
    });
    request.on("timeout", () => request.destroy(new Error("no answer within 120 s")));
    request.on("error", (error: NodeJS.ErrnoException) => done(0, `${error.code ?? ""} ${error.message}`));
    request.end(body);
  });
}

/**
 * Whether a body the server must refuse was refused: a 413, or the connection closed by the
 * server while the body was still being sent (Node's HTTP server may close a connection whose
 * request it answered before reading it all; the client then sees a reset, not the answer). A
 * crashed server also resets connections: the probes' check (every page answered 200) and the
 * RSS reading catch that.
 */
function refusedBody(answer: { status: number; text: string }): boolean {
  return answer.status === 413 || (answer.status === 0 && /ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/.test(answer.text));
}

/**
 * Registers the attacks (a node:test `describe`) on the site `getSite` returns once the
 * suite's `before` has started it.
 */
export function attacks(getSite: () => Site): void {
  describe("attacks on a running site", () => {
    let site!: Site;
    useSuiteSite(getSite, (s) => (site = s));

    test(`a. 3 hostile 48 MB uploads in parallel: each refused (422, or 503 busy) with a clear message, nothing stored, no quota used; pages keep p95 within ${P95_RATIO}× the quiet baseline's`, { timeout: 240_000 }, async (t) => {
      const task = await createScoredTask(1);
      const attackers: Awaited<ReturnType<typeof createAccount>>[] = [];
      for (let i = 1; i <= 3; i++) attackers.push(await createAccount(`attacker${i}`));
      const hostile = await writeHostileConll(path.join(site.dir, "hostile.conll"));
      t.diagnostic(`hostile file: ${(hostile.bytes / 2 ** 20).toFixed(1)} MB, ${hostile.mentions} nested mentions, ${hostile.lines} lines, the last one broken`);

      const PAGES = pages(task.slug);
      await warmUp(site.baseUrl, PAGES);
      const baseline = await quietBaseline(site.baseUrl, PAGES);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} before the uploads (baseline)`, baseline));
      // The upload route and its validation threads are warm too: one small broken file first
      // (refused like the hostile ones, and it must not use the quota either).
      const warm = await uploadRun(site.baseUrl, task.phaseId, attackers[0]!.token, new TextEncoder().encode("#begin document (x); part 000\nx\t(oops\n"), "warm-up.conll");
      assert.equal(warm.status, 422, `a small broken file is refused: ${JSON.stringify(warm.body)}`);
      const probe = await startProbe(site.baseUrl, PAGES);
      let results: UploadResult[];
      let report: ProbeReport;
      const t0 = Date.now();
      try {
        results = await Promise.all(attackers.map(async (a) => uploadRun(site.baseUrl, task.phaseId, a.token, await hostile.blob(), "hostile.conll")));
      } finally {
        report = await probe.stop();
      }
      const wallMs = Date.now() - t0;
      results.forEach((r, i) => {
        const error = errorOf(r);
        t.diagnostic(`hostile upload ${i + 1}: ${r.status} after ${seconds(r.ms)} s: ${error?.code ?? "-"}: ${(error?.message ?? JSON.stringify(r.body)).slice(0, 200)}`);
      });
      t.diagnostic(`all 3 answered after ${seconds(wallMs)} s`);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} during the uploads`, report));
      for (const e of report.errors.slice(0, 5)) t.diagnostic(`probe error: ${e.path} ${e.status} ${e.error ?? ""}`);

      for (const [i, r] of results.entries()) {
        assert.ok(r.status === 422 || r.status === 503, `hostile upload ${i + 1}: expected 422 (or 503 busy), got ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
        const error = errorOf(r);
        assert.ok(error?.code && (error.message?.length ?? 0) >= 10, `hostile upload ${i + 1}: no clear error message: ${JSON.stringify(r.body).slice(0, 300)}`);
      }
      const stored = await site.query<{ n: number }>("select count(*)::int as n from submissions where phase_id = $1", [task.phaseId]);
      assert.equal(stored[0]!.n, 0, "no submission is stored for a refused upload");
      assert.deepEqual(report.errors.map((e) => `${e.path} ${e.status} ${e.error ?? ""}`), [], "every probe is answered with 200");
      assert.ok(
        report.p95 <= p95Bound(baseline),
        `page p95 ${report.p95} ms must stay within ${P95_RATIO}× the quiet baseline's ${baseline.p95} ms (${p95Bound(baseline)} ms) while the hostile uploads are validated`,
      );

      // No quota used: the phase allows 1 run a day, and each attacker still has it.
      const valid = await Promise.all(attackers.map((a) => uploadRun(site.baseUrl, task.phaseId, a.token, RUN)));
      for (const [i, r] of valid.entries()) assert.equal(r.status, 202, `attacker ${i + 1}'s one run of the day is still allowed: ${JSON.stringify(r.body)}`);
      const rows = await waitForRuns(site, valid.map((r) => String(r.body.id)), 60_000);
      assert.deepEqual(rows.map((r) => r.status), ["SCORED", "SCORED", "SCORED"]);
    });

    test("c. 100 concurrent API uploads from 5 teams (daily limit 7): exactly 7 accepted per team, the rest 429; every accepted run scored exactly once", { timeout: 240_000 }, async (t) => {
      const LIMIT = 7;
      const PER_TEAM = 20;
      const task = await createScoredTask(LIMIT);
      const teams: { id: string; members: Awaited<ReturnType<typeof createAccount>>[] }[] = [];
      for (let i = 0; i < 5; i++) {
        const owner = await createAccount(`team${i}-owner`);
        const member = await createAccount(`team${i}-member`);
        const team = await createTeamWith(owner, [member]);
        teams.push({ id: team.id, members: [owner, member] });
      }
      // 20 uploads per team, alternating between its two members, all 100 sent at once.
      const plan = teams.flatMap((team, ti) => Array.from({ length: PER_TEAM }, (_, k) => ({ ti, team: team.id, token: team.members[k % 2]!.token })));
      const t0 = Date.now();
      const results = await Promise.all(plan.map((p) => uploadRun(site.baseUrl, task.phaseId, p.token, RUN, "run.conll", { team: p.team })));
      const uploadedAt = Date.now();
      const byTeam = teams.map(() => new Map<number, number>());
      results.forEach((r, i) => byTeam[plan[i]!.ti]!.set(r.status, (byTeam[plan[i]!.ti]!.get(r.status) ?? 0) + 1));
      const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
      t.diagnostic(`100 uploads answered in ${seconds(uploadedAt - t0)} s (per upload p50 ${Math.round(latencies[49]!)} ms, max ${Math.round(latencies[99]!)} ms)`);
      byTeam.forEach((m, i) => t.diagnostic(`team ${i + 1}: ${[...m].map(([s, n]) => `${n}×${s}`).join(", ")}`));
      const other = results.filter((r) => r.status !== 202 && r.status !== 429);
      for (const r of other.slice(0, 3)) t.diagnostic(`unexpected answer ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);

      for (const [i, m] of byTeam.entries()) {
        assert.deepEqual(Object.fromEntries(m), { 202: LIMIT, 429: PER_TEAM - LIMIT }, `team ${i + 1}: exactly ${LIMIT} accepted, the rest refused with 429`);
      }
      const quotaMessage = errorOf(results.find((r) => r.status === 429)!)?.message ?? "";
      t.diagnostic(`429 message: ${quotaMessage}`);
      const perTeam = await site.query<{ team_id: string; n: number }>("select team_id, count(*)::int as n from submissions where phase_id = $1 group by team_id", [task.phaseId]);
      assert.deepEqual(
        perTeam.map((r) => r.n),
        teams.map(() => LIMIT),
        "the database holds exactly 7 runs per team",
      );

      const ids = results.filter((r) => r.status === 202).map((r) => String(r.body.id));
      const rows = await waitForRuns(site, ids, 120_000);
      const scoredAt = Date.now();
      const first = Math.min(...rows.map((r) => r.created_at.getTime()));
      const last = Math.max(...rows.map((r) => (r.scored_at ?? new Date(NaN)).getTime()));
      t.diagnostic(
        `${ids.length} runs scored ${seconds(scoredAt - uploadedAt)} s after the last upload answer; first stored → last scored ${seconds(last - first)} s = ${(ids.length / ((last - first) / 1000)).toFixed(2)} runs/s with one worker`,
      );
      await sleep(1000); // a late second scoring would show up in the log by now
      const logged = scoredLogCounts(site, ids);
      const again = await readRuns(site, ids);
      assert.deepEqual(
        again.filter((r) => r.status !== "SCORED").map((r) => `${r.id} ${r.status} ${r.error_stage}: ${r.error_message}`),
        [],
        "every accepted run is SCORED",
      );
      assert.deepEqual(again.filter((r) => r.attempts !== 1).map((r) => `${r.id} attempts=${r.attempts}`), [], "each run was claimed once");
      const scoreCounts = new Set(again.map((r) => r.scores));
      assert.ok(scoreCounts.size === 1 && !scoreCounts.has(0), `every run has the same non-zero number of scores (got ${[...scoreCounts].join(", ")})`);
      assert.deepEqual([...logged].filter(([, n]) => n !== 1).map(([id, n]) => `${id} scored ${n}×`), [], "the worker scored each run exactly once");
    });

    test(`e. sign-in flood: 200 concurrent wrong passwords lock the account (the right password is refused too, with a 'try again at …' message); home page median within ${FLOOD_P50_RATIO}× the quiet baseline's`, { timeout: 180_000 }, async (t) => {
      const victim = await createAccount("victim");
      const csrf = await getCsrf(site.baseUrl);
      // The client works: the right password signs in before the flood.
      const before = await signIn(site.baseUrl, csrf, victim.email, victim.password);
      assert.ok(before.signedIn, `the right password signs in before the flood (got ${before.status}, error ${before.error})`);

      await warmUp(site.baseUrl, ["/"]);
      const baseline = await quietBaseline(site.baseUrl, ["/"]);
      t.diagnostic(formatReport("home page before the flood (baseline)", baseline));
      const probe = await startProbe(site.baseUrl, ["/"]);
      let results: SignInResult[];
      let report: ProbeReport;
      const t0 = Date.now();
      try {
        results = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn(site.baseUrl, csrf, victim.email, `wrong password ${i}`, FLOOD_TIMEOUT_MS)));
      } finally {
        report = await probe.stop();
      }
      const floodMs = Date.now() - t0;
      const right = await signIn(site.baseUrl, csrf, victim.email, victim.password, FLOOD_TIMEOUT_MS);

      const outcomes = new Map<string, number>();
      for (const r of results) outcomes.set(`${r.status} ${r.error ?? "(no error)"}`, (outcomes.get(`${r.status} ${r.error ?? "(no error)"}`) ?? 0) + 1);
      const ms = results.map((r) => r.ms).sort((a, b) => a - b);
      t.diagnostic(`200 wrong passwords answered in ${seconds(floodMs)} s (per attempt p50 ${Math.round(ms[99]!)} ms, max ${Math.round(ms[199]!)} ms)`);
      for (const [k, n] of outcomes) t.diagnostic(`  ${n}× ${k.slice(0, 200)}`);
      t.diagnostic(`right password after the flood: ${right.status}, signed in: ${right.signedIn}, error: ${right.error}`);
      t.diagnostic(formatReport("home page during the flood", report));
      const slowest = [...report.samples].sort((a, b) => b.ms - a.ms).slice(0, 5);
      t.diagnostic(`slowest probes: ${slowest.map((s) => `${Math.round(s.ms)} ms sent at +${s.at - t0} ms`).join(", ")}`);

      assert.equal(results.filter((r) => r.signedIn).length, 0, "no wrong password signs in");
      assert.ok(!right.signedIn, "the right password is refused while the account is locked");
      // The lockout says until when ("… Try again at 14:05 (UTC)."), unlike a passing "busy".
      assert.match(right.error ?? "", /try again at/i, "the refusal is the lockout, saying when to try again");
      assert.deepEqual(report.errors.map((e) => `${e.path} ${e.status} ${e.error ?? ""}`), [], "every probe is answered with 200");
      const p50Bound = Math.round(FLOOD_P50_RATIO * baseline.p50);
      assert.ok(
        report.p50 <= p50Bound,
        `home page median ${report.p50} ms must stay within ${FLOOD_P50_RATIO}× the quiet baseline's ${baseline.p50} ms (${p50Bound} ms) during the flood`,
      );
    });

    test(`F1. a 47 MB multipart server-action body of ~800,000 fields to /signup: refused (413) early; pages' worst latency within ${WORST_RATIO}× the quiet baseline's p95`, { timeout: 180_000 }, async (t) => {
      const task = await createScoredTask(1);
      const PAGES = pages(task.slug);
      const { boundary, body } = manyFieldsBody(800_000, 47 * 2 ** 20);
      t.diagnostic(`body: ${mb(body.length)} MB, 800000 fields`);
      await warmUp(site.baseUrl, [...PAGES, "/signup"]);
      const baseline = await quietBaseline(site.baseUrl, PAGES);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} before (baseline)`, baseline));
      const headers = {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Next-Action": randomBytes(21).toString("hex"),
        Origin: site.baseUrl,
        Accept: "text/x-component",
      };
      const probe = await startProbe(site.baseUrl, PAGES);
      let answers: Awaited<ReturnType<typeof sendBody>>[];
      let report: ProbeReport;
      try {
        // Twice, one after the other, then a second of quiet for whatever the bodies left behind.
        answers = [await sendBody(`${site.baseUrl}/signup`, body, headers), await sendBody(`${site.baseUrl}/signup`, body, headers)];
        await sleep(1000);
      } finally {
        report = await probe.stop();
      }
      for (const [i, a] of answers.entries()) t.diagnostic(`body ${i + 1}: ${a.status} after ${a.ms.toFixed(0)} ms: ${a.text.slice(0, 160)}`);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} during`, report));
      for (const a of answers) assert.ok(refusedBody(a), `the body is refused (413, or the connection closed while it was sent): got ${a.status}: ${a.text.slice(0, 200)}`);
      assert.deepEqual(report.errors.map((e) => `${e.path} ${e.status} ${e.error ?? ""}`), [], "every probe is answered with 200");
      const bound = Math.round(WORST_RATIO * baseline.p95);
      assert.ok(report.max <= bound, `the probes' worst latency ${report.max} ms must stay within ${WORST_RATIO}× the quiet baseline's p95 ${baseline.p95} ms (${bound} ms)`);
    });

    test(`F2. 24 concurrent 52 MB bodies to /, /tasks/nope and /api/v1/nope: all refused unread (the web server reads less than one of them); its RSS grows by < 400 MB, and 8 more add less than half their size (memory reused, not kept); every page probe answered, the worst within ${WORST_RATIO}× the quiet baseline's p95`, { timeout: 240_000 }, async (t) => {
      const task = await createScoredTask(1);
      const PAGES = pages(task.slug);
      const pid = webServerPid(site);
      const body = new Uint8Array(52 * 2 ** 20).fill(0x61); // one buffer, sent 24 times
      await warmUp(site.baseUrl, PAGES);
      const baseline = await quietBaseline(site.baseUrl, PAGES);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} before (baseline)`, baseline));
      const rssBefore = rssBytes(pid);
      const readBefore = bytesRead(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        try {
          rssPeak = Math.max(rssPeak, rssBytes(pid));
        } catch {
          // the server is gone: the assertions below say so
        }
      }, 50);
      const targets = ["/", "/tasks/nope", "/api/v1/nope"];
      const probe = await startProbe(site.baseUrl, PAGES);
      let answers: (Awaited<ReturnType<typeof sendBody>> & { path: string })[];
      let report: ProbeReport;
      const t0 = Date.now();
      try {
        answers = await Promise.all(
          Array.from({ length: 24 }, async (_, i) => {
            const target = targets[i % targets.length]!;
            return { path: target, ...(await sendBody(`${site.baseUrl}${target}`, body, { "Content-Type": "application/octet-stream" })) };
          }),
        );
        await sleep(500);
      } finally {
        report = await probe.stop();
      }
      const wallMs = Date.now() - t0;
      // A process's RSS rarely shrinks back (the allocator keeps what it grew to: in CI the peak
      // +122.5 MB was still +122.5 MB seconds later), so "the memory returns" is checked as
      // "it is reused": 8 more bodies (416 MB sent) must add less than half their size. Kept
      // bodies would add at least all of it.
      const rssAfterFirst = rssBytes(pid);
      const second = await Promise.all(Array.from({ length: 8 }, async (_, i) => ({ path: targets[i % targets.length]!, ...(await sendBody(`${site.baseUrl}${targets[i % targets.length]!}`, body, { "Content-Type": "application/octet-stream" })) })));
      await sleep(500);
      clearInterval(sampler);
      const rssAfter = rssBytes(pid);
      const read = bytesRead(pid) - readBefore;
      const statuses = new Map<string, number>();
      for (const a of answers) statuses.set(`${a.path} ${a.status}`, (statuses.get(`${a.path} ${a.status}`) ?? 0) + 1);
      t.diagnostic(`24 bodies answered in ${seconds(wallMs)} s: ${[...statuses].map(([k, n]) => `${n}× ${k}`).join(", ")}`);
      t.diagnostic(`8 more: ${second.map((a) => (a.status === 413 ? "413" : "connection closed")).join(", ")}`);
      t.diagnostic(`web server (pid ${pid}) RSS: before ${mb(rssBefore)} MB, peak ${mb(rssPeak)} MB (+${mb(rssPeak - rssBefore)}), after the 24 ${mb(rssAfterFirst)} MB, after 8 more ${mb(rssAfter)} MB (+${mb(rssAfter - rssAfterFirst)})`);
      t.diagnostic(`web server read ${mb(read)} MB in all (the 32 bodies: ${mb(32 * body.byteLength)} MB; the page probes' own requests and database answers count too)`);
      t.diagnostic(formatReport(`pages ${PAGES.join(" ")} during`, report));
      // Closed unread (scripts/body-guard.mjs): without the guard, Next read all 1.6 GB.
      assert.ok(read < body.byteLength, `the web server read ${mb(read)} MB while refusing 32 bodies of ${mb(body.byteLength)} MB: less than one body expected (they are refused unread)`);
      for (const a of [...answers, ...second]) assert.ok(refusedBody(a), `${a.path}: the body is refused (413, or the connection closed while it was sent): got ${a.status}: ${a.text.slice(0, 200)}`);
      assert.ok(rssPeak - rssBefore < F2_RSS_GROWTH_MAX, `the web server's RSS grew by ${mb(rssPeak - rssBefore)} MB (at most ${mb(F2_RSS_GROWTH_MAX)} MB)`);
      const secondBytes = 8 * body.byteLength;
      assert.ok(rssAfter - rssAfterFirst < secondBytes / 2, `8 more bodies (${mb(secondBytes)} MB) added ${mb(rssAfter - rssAfterFirst)} MB to the RSS (less than half expected: the memory is reused)`);
      assert.deepEqual(report.errors.map((e) => `${e.path} ${e.status} ${e.error ?? ""}`), [], "every probe is answered with 200");
      // The web server answers a declared oversized body 413 and closes the connection unread
      // (scripts/body-guard.mjs). Before that, Next read every refused body to its end, and
      // reading 24 × 52 MB at once stalled a page probe for 3.1–4.6 s in fresh-clone runs.
      t.diagnostic(`worst probe latency ${report.max} ms = ${(report.max / baseline.p95).toFixed(1)}× the quiet baseline's p95 (issue 23's target: < 1 s)`);
      const bound = Math.round(WORST_RATIO * baseline.p95);
      assert.ok(report.max <= bound, `the probes' worst latency ${report.max} ms must stay within ${WORST_RATIO}× the quiet baseline's p95 ${baseline.p95} ms (${bound} ms)`);
    });
  });
}
