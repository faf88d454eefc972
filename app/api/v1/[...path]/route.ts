/**
 * Every other `/api/v1/...` path: a JSON 404 (instead of Next's HTML page), for every method.
 */
import { jsonResponse } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/** JSON 404 for an unknown API path. */
function notFound(request: Request): Response {
  const path = new URL(request.url).pathname;
  return jsonResponse({ error: { code: "not_found", message: `No API route ${request.method} ${path}. See GET /api/v1/tasks to start.` } }, { status: 404 });
}

/** Every method answers the same JSON 404. */
export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
