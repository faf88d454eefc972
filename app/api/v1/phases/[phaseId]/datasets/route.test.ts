/**
 * The dataset and gold routes of a phase, called as Next calls them, against a real database
 * with API tokens: `GET/POST /api/v1/phases/{id}/datasets`, `PATCH/DELETE
 * /api/v1/phases/{id}/datasets/{datasetId}` and `POST /api/v1/phases/{id}/gold`. Checks who may
 * call them (anonymous, a participant's token, an organizer's token), the JSON answers and
 * error shapes, and that gold content and metadata reach organizers only. The queue is mocked.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("@/lib/queue");
// Anonymous requests read the session cookie; there is none outside a request.
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { createApiToken } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { makeTaskWithPhase, makeUser, SMALL_KEY } from "@/lib/tasks/test-fixtures";
import { POST as uploadGold } from "../gold/route";
import { DELETE, PATCH } from "./[datasetId]/route";
import { GET, POST } from "./route";
import { GET as getPhase } from "../route";

const testDb = useTestDatabase();

let phaseId = "";
let organizerToken = "";
let participantToken = "";

beforeAll(async () => {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Route Organizer");
  const participant = await makeUser(db, "Route Participant");
  const { phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  phaseId = phase.id;
  organizerToken = (await createApiToken(organizer.id, "routes")).token;
  participantToken = (await createApiToken(participant.id, "routes")).token;
});

const base = "http://localhost:3000";
const ctx = <P extends Record<string, string>>(params: P) => ({ params: Promise.resolve(params) });
const auth = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

function json(method: string, path: string, token: string | null, body?: unknown): Request {
  return new Request(`${base}${path}`, {
    method,
    headers: { ...auth(token), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function multipart(path: string, token: string | null, fields: Record<string, string | File>): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return new Request(`${base}${path}`, { method: "POST", headers: auth(token), body: form });
}

describe("datasets routes", () => {
  it("GET lists the datasets for anyone; organizers also get gold and run counts", async () => {
    const anonymous = await GET(json("GET", `/api/v1/phases/${phaseId}/datasets`, null), ctx({ phaseId }));
    expect(anonymous.status).toBe(200);
    const body = (await anonymous.json()) as { organizer: boolean; datasets: Record<string, unknown>[] };
    expect(body.organizer).toBe(false);
    expect(body.datasets).toEqual([expect.objectContaining({ name: "main", language: "", fileName: "main.conll", format: "conll2012", position: 0, hasGold: false })]);
    expect(body.datasets[0]).not.toHaveProperty("activeGold");
    const organizer = (await (await GET(json("GET", `/api/v1/phases/${phaseId}/datasets`, organizerToken), ctx({ phaseId }))).json()) as typeof body;
    expect(organizer).toMatchObject({ organizer: true, datasets: [{ name: "main", activeGold: null, goldVersions: 0, runs: 0 }] });
    const missing = await GET(json("GET", "/api/v1/phases/00000000-0000-4000-8000-000000000000/datasets", null), ctx({ phaseId: "00000000-0000-4000-8000-000000000000" }));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("POST adds a dataset for organizers (201, Location); 401 anonymous, 403 a participant, 422 bad fields with fieldErrors", async () => {
    const path = `/api/v1/phases/${phaseId}/datasets`;
    const input = { name: "en_gum", language: "en", fileName: "en_gum-test.conll" };
    expect((await POST(json("POST", path, null, input), ctx({ phaseId }))).status).toBe(401);
    expect((await POST(json("POST", path, participantToken, input), ctx({ phaseId }))).status).toBe(403);
    expect((await POST(json("POST", path, "cb_not-a-token", input), ctx({ phaseId }))).status).toBe(401);
    const bad = await POST(json("POST", path, organizerToken, { name: "en gum", fileName: "a/b.conll" }), ctx({ phaseId }));
    expect(bad.status).toBe(422);
    const badBody = (await bad.json()) as { error: { code: string; fieldErrors: { path: string }[] } };
    expect(badBody.error.code).toBe("validation");
    expect(badBody.error.fieldErrors.map((e) => e.path).sort()).toEqual(["fileName", "name"]);

    const created = await POST(json("POST", path, organizerToken, input), ctx({ phaseId }));
    expect(created.status).toBe(201);
    const { dataset } = (await created.json()) as { dataset: { id: string; name: string; format: string; position: number } };
    // The first named dataset replaces the untouched automatic "main" (issue 24 §4).
    expect(dataset).toMatchObject({ name: "en_gum", format: "conll2012", position: 0 });
    expect(created.headers.get("Location")).toBe(`/api/v1/phases/${phaseId}/datasets/${dataset.id}`);

    // GET /api/v1/phases/{id} lists them next to the tracks.
    const phase = (await (await getPhase(json("GET", `/api/v1/phases/${phaseId}`, null), ctx({ phaseId }))).json()) as { phase: { datasets: { name: string }[]; tracks: unknown[] } };
    expect(phase.phase.datasets.map((d) => d.name)).toEqual(["en_gum"]);
    expect(phase.phase.tracks).toEqual([]);
  });

  it("PATCH and DELETE address a dataset by id or name in the phase; organizers only; a refused delete is a 422 with the reason", async () => {
    const path = (ref: string) => `/api/v1/phases/${phaseId}/datasets/${ref}`;
    const ar = (await (await POST(json("POST", `/api/v1/phases/${phaseId}/datasets`, organizerToken, { name: "ar", fileName: "ar.conll" }), ctx({ phaseId }))).json()) as { dataset: { id: string } };
    expect((await PATCH(json("PATCH", path("ar"), participantToken, { language: "ar" }), ctx({ phaseId, datasetId: "ar" }))).status).toBe(403);
    const patched = await PATCH(json("PATCH", path("ar"), organizerToken, { language: "ar", format: "conllu", fileName: "ar.conllu" }), ctx({ phaseId, datasetId: "ar" }));
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { dataset: unknown }).dataset).toMatchObject({ id: ar.dataset.id, language: "ar", format: "conllu", fileName: "ar.conllu" });
    expect((await PATCH(json("PATCH", path("nope"), organizerToken, { language: "x" }), ctx({ phaseId, datasetId: "nope" }))).status).toBe(404);

    expect((await DELETE(json("DELETE", path(ar.dataset.id), null), ctx({ phaseId, datasetId: ar.dataset.id }))).status).toBe(401);
    const deleted = await DELETE(json("DELETE", path(ar.dataset.id), organizerToken), ctx({ phaseId, datasetId: ar.dataset.id }));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ deleted: { id: ar.dataset.id, name: "ar" }, requeued: 0 });

    // One dataset is left: its deletion is refused.
    const last = await DELETE(json("DELETE", path("en_gum"), organizerToken), ctx({ phaseId, datasetId: "en_gum" }));
    expect(last.status).toBe(422);
    expect(((await last.json()) as { error: { message: string } }).error.message).toContain("only dataset");
  });
});

describe("POST /api/v1/phases/{id}/gold", () => {
  it("organizers upload gold (201, metadata only; 200 when identical); others get 401/403 before the body is read", async () => {
    const path = `/api/v1/phases/${phaseId}/gold`;
    const file = () => new File([SMALL_KEY], "key.conll");
    expect((await uploadGold(multipart(path, null, { file: file() }), ctx({ phaseId }))).status).toBe(401);
    const refused = await uploadGold(multipart(path, participantToken, { file: file() }), ctx({ phaseId }));
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("key.conll");

    const created = await uploadGold(multipart(path, organizerToken, { file: file() }), ctx({ phaseId }));
    expect(created.status).toBe(201);
    const body = (await created.json()) as { gold: { version: number; fileName: string }; datasets: { dataset: { name: string }; unchanged: boolean }[]; message: string };
    expect(body.gold).toMatchObject({ version: 1, fileName: "key.conll" });
    expect(body.datasets.map((d) => [d.dataset.name, d.unchanged])).toEqual([["en_gum", false]]);
    expect(JSON.stringify(body)).not.toContain("John");

    const again = await uploadGold(multipart(path, organizerToken, { file: file(), dataset: "en_gum" }), ctx({ phaseId }));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { unchanged: boolean }).unchanged).toBe(true);

    const unknown = await uploadGold(multipart(path, organizerToken, { file: file(), dataset: "fr" }), ctx({ phaseId }));
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: { fieldErrors: { path: string }[] } }).error.fieldErrors.map((e) => e.path)).toEqual(["dataset"]);

    const notMultipart = await uploadGold(json("POST", path, organizerToken, { file: "x" }), ctx({ phaseId }));
    expect(notMultipart.status).toBe(415);
  });
});
