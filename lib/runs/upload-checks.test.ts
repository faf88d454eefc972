/** The pure checks of a run upload (upload-checks.ts), on contexts built in memory: no database, no upload pool. */
import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, NotFoundError, PhaseClosedError, QuotaExceededError, TooLargeError, ValidationError } from "../errors";
import type { PhaseWithTask } from "../tasks/phases";
import type { DatasetView } from "../tasks/datasets";
import type { TrackView } from "../tasks/tracks";
import { UploadShapeError, type DocumentCheck } from "../uploads/checks";
import type { QuotaStatus } from "./quota";
import type { UploadContext } from "./upload-context";
import {
  assertMayUploadBaseline,
  assertPhaseTakesRuns,
  assertUploadQuota,
  assertUploadShape,
  checkUpload,
  chooseUploadTeam,
  combineDocumentChecks,
  parseUploadFields,
  type UploadFields,
} from "./upload-checks";

const NOW = new Date("2025-06-01T12:00:00Z");
const PHASE_ID = "11111111-1111-4111-8111-111111111111";
const ALPHA = { id: "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", name: "Alpha" };
const BETA = { id: "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", name: "Beta" };

function dataset(name: string, position = 0): DatasetView {
  return { id: `ds-${name}`, phaseId: PHASE_ID, name, language: "", fileName: `${name}.conll`, format: "conll2012", position };
}

function track(name: string, limits: Partial<Pick<TrackView, "dailyLimit" | "totalLimit">> = {}): TrackView {
  return { id: `tr-${name}`, name, description: "", dailyLimit: null, totalLimit: null, position: 0, ...limits };
}

/** A context for a participant of an open phase of a published task, with one dataset, no tracks, one team. */
function context(over: Partial<UploadContext> = {}, task: { status?: string } = {}): UploadContext {
  const phase = {
    id: PHASE_ID,
    name: "Test",
    taskId: "task-1",
    opensAt: new Date("2025-01-01T00:00:00Z"),
    closesAt: new Date("2026-01-01T00:00:00Z"),
    documentCheck: "warn",
    dailyLimit: 5,
    totalLimit: null,
    task: { status: task.status ?? "PUBLISHED" },
  } as unknown as PhaseWithTask;
  return {
    viewer: { userId: "user-1", role: "USER" },
    phase,
    isOrganizer: false,
    teams: [ALPHA],
    taskTeam: null,
    tracks: [],
    datasets: [dataset("main")],
    activeGold: new Map(),
    ...over,
  };
}

const FIELDS: UploadFields = { fileName: "dir/system.conll", bytes: new Uint8Array(10), systemName: "sys" };

/** The error `run` throws (fails when it throws nothing). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("assertPhaseTakesRuns", () => {
  it("a draft task's phase is a 404 to non-organizers, open to organizers; an archived task refuses everyone", () => {
    expect(thrown(() => assertPhaseTakesRuns(context({}, { status: "DRAFT" })))).toEqual(new NotFoundError("No such phase."));
    expect(() => assertPhaseTakesRuns(context({ isOrganizer: true }, { status: "DRAFT" }))).not.toThrow();
    const archived = thrown(() => assertPhaseTakesRuns(context({ isOrganizer: true }, { status: "ARCHIVED" })));
    expect(archived).toBeInstanceOf(ConflictError);
    expect((archived as ConflictError).message).toBe("This task is archived: it no longer accepts runs.");
    expect(() => assertPhaseTakesRuns(context())).not.toThrow();
  });
});

describe("parseUploadFields", () => {
  it("parses the metadata, the confirmation (form values too) and the track reference", () => {
    const parsed = parseUploadFields({ ...FIELDS, systemName: "  sys ", acknowledgeWarnings: "TRUE", track: " llm ", team: "" });
    expect(parsed.meta).toMatchObject({ systemName: "sys", description: "", team: null, isBaseline: false, visibility: "PUBLIC" });
    expect(parsed.acknowledgeWarnings).toBe(true);
    expect(parsed.trackRef).toBe("llm");
    expect(parseUploadFields(FIELDS).trackRef).toBeNull();
  });

  it("refuses a missing system name and an unclear confirmation (422)", () => {
    expect(thrown(() => parseUploadFields({ ...FIELDS, systemName: " " }))).toBeInstanceOf(ValidationError);
    expect(thrown(() => parseUploadFields({ ...FIELDS, acknowledgeWarnings: "maybe" }))).toBeInstanceOf(ValidationError);
  });
});

describe("assertMayUploadBaseline", () => {
  it("only organizers submit baselines", () => {
    const error = thrown(() => assertMayUploadBaseline({ isOrganizer: false }, true));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).message).toBe("Only the organizers of this task can submit baselines.");
    expect(() => assertMayUploadBaseline({ isOrganizer: true }, true)).not.toThrow();
    expect(() => assertMayUploadBaseline({ isOrganizer: false }, false)).not.toThrow();
  });
});

describe("chooseUploadTeam", () => {
  it("a run is for the team recorded in the task; naming another is a 403", () => {
    expect(chooseUploadTeam({ teams: [ALPHA, BETA], taskTeam: BETA }, false, null)).toEqual(BETA);
    const error = thrown(() => chooseUploadTeam({ teams: [ALPHA, BETA], taskTeam: BETA }, false, "alpha"));
    expect((error as ForbiddenError).message).toBe('You submit for team "Beta" in this task; ask the organizers to change it.');
  });

  it("a baseline names any of the uploader's teams, whatever is recorded", () => {
    expect(chooseUploadTeam({ teams: [ALPHA, BETA], taskTeam: BETA }, true, "ALPHA")).toEqual(ALPHA);
  });

  it("without a record: the only team, none (a personal team follows), or a 422 when several and none named", () => {
    expect(chooseUploadTeam({ teams: [ALPHA], taskTeam: null }, false, null)).toEqual(ALPHA);
    expect(chooseUploadTeam({ teams: [], taskTeam: null }, false, null)).toBeNull();
    expect(thrown(() => chooseUploadTeam({ teams: [ALPHA, BETA], taskTeam: null }, false, null))).toBeInstanceOf(ValidationError);
    expect(thrown(() => chooseUploadTeam({ teams: [ALPHA], taskTeam: null }, false, "Gamma"))).toBeInstanceOf(ForbiddenError);
  });
});

describe("assertUploadShape", () => {
  it("a phase with several datasets takes an archive only, naming the files it must hold", () => {
    const datasets = [dataset("en", 0), { ...dataset("cs", 1), language: "cs" }];
    const error = thrown(() => assertUploadShape("run.conll", datasets, PHASE_ID)) as UploadShapeError;
    expect(error).toBeInstanceOf(UploadShapeError);
    expect(error.message).toBe("Upload a .zip or .tar.gz archive with one file per dataset: en.conll, cs.conll.");
    expect(error.detail).toBe(
      'This phase has 2 datasets (en, cs); upload a .zip or .tar.gz with one file per dataset named "en.conll" (dataset en), "cs.conll" (dataset cs, cs). run.conll is not such an archive.',
    );
    expect(error.sampleUrl).toBe(`/api/v1/phases/${PHASE_ID}/sample-submission`);
    expect(() => assertUploadShape("run.zip", datasets, PHASE_ID)).not.toThrow();
    expect(() => assertUploadShape("run.conll", [dataset("main")], PHASE_ID)).not.toThrow();
  });
});

describe("checkUpload", () => {
  it("returns the plan: metadata, the chosen team and track, the cleaned file name", () => {
    const llm = track("LLM");
    const plan = checkUpload(context({ tracks: [llm] }), { ...FIELDS, track: "llm", acknowledgeWarnings: true }, NOW);
    expect(plan).toEqual({
      systemName: "sys",
      description: "",
      paperUrl: null,
      codeUrl: null,
      isBaseline: false,
      visibility: "PUBLIC",
      acknowledgeWarnings: true,
      track: llm,
      team: ALPHA,
      fileName: "system.conll",
    });
  });

  it("checks in order: the phase takes runs before the metadata, the window before the track, the track before the team", () => {
    expect(thrown(() => checkUpload(context({}, { status: "DRAFT" }), { ...FIELDS, systemName: "" }, NOW))).toBeInstanceOf(NotFoundError);
    const late = new Date("2026-02-01T00:00:00Z");
    expect(thrown(() => checkUpload(context({ tracks: [track("LLM")] }), FIELDS, late))).toBeInstanceOf(PhaseClosedError);
    const several = context({ tracks: [track("LLM")], teams: [ALPHA, BETA] });
    expect((thrown(() => checkUpload(several, FIELDS, NOW)) as ValidationError).fieldErrors[0].path).toBe("track");
    expect((thrown(() => checkUpload(several, { ...FIELDS, track: "LLM" }, NOW)) as ValidationError).fieldErrors[0].path).toBe("team");
  });

  it("an organizer's baseline skips the window and may leave the track out", () => {
    const late = new Date("2026-02-01T00:00:00Z");
    const plan = checkUpload(context({ isOrganizer: true, tracks: [track("LLM")] }), { ...FIELDS, isBaseline: true }, late);
    expect(plan).toMatchObject({ isBaseline: true, track: null, team: ALPHA });
  });

  it("refuses a file over the upload cap (413) before its shape", () => {
    const huge = { byteLength: 2 ** 40 } as Uint8Array;
    const several = context({ datasets: [dataset("en"), dataset("cs", 1)] });
    expect(thrown(() => checkUpload(several, { ...FIELDS, bytes: huge }, NOW))).toBeInstanceOf(TooLargeError);
    expect(thrown(() => checkUpload(several, FIELDS, NOW))).toBeInstanceOf(UploadShapeError);
  });
});

describe("assertUploadQuota", () => {
  const quota = (over: Partial<QuotaStatus>): QuotaStatus => ({
    usedToday: 0,
    dailyLimit: null,
    remainingToday: null,
    usedTotal: 0,
    totalLimit: null,
    remainingTotal: null,
    resetsAt: new Date("2025-06-02T00:00:00Z"),
    track: null,
    ...over,
  });

  it("refuses a team whose quota is used up, naming the team, the phase and the track", () => {
    const total = thrown(() => assertUploadQuota({ team: ALPHA }, quota({ totalLimit: 3, usedTotal: 3, remainingTotal: 0 }), "Test"));
    expect(total).toBeInstanceOf(QuotaExceededError);
    expect((total as QuotaExceededError).message).toBe('Team "Alpha" has used all 3 submissions allowed in the Test phase.');
    const daily = thrown(() => assertUploadQuota({ team: ALPHA }, quota({ dailyLimit: 2, usedToday: 2, remainingToday: 0, track: { id: "t", name: "LLM" } }), "Test"));
    expect((daily as QuotaExceededError).message).toMatch(/^Team "Alpha" has used its 2 submissions for today in the "LLM" track of the Test phase\. /);
  });

  it("passes with quota left, and when there is nothing to check (a baseline, no team yet)", () => {
    expect(() => assertUploadQuota({ team: ALPHA }, quota({ dailyLimit: 2, usedToday: 1, remainingToday: 1 }), "Test")).not.toThrow();
    expect(() => assertUploadQuota({ team: ALPHA }, null, "Test")).not.toThrow();
    expect(() => assertUploadQuota({ team: null }, quota({ remainingTotal: 0 }), "Test")).not.toThrow();
  });
});

describe("combineDocumentChecks", () => {
  const warned = (document: string): DocumentCheck => ({
    warnings: [{ code: "missing-document", message: `key document ${document} is not in the run`, document }],
    unmatched: 0,
    missing: 1,
  });

  it("a plain file: its own check and name", () => {
    const check = warned("d1");
    expect(combineDocumentChecks([{ dataset: { name: "main" }, fileName: "run.conll", check }], [], "run.conll", false, false)).toEqual({ check, label: "run.conll" });
  });

  it("nothing checked (no gold key) and nothing left out: null", () => {
    expect(combineDocumentChecks([{ dataset: { name: "main" }, fileName: "main.conll", check: null }], [], "run.zip", true, false)).toEqual({
      check: null,
      label: "main.conll in run.zip",
    });
  });

  it("several datasets: warnings prefixed with their dataset, counts summed, datasets left out warned about", () => {
    const result = combineDocumentChecks(
      [
        { dataset: { name: "en" }, fileName: "en.conll", check: warned("e1") },
        { dataset: { name: "cs" }, fileName: "cs.conll", check: { warnings: [], unmatched: 0, missing: 0 } },
      ],
      [{ name: "de", fileName: "de.conll" }],
      "run.zip",
      true,
      true,
    );
    expect(result.label).toBe("run.zip (dataset en)");
    expect(result.check?.missing).toBe(1);
    expect(result.check?.missingDatasets).toEqual(["de"]);
    expect(result.check?.warnings.map((w) => w.code)).toEqual(["missing-document", "missing-dataset"]);
    expect(result.check?.warnings[0].message).toBe("dataset en: key document e1 is not in the run");
  });
});
