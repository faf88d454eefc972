/**
 * Rate limits: sign-in attempts per account and per client address, team creation per user.
 * Server-only.
 *
 * Counters live in Postgres (table `rate_limits`, migration 0003, in the layout of
 * `rate-limiter-flexible`'s RateLimiterPostgres: key, points, expire in epoch milliseconds),
 * so every web process shares them and they survive restarts. Each kind has a fixed window
 * that starts with its first counted attempt: when `points` are used up, further attempts are
 * refused until the window ends ({@link RateLimitedError}, 429, "… Try again at 14:05 (UTC).").
 *
 * | kind              | key                          | default        | variable                     |
 * |-------------------|------------------------------|----------------|------------------------------|
 * | `sign-in-account` | the email (stored as sha256) | 10 per 15 min  | `RATE_LIMIT_SIGN_IN_ACCOUNT` |
 * | `sign-in-ip`      | client address (IPv6: /64)   | 100 per 15 min | `RATE_LIMIT_SIGN_IN_IP`      |
 * | `sign-up-ip`      | client address (IPv6: /64)   | 20 per hour    | `RATE_LIMIT_SIGN_UP_IP`      |
 * | `sign-up-account` | the email (stored as sha256) | 5 per hour     | `RATE_LIMIT_SIGN_UP_ACCOUNT` |
 * | `team-create`     | the user's id                | 10 per day     | `RATE_LIMIT_TEAM_CREATE`     |
 *
 * A variable holds `<points>/<window>`, the window a whole number with a unit s, m, h or d:
 * e.g. `RATE_LIMIT_SIGN_IN_ACCOUNT=5/30m`.
 *
 * Sign-in ({@link reserveSignInAttempt}): a point is taken from both sign-in counters BEFORE
 * the password is hashed and given back when the password was right, so only failures count
 * and a flood is refused without hashing (200 concurrent wrong passwords for one account cost
 * at most 10 hashes). The email's counter is taken first; an attempt refused by it does not
 * count against the address, so a flood at one account does not lock out everybody behind the
 * same address (a campus NAT, or 127.0.0.1 in the test suites). The email's counter is kept
 * for emails without an account too, so a lockout reveals nothing about which emails exist.
 * A locked email is also locked for its owner until the window ends: that is the price of
 * stopping password guessing, and the message says when it ends.
 *
 * Client address ({@link clientAddress}): `next start` (Next 16.4.5, base-server.js) sets
 * `x-forwarded-for` from the socket only when the request has none, so a client could name
 * its own address. `scripts/forwarded-for.mjs`, preloaded into the web server by
 * `scripts/serve.ts`, therefore appends the socket's peer address to every request's
 * `X-Forwarded-For`, as a reverse proxy does: the last entry is always an address the server
 * saw. Without a proxy (`TRUST_PROXY_HOPS=0`, the default) that last entry is the client.
 * Behind reverse proxies that append the peer's address (nginx `$proxy_add_x_forwarded_for`,
 * Caddy, most load balancers), set `TRUST_PROXY_HOPS` to their number: the address is then
 * the entry that many places left of the last, which the outermost proxy wrote.
 *
 * A refused sign-in is answered only after {@link signInRefusalDelayMs} (1 s by default,
 * `SIGN_IN_REFUSAL_DELAY_MS`; a timer, no CPU): a script that retries as fast as it gets
 * answers then sends one request per second per connection instead of hundreds, which would
 * otherwise crowd out page rendering even though each refusal costs only about 3 ms.
 *
 * When Postgres cannot be reached, each process counts in memory with the same rules
 * (rate-limiter-flexible's `insuranceLimiter`) and logs a warning: a flood is still refused
 * before hashing, but limits then hold per process, and counts start again from zero.
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { RateLimitedError } from "./errors";

/** What is being limited; see the module header for keys and defaults. */
export type RateLimitKind = "sign-in-account" | "sign-in-ip" | "sign-up-ip" | "sign-up-account" | "team-create";

/** Every kind, in a fixed order. */
export const RATE_LIMIT_KINDS: readonly RateLimitKind[] = ["sign-in-account", "sign-in-ip", "sign-up-ip", "sign-up-account", "team-create"];

/** A limit: at most `points` counted attempts per window of `durationSeconds`. */
export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

interface KindSpec {
  variable: string;
  fallback: string;
  /** Keys are stored as their sha256 (emails are not kept in the table). */
  hashKey: boolean;
  /** First sentence of the refusal; "Try again at …" follows. */
  refusal: string;
}

const KINDS: Record<RateLimitKind, KindSpec> = {
  "sign-in-account": {
    variable: "RATE_LIMIT_SIGN_IN_ACCOUNT",
    fallback: "10/15m",
    hashKey: true,
    refusal: "Too many sign-in attempts for this email address.",
  },
  "sign-in-ip": {
    variable: "RATE_LIMIT_SIGN_IN_IP",
    fallback: "100/15m",
    hashKey: false,
    refusal: "Too many sign-in attempts from your network address.",
  },
  "sign-up-ip": {
    variable: "RATE_LIMIT_SIGN_UP_IP",
    fallback: "20/1h",
    hashKey: false,
    refusal: "Too many sign-up attempts from your network address.",
  },
  "sign-up-account": {
    variable: "RATE_LIMIT_SIGN_UP_ACCOUNT",
    fallback: "5/1h",
    hashKey: true,
    refusal: "Too many sign-up attempts for this email address.",
  },
  "team-create": {
    variable: "RATE_LIMIT_TEAM_CREATE",
    fallback: "10/1d",
    hashKey: false,
    refusal: "You have created too many teams recently.",
  },
};

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses a rule written as `<points>/<window>`, e.g. "10/15m" (units s, m, h, d).
 *
 * @returns the rule, or null when the text is not of that form, or points or window is 0
 */
export function parseRateLimitRule(text: string): RateLimitRule | null {
  const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,6})\s*([smhd])\s*$/.exec(text);
  if (!match) return null;
  const points = Number(match[1]);
  const durationSeconds = Number(match[2]) * UNIT_SECONDS[match[3]!]!;
  if (points < 1 || durationSeconds < 1) return null;
  return { points, durationSeconds };
}

/**
 * The rule in effect for a kind: its environment variable when set, else the default.
 *
 * @param env where to read the variable (default `process.env`)
 * @throws Error naming the variable when it is set but malformed (a configuration mistake)
 */
export function rateLimitRule(kind: RateLimitKind, env: Record<string, string | undefined> = process.env): RateLimitRule {
  const spec = KINDS[kind];
  const configured = env[spec.variable];
  const rule = parseRateLimitRule(configured || spec.fallback);
  if (!rule) {
    throw new Error(`${spec.variable} must look like "<points>/<window>" with a window in s, m, h or d, e.g. "${spec.fallback}" (got "${configured}")`);
  }
  return rule;
}

/**
 * How many reverse proxies in front of the site append to `X-Forwarded-For`.
 *
 * @returns `TRUST_PROXY_HOPS` when it is a whole number in [0, 10]; else 0
 */
export function trustProxyHops(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.TRUST_PROXY_HOPS);
  return env.TRUST_PROXY_HOPS && Number.isInteger(value) && value >= 0 && value <= 10 ? value : 0;
}

/**
 * How long a refused sign-in waits before it is answered (see the module header).
 *
 * @returns `SIGN_IN_REFUSAL_DELAY_MS` when it is a whole number in [0, 10000]; else 1000
 */
export function signInRefusalDelayMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.SIGN_IN_REFUSAL_DELAY_MS);
  return env.SIGN_IN_REFUSAL_DELAY_MS && Number.isInteger(value) && value >= 0 && value <= 10_000 ? value : 1000;
}

/** Request headers as a `Headers` object or a plain object (next-auth passes the latter). */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * The client's address, for the per-address sign-in limit (see the module header for what
 * it can be trusted for).
 *
 * @param headers the request's headers (`x-forwarded-for` is read)
 * @param hops trusted proxies (default {@link trustProxyHops})
 * @returns the address's counter key: an IPv4 address, an IPv6 /64 prefix such as
 *   "2001:db8:0:1::/64", "invalid" for an entry that is no address, or null when there is
 *   no `X-Forwarded-For` at all (not under `next start`, which always sets it)
 */
export function clientAddress(headers: HeaderSource, hops: number = trustProxyHops()): string | null {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  if (!value) return null;
  const chain = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (chain.length === 0) return null;
  const entry = chain[Math.max(0, chain.length - 1 - hops)]!;
  return addressKey(entry);
}

/**
 * Normalizes one `X-Forwarded-For` entry to a counter key: ports, brackets and zone ids go;
 * IPv4-mapped IPv6 becomes IPv4; IPv6 is cut to its /64 (one customer's network, which can
 * hold 2^64 addresses).
 */
export function addressKey(entry: string): string {
  let address = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return "invalid";
  const groups = ipv6Groups(address);
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (hex strings), "::" expanded. */
function ipv6Groups(address: string): string[] {
  const split = (part: string) => (part ? part.split(":") : []);
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const toGroups = (parts: string[]) =>
    parts.flatMap((p) => {
      if (!p.includes(".")) return [p];
      const [a, b, c, d] = p.split(".").map(Number);
      return [((a! << 8) | b!).toString(16), ((c! << 8) | d!).toString(16)];
    });
  const left = toGroups(split(head!));
  const right = tail === undefined ? [] : toGroups(split(tail));
  return [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
}

// ---------------------------------------------------------------------------------------------
// The store: one pg pool per process, one limiter per kind.

interface Store {
  url: string;
  pool: pg.Pool;
  limiters: Map<RateLimitKind, { rule: RateLimitRule; limiter: RateLimiterPostgres }>;
}

const globalForRateLimits = globalThis as unknown as { corefboardRateLimits?: Store };

let lastFallbackWarning = 0;

/** Counts in memory when Postgres fails; warns at most once a minute. */
class InsuranceLimiter extends RateLimiterMemory {
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    if (Date.now() - lastFallbackWarning > 60_000) {
      lastFallbackWarning = Date.now();
      console.warn("rate limits: Postgres is unreachable; counting in this process's memory until it is back");
    }
    return super.consume(key, points, options);
  }
}

function store(): Store {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("rate limits: DATABASE_URL is not set (start the embedded Postgres first, or set DATABASE_URL)");
  const cached = globalForRateLimits.corefboardRateLimits;
  if (cached?.url === url) return cached;
  if (cached) void cached.pool.end().catch(() => {});
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 3000,
    query_timeout: 3000,
    idleTimeoutMillis: 10_000,
    // Idle connections never keep a script or a test process alive.
    allowExitOnIdle: true,
  });
  // An idle connection that breaks (Postgres restarted) must not crash the process.
  pool.on("error", (error) => console.warn(`rate limits: a pooled Postgres connection failed: ${error.message}`));
  const created: Store = { url, pool, limiters: new Map() };
  globalForRateLimits.corefboardRateLimits = created;
  return created;
}

function limiterFor(kind: RateLimitKind): RateLimiterPostgres {
  const { pool, limiters } = store();
  const rule = rateLimitRule(kind);
  const cached = limiters.get(kind);
  if (cached && cached.rule.points === rule.points && cached.rule.durationSeconds === rule.durationSeconds) return cached.limiter;
  const common = { keyPrefix: kind, points: rule.points, duration: rule.durationSeconds };
  const limiter = new RateLimiterPostgres({
    ...common,
    storeClient: pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    // Once a key is over its limit, refuse it from memory until its window ends: a flood at a
    // locked account costs no database round trip.
    inMemoryBlockOnConsumed: rule.points + 1,
    insuranceLimiter: new InsuranceLimiter(common),
  });
  limiters.set(kind, { rule, limiter });
  return limiter;
}

function storageKey(kind: RateLimitKind, key: string): string {
  return KINDS[kind].hashKey || key.length > 200 ? createHash("sha256").update(key).digest("hex") : key;
}

/**
 * Formats when to try again for a person: "14:05 (UTC)" on the same UTC day, else
 * "2026-05-02 14:05 (UTC)". Rounded up to the minute, so it is never too early.
 */
export function formatRetryTime(at: Date, now: Date = new Date()): string {
  const rounded = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  const iso = rounded.toISOString();
  const time = iso.slice(11, 16);
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? `${time} (UTC)` : `${iso.slice(0, 10)} ${time} (UTC)`;
}

function refusal(kind: RateLimitKind, msBeforeNext: number): RateLimitedError {
  const now = new Date();
  const wait = Math.max(1000, msBeforeNext);
  const retryAt = new Date(now.getTime() + wait);
  return new RateLimitedError(`${KINDS[kind].refusal} Try again at ${formatRetryTime(retryAt, now)}.`, {
    retryAt: retryAt.toISOString(),
    retryAfterSeconds: Math.ceil(wait / 1000),
  });
}

/** A counted attempt, as {@link consumeRateLimit} grants it. */
export interface RateLimitGrant {
  kind: RateLimitKind;
  /** attempts counted in the current window, this one included */
  consumed: number;
  /** attempts left in the current window */
  remaining: number;
  /** when the current window ends */
  resetsAt: Date;
  /** Gives the point back (e.g. the attempt succeeded and only failures count). Never throws. */
  refund(): Promise<void>;
}

/**
 * Counts one attempt of `kind` for `key`, or refuses it when the window's points are used up.
 *
 * @param kind what is limited, e.g. "team-create"
 * @param key whose counter, e.g. the user's id (emails are hashed before storing)
 * @returns the grant, with a `refund()` for attempts that should not count after all
 * @throws RateLimitedError (429) with the time the window ends ("… Try again at 14:05
 *   (UTC)."; details `retryAt`, `retryAfterSeconds`)
 */
export async function consumeRateLimit(kind: RateLimitKind, key: string): Promise<RateLimitGrant> {
  const limiter = limiterFor(kind);
  const rlKey = storageKey(kind, key);
  let res: RateLimiterRes;
  try {
    res = await limiter.consume(rlKey, 1);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw refusal(kind, error.msBeforeNext);
    throw error;
  }
  const resetsAt = new Date(Date.now() + Math.max(0, res.msBeforeNext));
  let refunded = false;
  return {
    kind,
    consumed: res.consumedPoints,
    remaining: res.remainingPoints,
    resetsAt,
    async refund() {
      // After the window ended the point is gone anyway; a reward would start the next
      // window in credit.
      if (refunded || Date.now() >= resetsAt.getTime()) return;
      refunded = true;
      try {
        await limiter.reward(rlKey, 1);
      } catch (error) {
        console.warn(`rate limits: could not give back a ${kind} point: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/**
 * Clears a counter (an operator unlocking an account, or tests).
 *
 * @returns nothing; a counter that does not exist is fine
 */
export async function resetRateLimit(kind: RateLimitKind, key: string): Promise<void> {
  await limiterFor(kind).delete(storageKey(kind, key));
}

/** Reservation of one sign-in attempt; see {@link reserveSignInAttempt}. */
export interface SignInReservation {
  /**
   * Gives both points back: the password was right (only failures count), or it could not be
   * checked (e.g. the server was too busy). Never throws.
   */
  refund(): Promise<void>;
}

/**
 * Reserves one sign-in attempt before the password is checked: a point from the email's
 * counter, then (when the address is known) one from the address's counter.
 *
 * @param email the normalized (trimmed, lower-cased) email typed in, whether or not it has
 *   an account
 * @param address the client's address key ({@link clientAddress}); null skips that limit
 * @throws RateLimitedError (429) when either counter is used up; an attempt refused by the
 *   address's counter does not count against the email
 */
export async function reserveSignInAttempt(email: string, address: string | null): Promise<SignInReservation> {
  const account = await consumeRateLimit("sign-in-account", email);
  let ip: RateLimitGrant | undefined;
  if (address !== null) {
    try {
      ip = await consumeRateLimit("sign-in-ip", address);
    } catch (error) {
      await account.refund();
      throw error;
    }
  }
  return {
    async refund() {
      await Promise.all([account.refund(), ip?.refund()]);
    },
  };
}

/** Closes the pool (shutdown and tests). The next call opens a new one. */
export async function closeRateLimitStore(): Promise<void> {
  const cached = globalForRateLimits.corefboardRateLimits;
  globalForRateLimits.corefboardRateLimits = undefined;
  await cached?.pool.end();
}
