/**
 * Preloaded into the web server (`scripts/serve.ts` starts `next start` / `next dev` with
 * `--import` of this file through NODE_OPTIONS): every HTTP request's `X-Forwarded-For` gets
 * the socket's peer address appended, as a reverse proxy does (nginx
 * `$proxy_add_x_forwarded_for`).
 *
 * Why: `next start` (Next 16.4.5, base-server.js) fills `x-forwarded-for` from the socket
 * only when the request has none, so a client could otherwise name any address and pick its
 * own sign-in counter. With the peer appended, the last entry is always an address this
 * server saw, and `clientAddress()` in `lib/rate-limit.ts` counts `TRUST_PROXY_HOPS` entries
 * back from it (0 without a proxy: the peer itself).
 *
 * It wraps `http.Server.prototype.emit` for the `request` event only; nothing else changes.
 */
import http from "node:http";

/**
 * Appends `peer` to a request's `x-forwarded-for` header.
 *
 * @param {import("node:http").IncomingMessage} request
 * @param {string | undefined} peer the socket's remote address (absent on a closed socket)
 */
export function appendPeer(request, peer) {
  if (!peer) return;
  const existing = request.headers["x-forwarded-for"];
  const chain = Array.isArray(existing) ? existing.join(", ") : existing;
  request.headers["x-forwarded-for"] = chain && chain.trim() ? `${chain}, ${peer}` : peer;
}

const MARK = Symbol.for("corefboard.forwardedFor");
if (!http.Server.prototype[MARK]) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === "request") appendPeer(args[0], args[0]?.socket?.remoteAddress);
    return emit.call(this, event, ...args);
  };
  http.Server.prototype[MARK] = true;
}
