/**
 * Datasets of a phase (issue 10 §1) as organizers manage them, against a real database: who
 * may add, change and delete them; the field rules (name pattern, file name without folders
 * and ending as the format requires, unique names and file names in the phase); a task whose
 * profile matches heads only takes conllu datasets; deletion is refused for the phase's last
 * dataset and for a dataset runs have files for, and otherwise takes the dataset's gold with
 * it and re-queues the phase's runs when that gold was active; every change is audited. The
 * queue is mocked.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { packFile } from "../storage";
import { fileNameFitsFormat, fileNameForFormat, checkDatasetInput } from "../validations/dataset";
import { addDataset, deleteDataset, findDataset, listDatasets, listDatasetsForOrganizers, updateDataset } from "./datasets";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);

beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});

/** An organizer, a participant with a scored run (a file for the default dataset "main"), and a task (profile as given) with one open phase. */
async function setup(evaluationProfile: "conll2012" | "crac" = "conll2012") {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Dataset Organizer");
  const participant = await makeUser(db, "Participant");
  const { task, phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], evaluationProfile });
  const team = await makeTeam(db, "Team", [participant.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
  return { db, organizer, participant, task, phase, main: dataset, team, run };
}

/** The field paths of a 422. */
async function paths(promise: Promise<unknown>): Promise<string[]> {
  const error = (await rejection(promise)) as ValidationError;
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.httpStatus).toBe(422);
  return error.fieldErrors.map((e) => e.path).sort();
}

/** A stored gold key version of a dataset, written directly. */
async function insertGold(phaseId: string, datasetId: string, uploadedById: string, version = 1, active = true) {
  const stored = packFile(bytes(`gold ${datasetId} v${version}`));
  return testDb.prisma.goldKey.create({ data: { phaseId, datasetId, version, fileName: `gold-v${version}.conllu`, ...stored, documentCount: 1, uploadedById, active } });
}

describe("the field rules (lib/validations/dataset.ts)", () => {
  it("file names end as the format requires; the format defaults to the file name's", () => {
    expect(fileNameFitsFormat("en_gum-corefud-test.conllu", "conllu")).toBe(true);
    expect(fileNameFitsFormat("en_gum.conll", "conllu")).toBe(false);
    for (const name of ["test.conll", "english.v4_gold_conll", "dev.gold_conll", "a.TXT"]) expect([name, fileNameFitsFormat(name, "conll2012")]).toEqual([name, true]);
    expect(fileNameFitsFormat("x.conllu", "conll2012")).toBe(false);
    expect(fileNameFitsFormat(".conll", "conll2012")).toBe(false);
    expect(fileNameForFormat("main.conll", "conllu")).toBe("main.conllu");
    expect(fileNameForFormat("key.v4_gold_conll", "conllu")).toBe("key.v4.conllu");
    expect(fileNameForFormat("main.conllu", "conll2012")).toBe("main.conll");
    expect(checkDatasetInput({ name: "en_gum", fileName: "en.conllu" })).toEqual({ data: { name: "en_gum", language: "", fileName: "en.conllu", format: "conllu", position: null }, errors: [] });
    expect(checkDatasetInput({ name: " cs_pdt ", language: " cs ", fileName: "cs.conll", position: "3" }).data).toEqual({ name: "cs_pdt", language: "cs", fileName: "cs.conll", format: "conll2012", position: 3 });
  });
});

describe("addDataset", () => {
  it("adds a dataset after the last one, audited as dataset.create; re-queues nothing", async () => {
    const { db, organizer, phase, task, run } = await setup();
    const added = await addDataset(organizer.viewer, phase.id, { name: "en_gum", language: "en", fileName: "en_gum-corefud-test.conllu", format: "conllu" });
    expect(added).toMatchObject({ phaseId: phase.id, name: "en_gum", language: "en", fileName: "en_gum-corefud-test.conllu", format: "conllu", position: 1 });
    const inferred = await addDataset(organizer.viewer, phase.id, { name: "ar", fileName: "arabic.v4_gold_conll" });
    expect([inferred.format, inferred.position, inferred.language]).toEqual(["conll2012", 2, ""]);
    expect((await listDatasets(phase.id)).map((d) => d.name)).toEqual(["main", "en_gum", "ar"]);

    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.create", targetId: added.id } });
    expect(event.actorId).toBe(organizer.id);
    expect(event.targetType).toBe("dataset");
    expect(event.data).toEqual({ taskId: task.id, phaseId: phase.id, name: "en_gum", language: "en", fileName: "en_gum-corefud-test.conllu", format: "conllu", position: 1 });
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("the first named dataset replaces the untouched automatic \"main\" (no gold key, no runs), audited; a used or edited main stays", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Main Organizer");
    const fresh = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    const first = await addDataset(organizer.viewer, fresh.phase.id, { name: "en_gum", fileName: "en_gum.conllu", format: "conllu" });
    expect((await listDatasets(fresh.phase.id)).map((d) => [d.name, d.position])).toEqual([["en_gum", 0]]);
    const deleted = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.delete", targetId: fresh.dataset.id } });
    expect(deleted.data).toMatchObject({ name: "main", replacedBy: "en_gum", hadGold: false });
    expect((await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.create", targetId: first.id } })).data).toMatchObject({ replacedDefault: "main" });
    // The second named dataset replaces nothing.
    await addDataset(organizer.viewer, fresh.phase.id, { name: "cs_pdt", fileName: "cs_pdt.conllu" });
    expect((await listDatasets(fresh.phase.id)).map((d) => d.name)).toEqual(["en_gum", "cs_pdt"]);

    // A main with a gold key (any version) stays; so does an edited one (one with runs: the first test).
    const withGold = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    const stored = packFile(Buffer.from("#begin document (d); part 0\nw\t(1)\n#end document\n"));
    await db.goldKey.create({
      data: { phaseId: withGold.phase.id, datasetId: withGold.dataset.id, version: 1, fileName: "k.conll", sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 1, uploadedById: organizer.id, active: false },
    });
    await addDataset(organizer.viewer, withGold.phase.id, { name: "x", fileName: "x.conll" });
    expect((await listDatasets(withGold.phase.id)).map((d) => d.name)).toEqual(["main", "x"]);
    const edited = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    await db.dataset.update({ where: { id: edited.dataset.id }, data: { language: "en" } });
    await addDataset(organizer.viewer, edited.phase.id, { name: "x", fileName: "x.conll" });
    expect((await listDatasets(edited.phase.id)).map((d) => d.name)).toEqual(["main", "x"]);
  });

  it("only the task's organizers and site admins add datasets (401, 403); an unknown phase is a 404", async () => {
    const { db, participant, phase } = await setup();
    const admin = await makeUser(db, "Admin", "ADMIN");
    const input = { name: "x", fileName: "x.conll" };
    expect((await rejection(addDataset(null, phase.id, input))).httpStatus).toBe(401);
    expect((await rejection(addDataset(participant.viewer, phase.id, input))).httpStatus).toBe(403);
    expect((await rejection(addDataset(admin.viewer, "00000000-0000-4000-8000-000000000000", input))).httpStatus).toBe(404);
    expect((await rejection(addDataset(admin.viewer, "not-a-uuid", input))).httpStatus).toBe(404);
    expect(await db.dataset.count({ where: { phaseId: phase.id } })).toBe(1);
    expect((await addDataset(admin.viewer, phase.id, input)).name).toBe("x");
  });

  it("refuses bad fields with a 422 per field and stores nothing", async () => {
    const { db, organizer, phase } = await setup();
    const add = (input: unknown) => paths(addDataset(organizer.viewer, phase.id, input));
    expect(await add({ name: "-bad", fileName: "x.conll" })).toEqual(["name"]);
    expect(await add({ name: "a".repeat(65), fileName: "x.conll" })).toEqual(["name"]);
    expect(await add({ name: "en gum", fileName: "x.conll" })).toEqual(["name"]);
    expect(await add({ fileName: "x.conll" })).toEqual(["name"]);
    expect(await add({ name: "en", fileName: "dir/x.conll" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "dir\\x.conll" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "x.conll", format: "conllu" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "x.conllu", format: "conll2012" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "x.zip" })).toEqual(["fileName"]);
    expect(await add({ name: "en", fileName: "x.conll", format: "jsonl" })).toEqual(["format"]);
    expect(await add({ name: "en", fileName: "x.conll", language: "English (US)" })).toEqual(["language"]);
    expect(await add({ name: "en", fileName: "x.conll", position: -1 })).toEqual(["position"]);
    expect(await add({ name: "en", fileName: "x.conll", colour: "red" })).toEqual([""]);
    expect(await add({ name: "-", fileName: "a/b", format: "x" })).toEqual(["fileName", "format", "name"]);
    const error = (await rejection(addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conll", format: "conllu" }))) as ValidationError;
    expect(error.fieldErrors[0].message).toBe("en.conll does not fit the CorefUD CoNLL-U (.conllu) format: the file name must end in .conllu");
    expect(await db.dataset.count({ where: { phaseId: phase.id } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "dataset.create", data: { path: ["phaseId"], equals: phase.id } } })).toBe(0);
  });

  it("names and file names are unique in the phase regardless of case (422 on the field); another phase may reuse them", async () => {
    const { db, organizer, phase, task } = await setup();
    await addDataset(organizer.viewer, phase.id, { name: "en_gum", fileName: "en.conllu" });
    expect(await paths(addDataset(organizer.viewer, phase.id, { name: "EN_GUM", fileName: "other.conllu" }))).toEqual(["name"]);
    expect(await paths(addDataset(organizer.viewer, phase.id, { name: "en_gum2", fileName: "EN.conllu" }))).toEqual(["fileName"]);
    expect(await paths(addDataset(organizer.viewer, phase.id, { name: "Main", fileName: "main.conll" }))).toEqual(["fileName", "name"]);
    const error = (await rejection(addDataset(organizer.viewer, phase.id, { name: "x", fileName: "en.conllu" }))) as ValidationError;
    expect(error.fieldErrors[0].message).toBe('The dataset "en_gum" of this phase already expects the file name en.conllu.');
    const other = await db.phase.create({ data: { taskId: task.id, name: "dev", opensAt: phase.opensAt, closesAt: phase.closesAt } });
    expect((await addDataset(organizer.viewer, other.id, { name: "en_gum", fileName: "en.conllu" })).phaseId).toBe(other.id);
  });

  it("a task whose profile matches heads (crac) only takes conllu datasets", async () => {
    const { db, organizer, phase } = await setup("crac");
    const error = (await rejection(addDataset(organizer.viewer, phase.id, { name: "ar", fileName: "ar.conll" }))) as ValidationError;
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["format"]);
    expect(error.message).toMatch(/matches mentions by their heads.*conllu format/);
    expect(await db.dataset.count({ where: { phaseId: phase.id } })).toBe(1);
    const en = await addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conllu" });
    expect(await paths(updateDataset(organizer.viewer, en.id, { format: "conll2012", fileName: "en.conll" }))).toEqual(["format"]);
    expect((await db.dataset.findUniqueOrThrow({ where: { id: en.id } })).format).toBe("conllu");
  });
});

describe("updateDataset", () => {
  it("changes fields, audited as dataset.update with each change; no change writes nothing; re-queues nothing", async () => {
    const { db, organizer, phase, main, run } = await setup();
    const updated = await updateDataset(organizer.viewer, main.id, { name: "en_litbank", language: "en", fileName: "litbank-test.conll", position: "4" });
    expect(updated).toMatchObject({ id: main.id, name: "en_litbank", language: "en", fileName: "litbank-test.conll", format: "conll2012", position: 4 });
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.update", targetId: main.id } });
    expect(event.data).toMatchObject({
      phaseId: phase.id,
      changes: { name: { from: "main", to: "en_litbank" }, language: { from: "", to: "en" }, fileName: { from: "main.conll", to: "litbank-test.conll" }, position: { from: 0, to: 4 } },
    });
    expect(await updateDataset(organizer.viewer, main.id, { name: "en_litbank", language: "en" })).toEqual(updated);
    expect(await db.auditEvent.count({ where: { action: "dataset.update", targetId: main.id } })).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("a new format needs a file name that fits it; names stay unique; the API's phase and dataset name address it", async () => {
    const { db, organizer, participant, phase, main } = await setup();
    const en = await addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conll" });
    const error = (await rejection(updateDataset(organizer.viewer, en.id, { format: "conllu" }))) as ValidationError;
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["fileName"]);
    expect(error.message).toBe("en.conll does not fit the CorefUD CoNLL-U (.conllu) format: the file name must end in .conllu; change the file name together with the format.");
    expect((await updateDataset(organizer.viewer, "EN", { format: "conllu", fileName: "en.conllu" }, { phaseId: phase.id })).format).toBe("conllu");
    expect(await paths(updateDataset(organizer.viewer, en.id, { name: "MAIN" }))).toEqual(["name"]);
    expect(await paths(updateDataset(organizer.viewer, en.id, { fileName: "main.conll", format: "conll2012" }))).toEqual(["fileName"]);
    expect(await paths(updateDataset(organizer.viewer, en.id, { name: "" }))).toEqual(["name"]);
    expect((await rejection(updateDataset(participant.viewer, en.id, { name: "x" }))).httpStatus).toBe(403);
    expect((await rejection(updateDataset(null, en.id, { name: "x" }))).httpStatus).toBe(401);
    const other = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    expect((await rejection(updateDataset(organizer.viewer, en.id, { name: "x" }, { phaseId: other.phase.id }))).httpStatus).toBe(404);
    expect((await rejection(updateDataset(organizer.viewer, "nope", { name: "x" }))).httpStatus).toBe(404);
    expect((await db.dataset.findUniqueOrThrow({ where: { id: main.id } })).name).toBe("main");
  });
});

describe("deleteDataset", () => {
  it("refuses the phase's last dataset, and a dataset a run has a file for (saying how many), with a 422", async () => {
    const { db, organizer, phase, main } = await setup();
    const last = (await rejection(deleteDataset(organizer.viewer, main.id))) as ValidationError;
    expect(last.fieldErrors.map((e) => e.path)).toEqual(["dataset"]);
    expect(last.message).toContain("only dataset");
    await addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conll" });
    const withRuns = (await rejection(deleteDataset(organizer.viewer, main.id))) as ValidationError;
    expect(withRuns.httpStatus).toBe(422);
    expect(withRuns.message).toBe('The dataset "main" cannot be deleted: 1 run has a file for it. A dataset with runs stays (you can rename it or change its fields).');
    expect(await db.dataset.count({ where: { phaseId: phase.id } })).toBe(2);
    expect(await db.auditEvent.count({ where: { action: "dataset.delete", data: { path: ["phaseId"], equals: phase.id } } })).toBe(0);
  });

  it("deletes a dataset with only gold: its versions go with it, the phase's runs are re-queued and enqueued, audited", async () => {
    const { db, organizer, phase, task, run } = await setup();
    const en = await addDataset(organizer.viewer, phase.id, { name: "en", language: "en", fileName: "en.conll" });
    await insertGold(phase.id, en.id, organizer.id, 1, false);
    await insertGold(phase.id, en.id, organizer.id, 2, true);
    const { dataset, requeued } = await deleteDataset(organizer.viewer, "en", { phaseId: phase.id });
    expect([dataset.id, requeued]).toEqual([en.id, 1]);
    expect(await db.dataset.findUnique({ where: { id: en.id } })).toBeNull();
    expect(await db.goldKey.count({ where: { datasetId: en.id } })).toBe(0);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("QUEUED");
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(enqueue.mock.calls[0][0]).toEqual([run.id]);
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.delete", targetId: en.id } });
    expect(event.data).toEqual({ taskId: task.id, phaseId: phase.id, name: "en", language: "en", fileName: "en.conll", format: "conll2012", position: 1, hadGold: true, requeued: 1 });
  });

  it("deleting a dataset without an active gold key re-queues nothing; only organizers delete (401, 403, 404)", async () => {
    const { db, organizer, participant, phase, run } = await setup();
    const en = await addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conll" });
    expect((await rejection(deleteDataset(null, en.id))).httpStatus).toBe(401);
    expect((await rejection(deleteDataset(participant.viewer, en.id))).httpStatus).toBe(403);
    expect((await rejection(deleteDataset(organizer.viewer, "no-such", { phaseId: phase.id }))).httpStatus).toBe(404);
    await insertGold(phase.id, en.id, organizer.id, 1, false);
    expect((await deleteDataset(organizer.viewer, en.id)).requeued).toBe(0);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();
    expect((await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.delete", targetId: en.id } })).data).toMatchObject({ hadGold: false, requeued: 0 });
  });
});

describe("listDatasetsForOrganizers and findDataset", () => {
  it("lists each dataset with its active gold key, its versions and its runs, organizers only", async () => {
    const { organizer, participant, phase, main } = await setup();
    const en = await addDataset(organizer.viewer, phase.id, { name: "en", fileName: "en.conllu" });
    await insertGold(phase.id, en.id, organizer.id, 1, false);
    await insertGold(phase.id, en.id, organizer.id, 2, true);
    const list = await listDatasetsForOrganizers(organizer.viewer, phase.id);
    expect(list.map((d) => [d.name, d.activeGold, d.goldVersions, d.runs])).toEqual([
      ["main", null, 0, 1],
      ["en", { version: 2, fileName: "gold-v2.conllu" }, 2, 0],
    ]);
    expect((await rejection(listDatasetsForOrganizers(participant.viewer, phase.id))).httpStatus).toBe(403);
    const datasets = await listDatasets(phase.id);
    expect(findDataset(datasets, main.id.toUpperCase()).name).toBe("main");
    expect(findDataset(datasets, "EN").id).toBe(en.id);
  });
});
