/**
 * The one part of the submission API that needs the real server (issue 22: the rest of this
 * spec moved to app/api/v1/phases/[phaseId]/submissions/route.test.ts, which calls the route
 * handler with real tokens and sessions against the test database).
 *
 * Because proxy.ts runs before every request, Next buffers each request body and cuts it at
 * `experimental.proxyClientMaxBodySize` (next.config.js: UPLOAD_MAX_BYTES + 1 MB, so 3 MB on
 * the e2e server). An upload larger than that reaches the route cut short, but with its
 * Content-Length, from which the route refuses it with the JSON 413 before reading the body.
 * Only Next's server does that buffering; the Vitest test checks the 413 itself (and that the
 * body is not read) at the handler.
 */
import { expect, test } from "@playwright/test";
import { bearer } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { E2E_UPLOAD_MAX_BYTES, queryDb } from "./helpers/server";

test("size limit over HTTP: an upload past Next's proxy body buffer gets the JSON 413 from Content-Length", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { size: { token: true } }, task: {} });
  const phaseId = task!.phases.test!.id;

  // 3 MB of file plus the multipart envelope: past the 2 MB + 1 MB that Next buffers.
  const threeMb = Buffer.alloc(3 * 1024 * 1024, "x");
  const response = await request.post(`/api/v1/phases/${phaseId}/submissions`, {
    headers: bearer(users.size.token!),
    multipart: { file: { name: "system.conll", mimeType: "text/plain", buffer: threeMb }, systemName: "e2e system" },
  });
  expect(response.status(), await response.text()).toBe(413);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(response.headers()["cache-control"]).toBe("no-store");
  const { error } = (await response.json()) as { error: { code: string; message: string; maxBytes: number } };
  expect(error.code).toBe("too_large");
  expect(error.message).toMatch(/^The upload is 3(\.\d)? MB; the largest accepted file is 2 MB\.$/);
  expect(error.maxBytes).toBe(E2E_UPLOAD_MAX_BYTES);
  const rows = await queryDb<{ n: string }>("select count(*)::text as n from submissions where phase_id = $1", [phaseId]);
  expect(Number(rows[0]!.n)).toBe(0);
});
