/**
 * The one part of the submission API that needs the real server (issue 22: the rest of this
 * spec moved to app/api/v1/phases/[phaseId]/submissions/route.test.ts, which calls the route
 * handler with real tokens and sessions against the test database).
 *
 * proxy.ts does not run for the upload routes (its matcher leaves them out, so that Next does
 * not buffer their bodies: issue 23), and the route streams the body itself. An upload larger
 * than UPLOAD_MAX_BYTES (2 MB on the e2e server) is refused from its Content-Length with the
 * JSON 413 before the body is read. The Vitest test checks the 413 itself (and that the body
 * is not read) at the handler; this one checks it through Next's server.
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
