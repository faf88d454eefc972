/**
 * `GET /downloads/corefboard-<version>.mjs`: the site's scorer as one runnable file (issue 24
 * §3 B; `lib/scorer/bundle.ts`), for anyone. `node corefboard-<version>.mjs score KEY RUN
 * [--preset crac]` scores exactly as the site does.
 *
 * Answers 200 `text/javascript` (`Content-Disposition: attachment`) with `X-Content-SHA256`,
 * the sha256 (hex) of the bytes sent; cacheable for a day (the name changes with the version).
 * 404 (JSON `{"error": …}`) for any other file name, e.g. another version, or when the bundle
 * is not built on this server.
 */
import { errorResponse } from "@/lib/http/api";
import { NotFoundError } from "@/lib/errors";
import { downloadResponse } from "@/lib/http/download-response";
import { loadScorerBundle, scorerBundleFileName } from "@/lib/scorer/bundle";

export const dynamic = "force-dynamic";

/** The scorer file; see the file comment. */
export async function GET(_request: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  try {
    const { file } = await ctx.params;
    if (file !== scorerBundleFileName()) throw new NotFoundError(`No such download; the scorer is ${scorerBundleFileName()}.`);
    const bundle = await loadScorerBundle();
    return downloadResponse({ ...bundle, contentType: "text/javascript; charset=utf-8" }, "public, max-age=86400");
  } catch (error) {
    return errorResponse(error, "GET /downloads/:file");
  }
}
