/**
 * The participant-file routes (issue 24 §3), called as Next calls them against a real
 * database: `GET /api/v1/phases/{id}/datasets/{dataset}/blind` and `GET
 * /api/v1/phases/{id}/sample-submission`. Anonymous callers get them on a published, open
 * phase (with the sha256 header matching the bytes); a draft's are hidden (404); before the
 * phase opens 403; and what they serve is never the gold key (no chain, not its bytes).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../../../../../../lib/queue");
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { useTestDatabase } from "../../../../../../lib/db/test-db";
import { uploadGoldKey } from "../../../../../../lib/services/gold";
import { deriveBlindInput } from "../../../../../../lib/services/participant-files";
import { makeTaskWithPhase, makeUser, SMALL_KEY } from "../../../../../../lib/services/test-fixtures";
import { sha256Hex } from "../../../../../../lib/storage";
import { GET as getBlind } from "../datasets/[datasetId]/blind/route";
import { GET as getSample } from "./route";

const testDb = useTestDatabase();
const ids = { open: "", draft: "", later: "", fileName: "" };

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
});
