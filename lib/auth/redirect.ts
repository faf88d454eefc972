/**
 * Where to send the user after signing in (or up): the one check of every `callbackUrl` the
 * site follows, in the sign-in and sign-up pages and in next-auth's `redirect` callback
 * ({@link safeRedirectUrl}). The answer is always a path on this site that is safe as it is in a
 * `Location` header, or the fallback: never another origin, never a 500.
 *
 * A value is refused (the fallback is used) when it is not a string, is longer than 2,000
 * characters, does not start with exactly one `/` (`//host`, `/\host` and `https:…` are
 * other origins), holds a backslash (browsers read it as `/`), a control character (C0, DEL, C1:
 * browsers drop tabs and line breaks, so `/\t/host` would become `//host`), a Unicode format,
 * separator or unassigned character (U+2028, U+200B, U+202E, U+00A0, a lone surrogate, …), a
 * character that Unicode compatibility folding (NFKC) turns into ASCII (full-width `／` `＼` `．`
 * `：`, ligatures such as `ﬁ`, …), or an ideographic or half-width full stop (`。` U+3002,
 * `｡` U+FF61), which hostnames treat as `.`. Any other character outside printable ASCII (`é`,
 * `東京`), and `"`, `<`, `>`, `` ` ``, `^`, `{`, `|`, `}` and the space, are percent-encoded as
 * UTF-8; `%` and the rest of printable ASCII stay as they are.
 */

/** Code points refused outright besides the classes above: full stops that hostnames read as ".". */
const LOOKALIKE_DOTS = new Set([0x3002, 0xff61, 0xff0e]);
/** Printable ASCII that is percent-encoded rather than written raw. */
const ENCODED_ASCII = new Set([..." \"<>`^{|}"]);
/** Control, format, separator, unassigned, private-use characters and lone surrogates. */
const REFUSED_CLASSES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Cn}\p{Co}\p{Cs}\\]/u;

/**
 * A `callbackUrl` made safe: a same-site path, percent-encoded where it has to be, or `fallback`.
 *
 * @param value a `callbackUrl` from the query string (or anything else)
 * @param fallback used when `value` is missing or refused; default "/" (must itself be safe)
 * @returns a path that starts with a single "/" and holds printable ASCII only, e.g. "/account"
 */
export function safeCallbackPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f) {
      if (char === "\\") return fallback;
      out += ENCODED_ASCII.has(char) ? encodeURIComponent(char) : char;
      continue;
    }
    if (code === 0x20) {
      out += "%20";
      continue;
    }
    if (REFUSED_CLASSES.test(char) || LOOKALIKE_DOTS.has(code) || /[\x00-\x7f]/.test(char.normalize("NFKC"))) return fallback;
    out += encodeURIComponent(char);
  }
  return out;
}

/**
 * next-auth's `redirect` callback: where next-auth sends the browser after signing in or out,
 * and the `callbackUrl` it hands to the sign-in page. A path or a URL of this site's origin
 * becomes `baseUrl` + its {@link safeCallbackPath}; anything else (another origin, `javascript:`,
 * a string that is no URL at all) becomes `baseUrl` + "/". Never throws (next-auth's default
 * callback throws on a relative value that does not start with "/", which answered a 500).
 *
 * @param url the URL next-auth was asked to go to
 * @param baseUrl the site's origin as next-auth knows it (NEXTAUTH_URL), e.g. "https://corefboard.org"
 * @returns an absolute URL on `baseUrl`'s origin, safe for a `Location` header
 */
export function safeRedirectUrl(url: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  let path: unknown = url;
  if (typeof url === "string" && !url.startsWith("/")) {
    path = "/";
    try {
      const parsed = new URL(url);
      if (parsed.origin === new URL(base).origin) path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
    } catch {
      // Not an absolute URL: refused.
    }
  }
  return `${base}${safeCallbackPath(path)}`;
}
