/**
 * A task's evaluation profile (issue 10 §3): the choices the forms offer (labels from
 * scoring/presets.ts), and `updateTaskEvaluation` against a real database: who may change
 * it, which runs a change re-queues, the audit event, the no-op, and the refusal while a
 * phase's active gold key cannot be scored under the new profile. The queue is mocked.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { packFile } from "../storage";
import { customProfile, EVALUATION_PROFILES } from "../../scoring";
import { evaluationInputFromValues } from "../validations/task";
import {
  alsoScoredText,
  CRAC_SUGGESTION_TEXT,
  evaluationChoices,
  evaluationColumns,
  evaluationFormValues,
  evaluationProfileSuggestion,
  profileSuggestionFor,
  taskEvaluationView,
  updateTaskEvaluation,
} from "./evaluation-profile";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);

beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});

describe("evaluation choices and views", () => {
  it("take every label from scoring/presets.ts, list crac's variants, and fill a fixed profile's columns with its primary setting", () => {
    const choices = evaluationChoices();
    expect(choices.profiles.map((p) => p.name)).toEqual(["conll2012", "crac", "custom"]);
    expect(choices.profiles[0].label).toBe(EVALUATION_PROFILES.conll2012.label);
    expect(choices.profiles[1].label).toBe(EVALUATION_PROFILES.crac.label);
    expect(choices.profiles[1].description).toContain("also scored: partial match, exact match, head match with singletons");
    expect(choices.profiles[1].description).toContain(".conllu");
    expect(Object.keys(choices.customLabels)).toHaveLength(12);
    expect(choices.customLabels["head|exclude|linear"]).toBe(customProfile({ match: "head", removeSingletons: true, zeroMatch: "linear" }).label);
    expect(choices.keepSingletons.map(([v]) => v)).toEqual(["keep", "exclude"]);

    expect(alsoScoredText(EVALUATION_PROFILES.crac.variants)).toBe("also scored: partial match, exact match, head match with singletons");
    expect(alsoScoredText([])).toBeNull();
    expect(evaluationColumns({ evaluationProfile: "crac" })).toEqual({ evaluationProfile: "crac", mentionMatching: "head", keepSingletons: false, zeroMatching: "dependent" });
    expect(evaluationColumns({ evaluationProfile: "conll2012" })).toEqual({ evaluationProfile: "conll2012", mentionMatching: "exact", keepSingletons: true, zeroMatching: "dependent" });
    const view = taskEvaluationView(evaluationColumns({ evaluationProfile: "custom", mentionMatching: "partial", keepSingletons: true, zeroMatching: "linear" }));
    expect(view).toMatchObject({ profile: "custom", mentionMatching: "partial", keepSingletons: true, zeroMatching: "linear", needsHeads: true, variants: [] });
  });

  it("form values become service input: the custom settings only with the custom profile, singletons as a boolean", () => {
    const form = { evaluationProfile: "custom", mentionMatching: "head", keepSingletons: "exclude", zeroMatching: "linear" };
    expect(evaluationInputFromValues(form)).toEqual({ evaluationProfile: "custom", mentionMatching: "head", keepSingletons: false, zeroMatching: "linear" });
    expect(evaluationInputFromValues({ ...form, keepSingletons: "keep" }).keepSingletons).toBe(true);
    expect(evaluationInputFromValues({ ...form, keepSingletons: "maybe" }).keepSingletons).toBe("maybe");
    expect(evaluationInputFromValues({ ...form, evaluationProfile: "crac" })).toEqual({ evaluationProfile: "crac" });
    expect(evaluationInputFromValues({ ...form, evaluationProfile: "" })).toEqual({});
    const view = taskEvaluationView(evaluationColumns({ evaluationProfile: "custom", mentionMatching: "head", keepSingletons: false, zeroMatching: "linear" }));
    expect(evaluationFormValues(view)).toEqual(form);
  });
});

/**
 * An organizer; a task (conll2012) with two phases, each with one dataset whose format and
 * active gold key's file name are the given ones' (as a gold upload leaves them); runs in
 * every status in the first phase and one SCORED run in the second; and another task with a
 * SCORED run.
 */
async function taskWithRuns(goldNames: [string, string] = ["key.conllu", "key.conllu"]) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Evaluation Organizer");
  const member = await makeUser(db, "Member");
  const team = await makeTeam(db, "Runners", [member.id]);
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const second = await db.phase.create({
    data: { taskId: task.id, name: "dev", opensAt: new Date(Date.now() - 86_400_000), closesAt: new Date(Date.now() + 86_400_000), datasets: { create: { name: "main", fileName: "main.conll" } } },
  });
  for (const [p, name] of [[phase, goldNames[0]], [second, goldNames[1]]] as const) {
    const stored = packFile(bytes(`gold of ${p.id}`));
    const format = name.endsWith(".conllu") ? "conllu" : "conll2012";
    const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: p.id } });
    await db.dataset.update({ where: { id: dataset.id }, data: { format, fileName: `main.${format === "conllu" ? "conllu" : "conll"}` } });
    await db.goldKey.create({ data: { phaseId: p.id, datasetId: dataset.id, version: 1, fileName: name, ...stored, documentCount: 1, uploadedById: organizer.id, active: true } });
  }
  const run = (phaseId: string, status: "QUEUED" | "SCORING" | "SCORED" | "FAILED") => insertSubmission(db, { phaseId, teamId: team.id, submitterId: member.id, status });
  const runs = {
    scored: await run(phase.id, "SCORED"),
    failed: await run(phase.id, "FAILED"),
    queued: await run(phase.id, "QUEUED"),
    scoring: await run(phase.id, "SCORING"),
    secondScored: await run(second.id, "SCORED"),
  };
  await db.submission.update({ where: { id: runs.queued.id }, data: { attempts: 2 } });
  const other = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const otherRun = await run(other.phase.id, "SCORED");
  return { db, organizer, member, task, phase, second, runs, otherRun };
}

async function statusOf(id: string) {
  const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, select: { status: true, attempts: true } });
  return [row.status, row.attempts];
}

describe("updateTaskEvaluation", () => {
  it("changing the profile stores it, re-queues the task's SCORED, FAILED and SCORING runs (not QUEUED ones, not other tasks'), enqueues them and audits", async () => {
    const { db, organizer, task, runs, otherRun } = await taskWithRuns();
    const result = await updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" });
    expect(result.changed).toBe(true);
    expect(result.requeued).toBe(4);
    expect(result.evaluation).toMatchObject({ profile: "crac", label: EVALUATION_PROFILES.crac.label, needsHeads: true });
    expect(result.evaluation.variants.map((v) => v.id)).toEqual(["partial", "exact", "singletons"]);
    expect(await db.task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ evaluationProfile: "crac", mentionMatching: "head", keepSingletons: false, zeroMatching: "dependent" });

    for (const r of [runs.scored, runs.failed, runs.scoring, runs.secondScored]) expect(await statusOf(r.id)).toEqual(["QUEUED", 0]);
    expect(await statusOf(runs.queued.id)).toEqual(["QUEUED", 2]);
    expect(await statusOf(otherRun.id)).toEqual(["SCORED", 0]);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect([...enqueue.mock.calls[0][0]].sort()).toEqual([runs.scored.id, runs.failed.id, runs.scoring.id, runs.secondScored.id].sort());

    const events = await db.auditEvent.findMany({ where: { action: "task.evaluation.update", targetId: task.id } });
    expect(events).toHaveLength(1);
    expect(events[0].actorId).toBe(organizer.id);
    expect(events[0].data).toMatchObject({ from: { profile: "conll2012" }, to: { profile: "crac", primary: { match: "head", removeSingletons: true } }, requeued: 4 });
  });

  it("saving the profile in use is a no-op that says so: nothing written, re-queued, enqueued or audited", async () => {
    const { db, organizer, task, runs } = await taskWithRuns();
    const before = await db.task.findUniqueOrThrow({ where: { id: task.id } });
    const result = await updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "conll2012" });
    expect(result).toMatchObject({ changed: false, requeued: 0, evaluation: { profile: "conll2012" } });
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).updatedAt).toEqual(before.updatedAt);
    expect(await statusOf(runs.scored.id)).toEqual(["SCORED", 0]);
    expect(enqueue).not.toHaveBeenCalled();
    expect(await db.auditEvent.count({ where: { action: "task.evaluation.update", targetId: task.id } })).toBe(0);

    const custom = { evaluationProfile: "custom", mentionMatching: "head", keepSingletons: false, zeroMatching: "linear" };
    expect((await updateTaskEvaluation(organizer.viewer, task.id, custom)).changed).toBe(true);
    expect((await updateTaskEvaluation(organizer.viewer, task.id, custom)).changed).toBe(false);
    // The same primary setting under another name (crac) is a change: the variants and the label differ.
    expect((await updateTaskEvaluation(organizer.viewer, task.id, { ...custom, zeroMatching: "dependent" })).changed).toBe(true);
    expect((await updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" })).changed).toBe(true);
    expect(await db.auditEvent.count({ where: { action: "task.evaluation.update", targetId: task.id } })).toBe(3);
  });

  it("a profile that needs heads is refused with a 422 naming the phase while its active gold key is .conll; nothing changes", async () => {
    const { db, organizer, task, runs } = await taskWithRuns(["key.conllu", "dev-key.conll"]);
    const error = (await rejection(updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" }))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["evaluationProfile"]);
    expect(error.message).toContain('phase "dev" (active gold key v1, dev-key.conll)');
    expect(error.message).not.toContain('phase "test"');
    const partial = { evaluationProfile: "custom", mentionMatching: "partial", keepSingletons: true, zeroMatching: "dependent" };
    expect((await rejection(updateTaskEvaluation(organizer.viewer, task.id, partial))).httpStatus).toBe(422);
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).evaluationProfile).toBe("conll2012");
    expect(await statusOf(runs.scored.id)).toEqual(["SCORED", 0]);
    expect(enqueue).not.toHaveBeenCalled();
    expect(await db.auditEvent.count({ where: { action: "task.evaluation.update", targetId: task.id } })).toBe(0);

    // A custom profile with exact matching needs no heads: it is accepted over the .conll key.
    const exact = await updateTaskEvaluation(organizer.viewer, task.id, { ...partial, mentionMatching: "exact", keepSingletons: false });
    expect(exact).toMatchObject({ changed: true, evaluation: { needsHeads: false } });
  });

  it("only a replaced version that is .conll does not block the change", async () => {
    const { db, organizer, task, second } = await taskWithRuns(["key.conllu", "dev-key.conll"]);
    const stored = packFile(bytes("a newer gold key"));
    const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: second.id } });
    await db.goldKey.updateMany({ where: { phaseId: second.id }, data: { active: false } });
    await db.goldKey.create({ data: { phaseId: second.id, datasetId: dataset.id, version: 2, fileName: "dev-key.conllu", ...stored, documentCount: 1, uploadedById: organizer.id, active: true } });
    // The dataset is still conll2012 (its format changes with an upload, or by hand): refused until it is conllu.
    const refused = (await rejection(updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" }))) as ValidationError;
    expect(refused.message).toContain('phase "dev" (dataset "main" has the CoNLL-2012 format)');
    await db.dataset.update({ where: { id: dataset.id }, data: { format: "conllu", fileName: "main.conllu" } });
    expect((await updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" })).changed).toBe(true);
  });

  it("a profile that needs heads is refused while a dataset is conll2012, with or without gold; several datasets are named one by one", async () => {
    const { db, organizer, task, phase } = await taskWithRuns();
    const en = await db.dataset.create({ data: { phaseId: phase.id, name: "en_gum", fileName: "en_gum.conll", format: "conll2012", position: 1 } });
    const ar = await db.dataset.create({ data: { phaseId: phase.id, name: "ar", fileName: "ar.conllu", format: "conllu", position: 2 } });
    const stored = packFile(bytes("arabic gold"));
    await db.goldKey.create({ data: { phaseId: phase.id, datasetId: ar.id, version: 3, fileName: "ar.conll", ...stored, documentCount: 1, uploadedById: organizer.id, active: true } });
    const error = (await rejection(updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" }))) as ValidationError;
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["evaluationProfile"]);
    expect(error.message).toContain('not so in phase "test", dataset "en_gum" (dataset "en_gum" has the CoNLL-2012 format), phase "test", dataset "ar" (active gold key v3, ar.conll).');
    expect(error.message).not.toContain('dataset "main"');
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).evaluationProfile).toBe("conll2012");

    await db.dataset.update({ where: { id: en.id }, data: { format: "conllu", fileName: "en_gum.conllu" } });
    await db.goldKey.updateMany({ where: { datasetId: ar.id }, data: { fileName: "ar.conllu" } });
    expect((await updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "crac" })).changed).toBe(true);
  });

  it("only organizers and site admins change it (401, 403); bad input is a 422 per field and changes nothing", async () => {
    const { db, organizer, member, task } = await taskWithRuns();
    const admin = await makeUser(db, "Admin", "ADMIN");
    expect((await rejection(updateTaskEvaluation(null, task.id, { evaluationProfile: "crac" }))).httpStatus).toBe(401);
    expect((await rejection(updateTaskEvaluation(member.viewer, task.id, { evaluationProfile: "crac" }))).httpStatus).toBe(403);
    expect((await rejection(updateTaskEvaluation(admin.viewer, "00000000-0000-4000-8000-000000000000", { evaluationProfile: "crac" }))).httpStatus).toBe(404);

    const paths = async (input: unknown) => ((await rejection(updateTaskEvaluation(organizer.viewer, task.id, input))) as ValidationError).fieldErrors.map((e) => e.path).sort();
    expect(await paths({ evaluationProfile: "ud" })).toEqual(["evaluationProfile"]);
    expect(await paths({})).toEqual(["evaluationProfile"]);
    expect(await paths({ evaluationProfile: "custom" })).toEqual(["keepSingletons", "mentionMatching", "zeroMatching"]);
    expect(await paths({ evaluationProfile: "custom", mentionMatching: "fuzzy", keepSingletons: "yes", zeroMatching: "linear" })).toEqual(["keepSingletons", "mentionMatching"]);
    expect(await paths({ evaluationProfile: "crac", mentionMatching: "exact" })).toEqual(["mentionMatching"]);
    expect(await paths({ evaluationProfile: "crac", colour: "red" })).toEqual([""]);
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).evaluationProfile).toBe("conll2012");
    expect((await updateTaskEvaluation(admin.viewer, task.id, { evaluationProfile: "crac" })).changed).toBe(true);
  });
});

describe("the profile the gold suggests (issue 24 §4)", () => {
  const ds = (over: Partial<{ phase: string; name: string; format: string; goldFileName: string | null; several: boolean }> = {}) => ({
    phase: "test",
    name: "main",
    format: "conll2012",
    goldFileName: null,
    several: false,
    ...over,
  });

  it("suggests CRAC for a default-profile task whose gold (or dataset format) is CorefUD CoNLL-U, naming what still blocks the switch", () => {
    expect(profileSuggestionFor("conll2012", [ds({ format: "conllu", goldFileName: "key.conllu" })])).toEqual({
      profile: "crac",
      label: EVALUATION_PROFILES.crac.label,
      message: CRAC_SUGGESTION_TEXT,
      conllu: ['phase "test"'],
      blocking: [],
    });
    // A conllu dataset without gold suggests it too; a CoNLL-2012 dataset beside it blocks the switch.
    const mixed = profileSuggestionFor("conll2012", [ds({ name: "en", format: "conllu", several: true }), ds({ name: "ar", several: true, goldFileName: "ar.v4_gold_conll" })]);
    expect(mixed).toMatchObject({ conllu: ['phase "test", dataset "en"'], blocking: ['phase "test", dataset "ar"'] });
  });

  it("suggests nothing for CoNLL-2012 gold, nor for a task whose profile is not the default one", () => {
    expect(profileSuggestionFor("conll2012", [ds(), ds({ goldFileName: "key.gold_conll" })])).toBeNull();
    // The gold key's own format counts, not a conllu dataset format it was uploaded beside.
    expect(profileSuggestionFor("conll2012", [ds({ format: "conllu", goldFileName: "key.conll" })])).toBeNull();
    expect(profileSuggestionFor("crac", [ds({ format: "conllu", goldFileName: "key.conllu" })])).toBeNull();
    expect(profileSuggestionFor("custom", [ds({ format: "conllu", goldFileName: "key.conllu" })])).toBeNull();
  });

  it("reads a stored task: its active gold key's name decides, and an unknown task has no suggestion", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Suggestion Organizer");
    const { task, phase, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    expect(await evaluationProfileSuggestion(task.id)).toBeNull();
    await db.goldKey.create({
      data: { phaseId: phase.id, datasetId: dataset.id, version: 1, fileName: "gum.conllu", ...packFile(bytes("x")), documentCount: 1, uploadedById: organizer.id, active: true },
    });
    expect(await evaluationProfileSuggestion(task.id)).toMatchObject({ profile: "crac", conllu: [`phase "${phase.name}"`], blocking: [] });
    await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "crac", mentionMatching: "head", keepSingletons: false } });
    expect(await evaluationProfileSuggestion(task.id)).toBeNull();
    expect(await evaluationProfileSuggestion("00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await evaluationProfileSuggestion("nope")).toBeNull();
  });
});
