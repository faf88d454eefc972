/**
 * Preloaded into the web server (`scripts/serve.ts` starts `next start` / `next dev` with
 * `--import` of this file through NODE_OPTIONS, as it does scripts/forwarded-for.mjs): a
 * request whose declared body is too large for its path (`declaredBodyRefusal` in
 * lib/http/request-body-limits.mjs: over 1 MB outside the upload routes) is answered 413 before
 * Next sees it, and its connection is closed without reading the body.
 *
 * Why (issue 23 F2): Next reads every request body to its end, also one that its proxy has
 * already refused (it keeps 1 MB and drops the rest), and Node's HTTP server reads whatever
 * is left of a body after the answer, to reuse the connection. 24 bodies of 52 MB sent at
 * once were all refused, yet the server still read and dropped 1.25 GB of them, and other
 * requests waited seconds. Here the answer goes out at once and the socket is destroyed as
 * soon as it is written: the sender's next write fails, and the server reads nothing more.
 *
 * A client that is still sending when the socket closes may see the connection reset
 * instead of the 413 (a browser sending a form over 1 MB gets a network error; the site's
 * own forms stay far below). Refusals are logged at most once a minute, with their count.
 *
 * It wraps `http.Server.prototype.emit` for the `request` event only; nothing else changes.
 */
import http from "node:http";
import { declaredBodyRefusal } from "../lib/http/request-body-limits.mjs";

/**
 * The path of a request target (origin form `/a?b` or absolute form `http://h/a?b`), without
 * the query, as sent.
 *
 * @param {string | undefined} target the request's `url`
 * @returns {string}
 */
export function requestPath(target = "/") {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) || "/" : target;
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Answers `request` with 413 when its declared body is too large for its path, then closes
 * the connection without reading the body.
 *
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @returns {boolean} true when it answered (Next must not see the request)
 */
export function refuseOversizedBody(request, response) {
  const path = requestPath(request.url);
  const message = declaredBodyRefusal(path, request.headers["content-length"]);
  if (message === null) return false;
  const isApi = path === "/api" || path.startsWith("/api/");
  const body = isApi ? JSON.stringify({ error: { code: "too_large", message } }) : message;
  response.shouldKeepAlive = false;
  response.writeHead(413, {
    "Content-Type": isApi ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  });
  const socket = request.socket;
  response.end(body, () => socket.destroy());
  logRefusal(`${request.method} ${path.slice(0, 200)} content-length=${request.headers["content-length"]}`);
  return true;
}

/** Refusals not yet logged, and when the last log line was written (ms since the epoch). */
const refusals = { pending: 0, loggedAt: 0 };

/**
 * Logs refusals at most once a minute, as one line with their count and the latest one, so
 * that a flood of refused requests (headers only, cheap to send) cannot grow the log with it.
 *
 * @param {string} latest what the latest refusal was (method, path, declared length)
 */
function logRefusal(latest) {
  refusals.pending++;
  const now = Date.now();
  if (now - refusals.loggedAt < 60_000) return;
  console.warn(`[body-guard] refused ${refusals.pending} oversized request bod${refusals.pending === 1 ? "y" : "ies"} unread since the last report; latest: ${latest}`);
  refusals.pending = 0;
  refusals.loggedAt = now;
}

const MARK = Symbol.for("corefboard.bodyGuard");
if (!http.Server.prototype[MARK]) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === "request" && refuseOversizedBody(args[0], args[1])) return true;
    return emit.call(this, event, ...args);
  };
  http.Server.prototype[MARK] = true;
}
