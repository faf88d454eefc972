/** The HTTP answer for a file download (participant files, the scorer bundle). */

/**
 * The `Content-Disposition` value of an attachment named `fileName`: the name made ASCII-safe
 * in `filename` (anything but letters, digits, `_`, `.` and `-` becomes `_`), and exact,
 * percent-encoded UTF-8, in `filename*` (RFC 6266), which browsers prefer.
 *
 * @param fileName the file's name
 * @returns e.g. `attachment; filename="a_b.conll"; filename*=UTF-8''a%20b.conll`
 */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^\w.-]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * A 200 answer carrying a file as an attachment.
 *
 * @param file its name (sent ASCII-safe in `filename`, exactly in `filename*`), bytes, sha256
 *   (lower-case hex, sent as `X-Content-SHA256`) and content type
 * @param cacheControl the `Cache-Control` value (default `no-store`: access may change)
 * @returns the Response
 */
export function downloadResponse(file: { fileName: string; bytes: Uint8Array; sha256: string; contentType: string }, cacheControl = "no-store"): Response {
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      "Cache-Control": cacheControl,
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "X-Content-SHA256": file.sha256,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
