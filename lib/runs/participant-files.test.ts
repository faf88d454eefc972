/**
 * Participant files (issue 24 §3) against a real (throwaway) database: blind inputs derived
 * from the active gold key (no coreference leaks), refused uploads that hold coreference, who
 * may download (draft hidden, anonymous readers once the phase opens, 403 before), and the
 * sample submission: exact file names, accepted by the run upload and scored by the worker.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { readArchive } from "../uploads/archive";
import { useTestDatabase } from "../db/test-db";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { sha256Hex } from "../storage";
import { scoreSubmission } from "../worker/scoring-job";
import { KEY_CONLLU } from "../worker/scoring-job.fixtures";
import { addDataset, updateDataset } from "../tasks/datasets";
import { uploadGoldKey } from "../tasks/gold";
import { deriveBlindInput, listParticipantFiles, parseBlindOptions, readBlindInput, sampleSubmission, uploadBlindInput } from "./participant-files";
import { createSubmission } from "./submissions";
import { makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY } from "../tasks/test-fixtures";
import { validateUpload } from "../uploads/checks";

const testDb = useTestDatabase();
beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("blind inputs", () => {
  it("derives a CoNLL-2012 blind input from the active gold key: no chain left, for anyone once the phase opens", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const { phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    await uploadGoldKey(organizer.viewer, phase.id, "gold.conll", Buffer.from(SMALL_KEY));

    const meta = await deriveBlindInput(organizer.viewer, phase.id, "main");
    expect(meta.source).toBe("derived");
    const file = await readBlindInput(null, phase.id, "main");
    expect(file.fileName).toBe(meta.fileName);
    expect(sha256Hex(file.bytes)).toBe(meta.sha256);
    for (const line of text(file.bytes).split("\n").filter((l) => l.includes("\t"))) expect(line).toMatch(/\t-$/);
    expect(text(file.bytes).split("\n").filter((l) => l.includes("\t")).length).toBe(SMALL_KEY.split("\n").filter((l) => l.includes("\t")).length);
    expect(await validateUpload(file.bytes, file.fileName)).toMatchObject({ documents: 2, tokens: 12, mentions: 0 });

    const listed = await listParticipantFiles(null, phase.id);
    expect(listed).toMatchObject({ available: true, sampleReady: true });
    expect(listed.datasets.map((d) => d.blind?.sha256)).toEqual([meta.sha256]);
  });

  it("derives a CorefUD blind input with the organizer's choices", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const { phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], evaluationProfile: "crac" });
    await updateDataset(organizer.viewer, dataset.id, { fileName: "xx-test.conllu" });
    await uploadGoldKey(organizer.viewer, phase.id, "gold.conllu", Buffer.from(KEY_CONLLU));
    const meta = await deriveBlindInput(organizer.viewer, phase.id, dataset.id, parseBlindOptions({ emptyNodes: "drop", dropEntityDeclaration: "on" }));
    expect(meta.options).toEqual({ emptyNodes: "drop", dropEntityDeclaration: true });
    const blind = text((await readBlindInput(organizer.viewer, phase.id, dataset.id)).bytes);
    expect(blind).not.toMatch(/Entity=|Bridge=|SplitAnte=/);
    expect(blind).not.toMatch(/^[0-9]+\.[0-9]+\t/m);
    expect(blind).toContain("# newdoc id =");
    expect(() => parseBlindOptions({ emptyNodes: "maybe" })).toThrow(ValidationError);
    // Uploaded instead: the gold key itself is refused, naming what it holds; the derived file is taken.
    const before = await db.blindInput.findFirstOrThrow({ where: { datasetId: dataset.id }, select: { sha256: true } });
    const leak = await rejection(uploadBlindInput(organizer.viewer, phase.id, dataset.id, "xx-test.conllu", Buffer.from(KEY_CONLLU)));
    expect(leak).toBeInstanceOf(ValidationError);
    expect(leak.message).toMatch(/holds coreference annotation \(.*Entity.* in MISC\)/);
    expect((await db.blindInput.findFirstOrThrow({ where: { datasetId: dataset.id }, select: { sha256: true } })).sha256).toBe(before.sha256);
    const uploaded = await uploadBlindInput(organizer.viewer, phase.id, dataset.id, "mine.conllu", Buffer.from(blind));
    expect(uploaded).toMatchObject({ source: "uploaded", sha256: sha256Hex(Buffer.from(blind)) });
  });

  it("refuses to derive without a gold key or for a non-organizer, and an upload holding coreference; nothing is stored", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const stranger = await makeUser(db, "Stranger");
    const { phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    expect(await rejection(deriveBlindInput(organizer.viewer, phase.id, "main"))).toBeInstanceOf(ValidationError);
    await uploadGoldKey(organizer.viewer, phase.id, "gold.conll", Buffer.from(SMALL_KEY));
    expect(await rejection(deriveBlindInput(stranger.viewer, phase.id, "main"))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(deriveBlindInput(null, phase.id, "main"))).toBeInstanceOf(UnauthorizedError);
    const leak = await rejection(uploadBlindInput(organizer.viewer, phase.id, "main", "gold.conll", Buffer.from(SMALL_KEY)));
    expect(leak).toBeInstanceOf(ValidationError);
    expect(leak.message).toContain("coreference");
    expect(await db.blindInput.count({ where: { phaseId: phase.id } })).toBe(0);
    // A clean upload is taken.
    const clean = SMALL_KEY.replace(/\t[^\t\n]*[()][^\t\n]*$/gm, "\t-");
    const meta = await uploadBlindInput(organizer.viewer, phase.id, "main", "blind.conll", Buffer.from(clean));
    expect(meta).toMatchObject({ source: "uploaded", sha256: sha256Hex(Buffer.from(clean)) });
  });

  it("hides a draft's files, and refuses everyone but organizers before the phase opens", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const reader = await makeUser(db, "Reader");
    const draft = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "DRAFT" });
    await uploadGoldKey(organizer.viewer, draft.phase.id, "gold.conll", Buffer.from(SMALL_KEY));
    await deriveBlindInput(organizer.viewer, draft.phase.id, "main");
    expect(await rejection(readBlindInput(null, draft.phase.id, "main"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(sampleSubmission(reader.viewer, draft.phase.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listParticipantFiles(reader.viewer, draft.phase.id))).toBeInstanceOf(NotFoundError);
    expect((await readBlindInput(organizer.viewer, draft.phase.id, "main")).fileName).toBeTruthy();

    const later = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: { opensAt: new Date(Date.now() + 3600_000), closesAt: new Date(Date.now() + 7200_000) } });
    await uploadGoldKey(organizer.viewer, later.phase.id, "gold.conll", Buffer.from(SMALL_KEY));
    await deriveBlindInput(organizer.viewer, later.phase.id, "main");
    expect(await rejection(readBlindInput(reader.viewer, later.phase.id, "main"))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(sampleSubmission(null, later.phase.id))).toBeInstanceOf(ForbiddenError);
    expect((await listParticipantFiles(null, later.phase.id)).available).toBe(false);
    expect((await sampleSubmission(organizer.viewer, later.phase.id)).bytes.byteLength).toBeGreaterThan(0);
  });
});

describe("the sample submission", () => {
  it("holds each dataset's blind input under the exact file name, and is accepted and scored as a run", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const alpha = await makeUser(db, "Alpha");
    await makeTeam(db, "Team Alpha", [alpha.id]);
    const { phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], evaluationProfile: "crac" });
    const fileOf = (d: string) => `${d}-corefud-test.conllu`;
    const key = (d: string) => KEY_CONLLU.replaceAll("# newdoc id = d", `# newdoc id = ${d}_d`);
    await updateDataset(organizer.viewer, dataset.id, { name: "ds_a", fileName: fileOf("ds_a") });
    await addDataset(organizer.viewer, phase.id, { name: "ds_b", fileName: fileOf("ds_b"), format: "conllu" });
    for (const d of ["ds_a", "ds_b"]) await uploadGoldKey(organizer.viewer, phase.id, fileOf(d), Buffer.from(key(d)), { datasetId: d });

    await deriveBlindInput(organizer.viewer, phase.id, "ds_a");
    const notReady = await rejection(sampleSubmission(null, phase.id));
    expect(notReady).toBeInstanceOf(NotFoundError);
    expect(notReady.message).toContain("ds_b");
    await deriveBlindInput(organizer.viewer, phase.id, "ds_b", { emptyNodes: "drop" });

    const sample = await sampleSubmission(null, phase.id);
    expect(sample.fileName).toMatch(/-sample-submission\.tar\.gz$/);
    expect(sha256Hex(sample.bytes)).toBe(sample.sha256);
    const entries = await readArchive(sample.bytes, sample.fileName, { maxTotalBytes: 10_000_000 });
    expect(entries.map((e) => e.path)).toEqual([fileOf("ds_a"), fileOf("ds_b")]);
    for (const entry of entries) expect(text(entry.bytes)).not.toMatch(/Entity=|Bridge=|SplitAnte=/);

    const run = await createSubmission({ viewer: alpha.viewer, phaseId: phase.id, fileName: sample.fileName, bytes: sample.bytes, systemName: "sample" });
    expect(run.missingDatasets).toEqual([]);
    expect((await scoreSubmission(run.id, { workerId: "test" })).status).toBe("SCORED");
    const scores = await db.datasetScore.findMany({ where: { submissionId: run.id, metric: "conll", variant: "" } });
    expect(scores.length).toBe(2);
    for (const s of scores) expect(s.f1).toBe(0);
  });

  it("is the single dataset's file on a one-dataset phase", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const { phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    await uploadGoldKey(organizer.viewer, phase.id, "gold.conll", Buffer.from(SMALL_KEY));
    await deriveBlindInput(organizer.viewer, phase.id, "main");
    const sample = await sampleSubmission(null, phase.id);
    expect(sample.fileName).toBe(dataset.fileName);
    expect(sample.bytes).toEqual((await readBlindInput(null, phase.id, "main")).bytes);
  });
});
