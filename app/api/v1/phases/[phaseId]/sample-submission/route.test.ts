/**
 * The participant-file routes (issue 24 §3), called as Next calls them against a real
 * database: `GET /api/v1/phases/{id}/datasets/{dataset}/blind` and `GET
 * /api/v1/phases/{id}/sample-submission`. Anonymous callers get them on a published, open
 * phase (with the sha256 header matching the bytes); a draft's are hidden (404); before the
 * phase opens 403; and what they serve is never the gold key (no chain, not its bytes). And
 * `POST …/blind`, the organizers' upload: the gold key is refused (422, nothing changes), a
 * file without coreference replaces the derived one (201); both methods carry the security
 * headers (the proxy does not run for an upload route).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/queue");
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { createApiToken } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { uploadGoldKey } from "@/lib/tasks/gold";
import { deriveBlindInput } from "@/lib/runs/participant-files";
import { makeTaskWithPhase, makeUser, SMALL_KEY } from "@/lib/tasks/test-fixtures";
import { sha256Hex } from "@/lib/storage";
import { GET as getBlind, POST as postBlind } from "../datasets/[datasetId]/blind/route";
import { GET as getSample } from "./route";

const testDb = useTestDatabase();
const ids = { open: "", draft: "", later: "", fileName: "", token: "", outsiderToken: "" };

beforeAll(async () => {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Files Organizer");
  const hour = 3600_000;
  const make = async (options: Parameters<typeof makeTaskWithPhase>[1]) => {
    const made = await makeTaskWithPhase(db, { organizerIds: [organizer.id], ...options });
    await uploadGoldKey(organizer.viewer, made.phase.id, "gold.conll", Buffer.from(SMALL_KEY));
    await deriveBlindInput(organizer.viewer, made.phase.id, "main");
    return made;
  };
  const open = await make({});
  ids.open = open.phase.id;
  ids.fileName = open.dataset.fileName;
  ids.draft = (await make({ status: "DRAFT" })).phase.id;
  ids.later = (await make({ phase: { opensAt: new Date(Date.now() + hour), closesAt: new Date(Date.now() + 2 * hour) } })).phase.id;
  ids.token = (await createApiToken(organizer.id, "files")).token;
  ids.outsiderToken = (await createApiToken((await makeUser(db, "Files Outsider")).id, "files")).token;
});

const blind = (phaseId: string) => getBlind(new Request(`http://localhost:3000/api/v1/phases/${phaseId}/datasets/main/blind`), { params: Promise.resolve({ phaseId, datasetId: "main" }) });
const sample = (phaseId: string) => getSample(new Request(`http://localhost:3000/api/v1/phases/${phaseId}/sample-submission`), { params: Promise.resolve({ phaseId }) });

describe("participant-file routes", () => {
  it("serve anonymous callers on a published open phase, never the gold", async () => {
    for (const response of [await blind(ids.open), await sample(ids.open)]) {
      expect(response.status).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(response.headers.get("X-Content-SHA256")).toBe(sha256Hex(bytes));
      expect(response.headers.get("Content-Disposition")).toContain(`filename="${ids.fileName}"`);
      const text = new TextDecoder().decode(bytes);
      expect(sha256Hex(bytes)).not.toBe(sha256Hex(SMALL_KEY));
      for (const line of text.split("\n").filter((l) => l.includes("\t"))) expect(line).toMatch(/\t-$/);
    }
  });

  it("hide a draft's files (404) and refuse before the phase opens (403)", async () => {
    expect((await blind(ids.draft)).status).toBe(404);
    expect((await sample(ids.draft)).status).toBe(404);
    expect((await blind(ids.later)).status).toBe(403);
    expect((await sample(ids.later)).status).toBe(403);
  });

  it("take an organizer's upload of a blind input: the gold key is refused and changes nothing, a file without coreference replaces the derived one", async () => {
    const upload = (phaseId: string, token: string, name: string, text: string) => {
      const form = new FormData();
      form.set("file", new File([text], name, { type: "text/plain" }));
      const request = new Request(`http://localhost:3000/api/v1/phases/${phaseId}/datasets/main/blind`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
      return postBlind(request, { params: Promise.resolve({ phaseId, datasetId: "main" }) });
    };
    const derived = await (await blind(ids.open)).text();
    const leak = await upload(ids.open, ids.token, "gold.conll", SMALL_KEY);
    expect(leak.status).toBe(422);
    expect(((await leak.json()) as { error: { message: string } }).error.message).toMatch(/holds coreference annotation \(\d+ mentions\)/);
    expect(leak.headers.get("Content-Security-Policy")).toBeTruthy();
    expect(await (await blind(ids.open)).text()).toBe(derived);
    // Another user's token: 403, nothing read or stored.
    expect((await upload(ids.open, ids.outsiderToken, "mine.conll", derived)).status).toBe(403);
    // A blind file of the organizer's own (the derived one with a comment line added) replaces it.
    const own = `# blind input made by the organizers\n${derived}`;
    const taken = await upload(ids.open, ids.token, "mine.conll", own);
    expect(taken.status).toBe(201);
    expect(((await taken.json()) as { blind: { source: string; sha256: string } }).blind).toMatchObject({ source: "uploaded", sha256: sha256Hex(Buffer.from(own)) });
    const served = await blind(ids.open);
    expect(served.headers.get("Content-Security-Policy")).toBeTruthy();
    expect(await served.text()).toBe(own);
  });
});
