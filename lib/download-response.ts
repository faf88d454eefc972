/** The HTTP answer for a file download (participant files, the scorer bundle). */

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
      "Content-Disposition": `attachment; filename="${file.fileName.replace(/[^\w.-]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "X-Content-SHA256": file.sha256,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
