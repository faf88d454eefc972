/** The web server's addresses (scripts/serve.ts): its public URL and the URL serve polls. */

/** Host names that mean "every interface". */
export const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The site's public URL when NEXTAUTH_URL is unset: `http://localhost:<port>` when the
 * server listens on a loopback address or on every interface, else `http://<hostname>:<port>`.
 *
 * @param hostname the interface `next` listens on (`--hostname`)
 * @param port the HTTP port
 */
export function defaultPublicUrl(hostname: string, port: number): string {
  const loopback = hostname === "localhost" || hostname === "::1" || hostname.startsWith("127.");
  if (loopback || WILDCARD_HOSTS.has(hostname)) return `http://localhost:${port}`;
  return `http://${hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname}:${port}`;
}

/**
 * The URL this process polls to see that the web server answers: the listening address,
 * or 127.0.0.1 when it listens on every interface.
 */
export function probeUrl(hostname: string, port: number): string {
  const host = WILDCARD_HOSTS.has(hostname) ? "127.0.0.1" : hostname.replace(/^\[|\]$/g, "");
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
}

