/**
 * Gold key uploads and the task's evaluation profile (issue 10 §1, §3) against a real
 * database: a file the profile cannot score is refused and stores nothing; a file
 * byte-identical to the active version is a no-op. Gold per dataset: a phase with three
 * datasets takes a file per named dataset, or an archive pairing its files with datasets by
 * name; versions count per dataset; identical files leave their dataset unchanged; unknown
 * datasets and files of the wrong format are refused. The queue is mocked: these tests check
 * what is stored and what is enqueued, not pg-boss. (Uploading, versions and re-queueing in
 * general: uploads.test.ts.)
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { makeTarGz, makeZip } from "../uploads/archive.fixtures";
import { corefudConllu, MOR_EXAMPLE } from "../content/corefud-examples";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { findActiveGold, findActiveGoldKeys, goldUploadImpact, listGoldVersions, uploadGoldKey } from "./gold";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY } from "./test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);

beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});

/** A CorefUD CoNLL-U gold key (one sentence, mentions with heads). */
const CONLLU_KEY = corefudConllu(MOR_EXAMPLE, MOR_EXAMPLE.key);

/** An organizer, a task with one open phase and the given evaluation columns, and a team with a scored run in the phase. */
async function setup(evaluation: { evaluationProfile: string; mentionMatching?: string; keepSingletons?: boolean } = { evaluationProfile: "conll2012" }) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Gold Organizer");
  const participant = await makeUser(db, "Submitter");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  await db.task.update({ where: { id: task.id }, data: evaluation });
  const team = await makeTeam(db, "Team", [participant.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
  return { db, organizer, task, phase, run };
}

describe("uploadGoldKey and the evaluation profile", () => {
  it("a head-matching profile (crac) refuses .conll gold with a 422 on `file`: nothing stored, audited or re-queued", async () => {
    const { db, organizer, phase, run } = await setup({ evaluationProfile: "crac" });
    const auditsBefore = await db.auditEvent.count();
    const error = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY)))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["file"]);
    expect(error.message).toMatch(/CRAC.*\.conllu.*key\.conll/s);
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();

    const { gold, unchanged } = await uploadGoldKey(organizer.viewer, phase.id, "key.conllu", bytes(CONLLU_KEY));
    expect([gold.version, gold.fileName, unchanged]).toEqual([1, "key.conllu", false]);
  });

  it("a custom profile with head or partial match refuses .conll gold; with exact match it takes it", async () => {
    const head = await setup({ evaluationProfile: "custom", mentionMatching: "partial", keepSingletons: true });
    expect((await rejection(uploadGoldKey(head.organizer.viewer, head.phase.id, "key.conll", bytes(SMALL_KEY)))).httpStatus).toBe(422);
    expect(await head.db.goldKey.count({ where: { phaseId: head.phase.id } })).toBe(0);
    const exact = await setup({ evaluationProfile: "custom", mentionMatching: "exact", keepSingletons: false });
    expect((await uploadGoldKey(exact.organizer.viewer, exact.phase.id, "key.conll", bytes(SMALL_KEY))).gold.version).toBe(1);
  });

  it("a file byte-identical to the active version adds no version, re-queues and audits nothing, and says so", async () => {
    const { db, organizer, phase, run } = await setup();
    const first = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect(first).toMatchObject({ requeued: 1, unchanged: false });
    expect(first.message).toMatch(/version 1 \(key\.conll\) is now active; 1 submission was re-queued/);
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED", goldVersion: 1 } });
    enqueue.mockClear();
    const auditsBefore = await db.auditEvent.count();

    const again = await uploadGoldKey(organizer.viewer, phase.id, "renamed.conll", bytes(SMALL_KEY));
    expect(again).toMatchObject({ requeued: 0, unchanged: true, gold: { id: first.gold.id, version: 1, fileName: "key.conll", active: true } });
    expect(again.message).toBe("The file is identical to the active version 1 (key.conll, same sha256); nothing changed.");
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(1);
    expect((await findActiveGold(phase.id))?.version).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("only the active version counts: re-uploading a replaced version's bytes makes a new version and re-queues", async () => {
    const { db, organizer, phase } = await setup();
    const v1 = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    await uploadGoldKey(organizer.viewer, phase.id, "key2.conll", bytes(SMALL_KEY.replace("It\t(3)", "It\t-")));
    enqueue.mockClear();
    const back = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect(back).toMatchObject({ unchanged: false, requeued: 1, gold: { version: 3, sha256: v1.gold.sha256 } });
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(3);
    expect(enqueue).toHaveBeenCalledTimes(1);
  });

  it("an identical file is still checked against the profile first, and is refused when the profile cannot score it", async () => {
    const { db, organizer, task, phase } = await setup();
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    // The profile changed behind the service's back (the service itself refuses this while the .conll key is active).
    await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "crac" } });
    expect((await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY)))).httpStatus).toBe(422);
  });
});

/** A CoNLL-U gold key with its document named `doc` (distinct bytes per name). */
const keyNamed = (doc: string) => CONLLU_KEY.replace("# newdoc id = example", `# newdoc id = ${doc}`);

/**
 * An organizer, a crac task whose phase has three conllu datasets (cs_pdt, en_gum, de_pcc in
 * that order), and a team with a scored run in the phase.
 */
async function threeDatasets() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Dataset Organizer");
  const participant = await makeUser(db, "Submitter");
  const { task, phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], evaluationProfile: "crac" });
  const cs = await db.dataset.update({ where: { id: dataset.id }, data: { name: "cs_pdt", language: "cs", fileName: "cs_pdt-test.conllu", position: 0 } });
  const en = await db.dataset.create({ data: { phaseId: phase.id, name: "en_gum", language: "en", fileName: "en_gum-test.conllu", format: "conllu", position: 1 } });
  const de = await db.dataset.create({ data: { phaseId: phase.id, name: "de_pcc", language: "de", fileName: "de_pcc-test.conllu", format: "conllu", position: 2 } });
  const team = await makeTeam(db, "Team", [participant.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
  return { db, organizer, participant, task, phase, cs, en, de, run };
}

/** The active versions of a phase as `name vN` in dataset order. */
async function activeVersions(phaseId: string): Promise<string[]> {
  const db = testDb.prisma;
  const names = new Map((await db.dataset.findMany({ where: { phaseId } })).map((d) => [d.id, d.name]));
  return (await findActiveGoldKeys(phaseId)).map((g) => `${names.get(g.datasetId)} v${g.version}`);
}

describe("gold keys per dataset (a phase with three datasets)", () => {
  it("a single file needs its dataset: none named is a 422 on `dataset` listing the names, an unknown one too; nothing stored", async () => {
    const { db, organizer, phase, run } = await threeDatasets();
    const none = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "en_gum-test.conllu", bytes(keyNamed("en"))))) as ValidationError;
    expect(none.httpStatus).toBe(422);
    expect(none.fieldErrors.map((e) => e.path)).toEqual(["dataset"]);
    expect(none.message).toContain('This phase has 3 datasets ("cs_pdt", "en_gum", "de_pcc")');
    expect(none.message).toContain(".zip or .tar.gz");
    const unknown = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "x.conllu", bytes(keyNamed("en")), { datasetId: "fr_ancor" }))) as ValidationError;
    expect(unknown.fieldErrors.map((e) => e.path)).toEqual(["dataset"]);
    expect(unknown.message).toBe('No dataset "fr_ancor" in this phase; choose one of "cs_pdt", "en_gum", "de_pcc" (by name or id).');
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("per-dataset uploads (by name, any case, or id): versions count per dataset, each upload re-queues the phase once and audits its dataset", async () => {
    const { db, organizer, phase, cs, en, run } = await threeDatasets();
    const first = await uploadGoldKey(organizer.viewer, phase.id, "en.conllu", bytes(keyNamed("en1")), { datasetId: "EN_GUM" });
    expect(first).toMatchObject({ unchanged: false, requeued: 1, gold: { version: 1, datasetId: en.id, fileName: "en.conllu" }, notInArchive: [] });
    expect(first.datasets.map((d) => [d.dataset.name, d.gold.version, d.unchanged])).toEqual([["en_gum", 1, false]]);
    expect(first.message).toBe("Gold key version 1 of en_gum (en.conllu) is now active; 1 submission was re-queued for scoring.");
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(enqueue.mock.calls[0][0]).toEqual([run.id]);

    await uploadGoldKey(organizer.viewer, phase.id, "cs.conllu", bytes(keyNamed("cs1")), { datasetId: cs.id });
    const second = await uploadGoldKey(organizer.viewer, phase.id, "en2.conllu", bytes(keyNamed("en2")), { datasetId: en.id });
    expect(second.gold).toMatchObject({ version: 2, datasetId: en.id });
    expect(await activeVersions(phase.id)).toEqual(["cs_pdt v1", "en_gum v2"]);
    expect(await db.goldKey.count({ where: { datasetId: en.id } })).toBe(2);

    const audits = await db.auditEvent.findMany({ where: { action: "gold.upload", data: { path: ["phaseId"], equals: phase.id } } });
    const audited = audits.map((a) => a.data as { dataset: string; version: number; datasetId: string; requeued: number });
    expect(audited.map((d) => [d.dataset, d.version, d.datasetId, d.requeued]).sort()).toEqual([
      ["cs_pdt", 1, cs.id, 1],
      ["en_gum", 1, en.id, 1],
      ["en_gum", 2, en.id, 1],
    ]);

    const versions = await listGoldVersions(organizer.viewer, phase.id);
    expect(versions.map((v) => `${v.dataset} v${v.version} ${v.active ? "active" : "replaced"}`)).toEqual(["cs_pdt v1 active", "en_gum v2 active", "en_gum v1 replaced"]);
  });

  it("a new gold key of one dataset marks only that dataset of the runs for scoring again (the others keep the gold key their results came from)", async () => {
    const { db, organizer, phase, cs, en, de, run } = await threeDatasets();
    const gold = await uploadGoldKey(organizer.viewer, phase.id, "x.tar.gz", await makeTarGz([cs, en, de].map((d) => ({ path: d.fileName, text: keyNamed(`${d.name}1`) }))));
    const keys = new Map(gold.datasets.map((d) => [d.dataset.id, d.gold.id]));
    // The run has a file per dataset, each scored against its dataset's gold key v1.
    const stored = await db.submissionFile.findFirstOrThrow({ where: { submissionId: run.id } });
    await db.submissionFile.deleteMany({ where: { submissionId: run.id } });
    for (const d of [cs, en, de]) {
      await db.submissionFile.create({ data: { ...stored, datasetId: d.id, fileName: d.fileName, goldKeyId: keys.get(d.id)! } });
    }
    await uploadGoldKey(organizer.viewer, phase.id, "en2.conllu", bytes(keyNamed("en2")), { datasetId: en.id });
    const files = await db.submissionFile.findMany({ where: { submissionId: run.id } });
    expect(new Map(files.map((f) => [f.datasetId, f.goldKeyId]))).toEqual(new Map([[cs.id, keys.get(cs.id)], [en.id, null], [de.id, keys.get(de.id)]]));
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("QUEUED");
  });

  it("a file byte-identical to its dataset's active version leaves it unchanged and says so; the same bytes for another dataset are a new version there", async () => {
    const { db, organizer, phase, en, de } = await threeDatasets();
    await uploadGoldKey(organizer.viewer, phase.id, "en.conllu", bytes(keyNamed("en")), { datasetId: "en_gum" });
    enqueue.mockClear();
    const auditsBefore = await db.auditEvent.count();
    const again = await uploadGoldKey(organizer.viewer, phase.id, "renamed.conllu", bytes(keyNamed("en")), { datasetId: "en_gum" });
    expect(again).toMatchObject({ unchanged: true, requeued: 0, gold: { version: 1, datasetId: en.id, fileName: "en.conllu" } });
    expect(again.datasets).toEqual([expect.objectContaining({ unchanged: true, dataset: expect.objectContaining({ name: "en_gum" }) })]);
    expect(again.message).toBe("The file is identical to the active version 1 of en_gum (en.conllu, same sha256); nothing changed.");
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(enqueue).not.toHaveBeenCalled();

    const other = await uploadGoldKey(organizer.viewer, phase.id, "de.conllu", bytes(keyNamed("en")), { datasetId: "de_pcc" });
    expect(other).toMatchObject({ unchanged: false, gold: { version: 1, datasetId: de.id } });
    expect(await activeVersions(phase.id)).toEqual(["en_gum v1", "de_pcc v1"]);
  });

  it("a file of another format than its dataset's is refused with a 422 on `file` naming both; nothing stored", async () => {
    const { db, organizer, task, phase } = await threeDatasets();
    // A conll2012 dataset in a task with exact matching: .conllu gold does not fit it, and .conll gold does not fit a conllu one.
    await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "conll2012", mentionMatching: "exact", keepSingletons: true } });
    await db.dataset.create({ data: { phaseId: phase.id, name: "ar_conll", fileName: "ar.v4_gold_conll", format: "conll2012", position: 3 } });
    const conllu = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "ar.conllu", bytes(keyNamed("ar")), { datasetId: "ar_conll" }))) as ValidationError;
    expect(conllu.fieldErrors.map((e) => e.path)).toEqual(["file"]);
    expect(conllu.message).toBe('ar.conllu is a CorefUD CoNLL-U (.conllu) file, but the dataset "ar_conll" takes CoNLL-2012 (.conll) files (expected file name ar.v4_gold_conll).');
    const conll = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "en.conll", bytes(SMALL_KEY), { datasetId: "en_gum" }))) as ValidationError;
    expect(conll.message).toContain('the dataset "en_gum" takes CorefUD CoNLL-U (.conllu) files');
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect((await uploadGoldKey(organizer.viewer, phase.id, "ar.conll", bytes(SMALL_KEY), { datasetId: "ar_conll" })).gold.version).toBe(1);
  });

  it("an archive with 2 of the 3 datasets: both get a new version in one upload, the third keeps its gold, one re-queue, an audit event per version", async () => {
    const { db, organizer, phase, cs, en, de, run } = await threeDatasets();
    await uploadGoldKey(organizer.viewer, phase.id, "de.conllu", bytes(keyNamed("de1")), { datasetId: "de_pcc" });
    await uploadGoldKey(organizer.viewer, phase.id, "cs.conllu", bytes(keyNamed("cs1")), { datasetId: "cs_pdt" });
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED" } });
    enqueue.mockClear();

    const zip = await makeZip([
      { path: "gold/en_gum-test.conllu", text: keyNamed("en1") },
      { path: "gold/cs_pdt-test.conllu", text: keyNamed("cs2") },
    ]);
    const result = await uploadGoldKey(organizer.viewer, phase.id, "gold.zip", zip);
    expect(result).toMatchObject({ unchanged: false, requeued: 1, notInArchive: ["de_pcc"], gold: { datasetId: cs.id, version: 2 } });
    expect(result.datasets.map((d) => [d.dataset.name, d.gold.version, d.gold.fileName, d.unchanged])).toEqual([
      ["cs_pdt", 2, "cs_pdt-test.conllu", false],
      ["en_gum", 1, "en_gum-test.conllu", false],
    ]);
    expect(result.message).toBe(
      "Gold key version 2 of cs_pdt (cs_pdt-test.conllu) is now active; version 1 of en_gum (en_gum-test.conllu) is now active; 1 submission was re-queued for scoring. Not in the archive (their gold keys are kept): de_pcc.",
    );
    expect(await activeVersions(phase.id)).toEqual(["cs_pdt v2", "en_gum v1", "de_pcc v1"]);
    expect((await db.goldKey.findFirstOrThrow({ where: { datasetId: de.id, active: true } })).version).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("QUEUED");
    expect(enqueue).toHaveBeenCalledTimes(1);
    const audits = await db.auditEvent.findMany({ where: { action: "gold.upload", data: { path: ["archive"], equals: "gold.zip" } } });
    const audited = audits.map((a) => a.data as { dataset: string });
    expect(audited.sort((a, b) => a.dataset.localeCompare(b.dataset))).toEqual([
      expect.objectContaining({ phaseId: phase.id, datasetId: cs.id, dataset: "cs_pdt", version: 2, requeued: 1 }),
      expect.objectContaining({ phaseId: phase.id, datasetId: en.id, dataset: "en_gum", version: 1, requeued: 1 }),
    ]);

    // The same archive as .tar.gz with one file changed: per dataset, unchanged or a new version.
    enqueue.mockClear();
    const tgz = await makeTarGz([
      { path: "en_gum-test.conllu", text: keyNamed("en2") },
      { path: "cs_pdt-test.conllu", text: keyNamed("cs2") },
    ]);
    const next = await uploadGoldKey(organizer.viewer, phase.id, "gold.tgz", tgz);
    expect(next.datasets.map((d) => [d.dataset.name, d.gold.version, d.unchanged])).toEqual([
      ["cs_pdt", 2, true],
      ["en_gum", 2, false],
    ]);
    expect(next.message).toBe(
      "Gold key version 2 of cs_pdt unchanged; version 2 of en_gum (en_gum-test.conllu) is now active; 1 submission was re-queued for scoring. Not in the archive (their gold keys are kept): de_pcc.",
    );
    expect(next.gold).toMatchObject({ datasetId: en.id, version: 2 });

    // All identical: nothing changes, nothing is re-queued.
    enqueue.mockClear();
    const same = await uploadGoldKey(organizer.viewer, phase.id, "again.tar.gz", tgz);
    expect(same).toMatchObject({ unchanged: true, requeued: 0 });
    expect(same.message).toBe("The files are identical to the active versions (version 2 of cs_pdt, version 2 of en_gum; same sha256); nothing changed. Not in the archive (their gold keys are kept): de_pcc.");
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("an archive is all or nothing: an unknown file, a broken file or a named dataset refuse it with a 422 and store nothing", async () => {
    const { db, organizer, phase } = await threeDatasets();
    const unknown = await makeZip([
      { path: "en_gum-test.conllu", text: keyNamed("en") },
      { path: "fr_ancor-test.conllu", text: keyNamed("fr") },
    ]);
    const e1 = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "gold.zip", unknown))) as ValidationError;
    expect(e1.httpStatus).toBe(422);
    expect(e1.message).toContain("fr_ancor-test.conllu");
    const broken = await makeZip([
      { path: "en_gum-test.conllu", text: keyNamed("en") },
      { path: "cs_pdt-test.conllu", text: "# newdoc id = x\n1\tword\n" },
    ]);
    const e2 = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "gold.zip", broken))) as ValidationError;
    expect(e2.httpStatus).toBe(422);
    expect(e2.formatErrors[0]?.file).toBe("cs_pdt-test.conllu");
    const good = await makeZip([{ path: "en_gum-test.conllu", text: keyNamed("en") }]);
    const e3 = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "gold.zip", good, { datasetId: "en_gum" }))) as ValidationError;
    expect(e3.fieldErrors.map((e) => e.path)).toEqual(["dataset"]);
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(enqueue).not.toHaveBeenCalled();
    expect((await uploadGoldKey(organizer.viewer, phase.id, "gold.zip", good)).datasets.map((d) => d.dataset.name)).toEqual(["en_gum"]);
  });
});

describe("a dataset whose format was never set takes its first gold key's format (issue 24 §4)", () => {
  /** A conll2012 task whose phase has its untouched automatic "main" (conll2012, no gold) beside a named conllu dataset. */
  async function mainBesideNamed() {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Format Organizer");
    const { phase, dataset: main } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    await db.dataset.create({ data: { phaseId: phase.id, name: "en_gum", language: "en", fileName: "en_gum-test.conllu", format: "conllu", position: 1 } });
    return { db, organizer, phase, main };
  }

  it("a .conllu key makes the untouched main CorefUD CoNLL-U beside another dataset, audited; then a .conll key is refused", async () => {
    const { db, organizer, phase, main } = await mainBesideNamed();
    expect([main.format, main.fileName]).toEqual(["conll2012", "main.conll"]);
    const result = await uploadGoldKey(organizer.viewer, phase.id, "key.conllu", bytes(CONLLU_KEY), { datasetId: "main" });
    expect(result.datasets[0].dataset).toEqual({ id: main.id, name: "main", fileName: "main.conllu", format: "conllu" });
    const after = await db.dataset.findUniqueOrThrow({ where: { id: main.id } });
    expect([after.format, after.fileName]).toEqual(["conllu", "main.conllu"]);
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.update", targetId: main.id } });
    expect(event.data).toMatchObject({ changes: { format: { from: "conll2012", to: "conllu" } }, reason: "first gold key key.conllu uploaded for a dataset whose format was never set" });
    // It has gold now: its format is set, and a CoNLL-2012 key is refused as before.
    const refused = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.v4_gold_conll", bytes(SMALL_KEY), { datasetId: "main" }))) as ValidationError;
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.message).toContain('the dataset "main" takes CorefUD CoNLL-U (.conllu) files');
    expect(await db.goldKey.count({ where: { datasetId: main.id } })).toBe(1);
  });

  it("a .gold_conll key leaves an unset conllu main CoNLL-2012 (format from the extension)", async () => {
    const { db, organizer, phase, main } = await mainBesideNamed();
    await db.dataset.update({ where: { id: main.id }, data: { format: "conllu", fileName: "main.conllu" } });
    await uploadGoldKey(organizer.viewer, phase.id, "key.gold_conll", bytes(SMALL_KEY), { datasetId: "main" });
    const after = await db.dataset.findUniqueOrThrow({ where: { id: main.id } });
    expect([after.format, after.fileName]).toEqual(["conll2012", "main.conll"]);
  });

  it("a dataset whose format an organizer set (a named dataset, or main after a dataset.update) refuses another format", async () => {
    const { db, organizer, phase, main } = await mainBesideNamed();
    const named = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "en.conll", bytes(SMALL_KEY), { datasetId: "en_gum" }))) as ValidationError;
    expect(named.message).toContain('the dataset "en_gum" takes CorefUD CoNLL-U (.conllu) files');
    await db.auditEvent.create({ data: { actorId: organizer.id, action: "dataset.update", targetType: "dataset", targetId: main.id, data: { changes: { format: { from: "conllu", to: "conll2012" } } } } });
    const edited = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conllu", bytes(CONLLU_KEY), { datasetId: "main" }))) as ValidationError;
    expect(edited.message).toContain('the dataset "main" takes CoNLL-2012 (.conll) files');
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect((await db.dataset.findUniqueOrThrow({ where: { id: main.id } })).format).toBe("conll2012");
  });
});

describe("gold keys of a phase with one dataset", () => {
  it("the only dataset takes the gold key's format: a .conllu key switches it to conllu (file name too), audited as dataset.update", async () => {
    const { db, organizer, phase } = await setup();
    const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: phase.id } });
    expect([dataset.format, dataset.fileName]).toEqual(["conll2012", "main.conll"]);
    const result = await uploadGoldKey(organizer.viewer, phase.id, "key.conllu", bytes(CONLLU_KEY));
    expect(result.message).toBe("Gold key version 1 (key.conllu) is now active; 1 submission was re-queued for scoring.");
    expect(result.datasets).toEqual([{ dataset: { id: dataset.id, name: "main", fileName: "main.conllu", format: "conllu" }, gold: result.gold, unchanged: false }]);
    const after = await db.dataset.findUniqueOrThrow({ where: { id: dataset.id } });
    expect([after.format, after.fileName]).toEqual(["conllu", "main.conllu"]);
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "dataset.update", targetId: dataset.id } });
    expect(event.data).toMatchObject({ changes: { format: { from: "conll2012", to: "conllu" }, fileName: { from: "main.conll", to: "main.conllu" } } });

    // Back to CoNLL-2012: version 2, the dataset switches back.
    const back = await uploadGoldKey(organizer.viewer, phase.id, "key.v4_gold_conll", bytes(SMALL_KEY));
    expect(back.gold.version).toBe(2);
    expect((await db.dataset.findUniqueOrThrow({ where: { id: dataset.id } })).format).toBe("conll2012");
  });

  it("an archive holding the dataset's expected file name works for a one-dataset phase too; the dataset may be named", async () => {
    const { organizer, phase } = await setup();
    const zip = await makeZip([{ path: "main.conll", text: SMALL_KEY }]);
    const result = await uploadGoldKey(organizer.viewer, phase.id, "gold.zip", zip);
    expect(result.message).toBe("Gold key version 1 (main.conll) is now active; 1 submission was re-queued for scoring.");
    const named = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY), { datasetId: "main" });
    expect(named).toMatchObject({ unchanged: true, gold: { version: 1 } });
    expect((await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY), { datasetId: "other" }))).httpStatus).toBe(422);
  });
});

describe("goldUploadImpact and archived tasks (the console's gold tab)", () => {
  it("counts the runs a new gold version re-queues (every run of the phase, per status), and the upload re-queues exactly that many", async () => {
    const { db, organizer, phase, run } = await setup();
    const team = await makeTeam(db, "Impact", [organizer.id]);
    await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: organizer.id, status: "FAILED", errorStage: "validation" });
    await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: organizer.id, status: "QUEUED", isBaseline: true });
    const withdrawn = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: organizer.id });
    await db.submission.update({ where: { id: withdrawn.id }, data: { withdrawnAt: new Date() } });
    // Another phase's run does not count.
    const other = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    await insertSubmission(db, { phaseId: other.phase.id, teamId: team.id, submitterId: organizer.id });

    const before = await goldUploadImpact(organizer.viewer, phase.id);
    expect(before).toEqual({ runs: 4, byStatus: { QUEUED: 1, SCORING: 0, SCORED: 2, FAILED: 1 }, hasActiveGold: false });
    const first = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect(first.requeued).toBe(before.runs);
    expect(await goldUploadImpact(organizer.viewer, phase.id)).toEqual({ runs: 4, byStatus: { QUEUED: 4, SCORING: 0, SCORED: 0, FAILED: 0 }, hasActiveGold: true });
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED" } });
    const changed = await uploadGoldKey(organizer.viewer, phase.id, "key2.conll", bytes(SMALL_KEY.replace("It\t(3)", "It\t-")));
    expect(changed).toMatchObject({ unchanged: false, requeued: 4 });
  });

  it("organizers only: 404 for others (as for an unknown phase), 401 anonymous", async () => {
    const { db, organizer, phase } = await setup();
    const outsider = await makeUser(db, "Outsider");
    const error = await rejection(goldUploadImpact(outsider.viewer, phase.id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("No such phase.");
    expect(await rejection(goldUploadImpact(null, phase.id))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(goldUploadImpact(organizer.viewer, "00000000-0000-4000-8000-000000000000"))).httpStatus).toBe(404);
  });

  it("an archived task refuses gold uploads with a 409 saying so, a first upload and an identical file alike: nothing stored, audited or re-queued", async () => {
    const { db, organizer, task, phase, run } = await setup();
    const v1 = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED" } });
    await db.task.update({ where: { id: task.id }, data: { status: "ARCHIVED", archivedAt: new Date() } });
    enqueue.mockClear();
    const auditsBefore = await db.auditEvent.count();
    for (const text of [SMALL_KEY.replace("It\t(3)", "It\t-"), SMALL_KEY]) {
      const error = await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(text)));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.httpStatus).toBe(409);
      expect(error.message).toBe("This task is archived: its gold keys can no longer change. Unarchive the task to upload a new gold key.");
    }
    expect((await db.goldKey.findMany({ where: { phaseId: phase.id } })).map((g) => g.id)).toEqual([v1.gold.id]);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(enqueue).not.toHaveBeenCalled();
    // Published again, the same upload works.
    await db.task.update({ where: { id: task.id }, data: { status: "PUBLISHED", archivedAt: null } });
    expect((await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY.replace("It\t(3)", "It\t-")))).gold.version).toBe(2);
  });
});
