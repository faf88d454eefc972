/**
 * Tracks of a phase (issue 10 §5) against a real database: organizers add, edit, reorder and
 * delete them (audited; 422s naming the field), a track with runs cannot be deleted, and the
 * upload's track is resolved by id or name.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { getPhaseForViewer } from "./tasks";
import { addTrack, deleteTrack, findTrack, listTracks, listTracksForOrganizers, moveTrack, reorderTracks, updateTrack, uploadTrack } from "./tracks";
import { insertSubmissionInTrack, makeTaskWithPhase, makeTeam, makeUser, rejection, thrown } from "./test-fixtures";

const testDb = useTestDatabase();

/** An organizer, an outsider, and a task with one phase. */
async function setup() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Track Organizer");
  const outsider = await makeUser(db, "Track Outsider");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  return { db, organizer, outsider, task, phase };
}

/** The field error paths of a 422. */
async function fieldPaths(promise: Promise<unknown>): Promise<string[]> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.httpStatus).toBe(422);
  return (error as ValidationError).fieldErrors.map((f) => f.path);
}

describe("track management", () => {
  it("adds tracks in order with their limits (form strings accepted), audited; the phase view lists them", async () => {
    const { db, organizer, task, phase } = await setup();
    const llm = await addTrack(organizer.viewer, phase.id, { name: "  LLM ", description: "Systems built on large language models", dailyLimit: "2", totalLimit: "" });
    const open = await addTrack(organizer.viewer, phase.id, { name: "unconstrained" });
    expect(llm).toMatchObject({ name: "LLM", description: "Systems built on large language models", dailyLimit: 2, totalLimit: null, position: 0 });
    expect(open).toMatchObject({ name: "unconstrained", description: "", dailyLimit: null, totalLimit: null, position: 1 });
    expect((await listTracks(phase.id)).map((t) => t.name)).toEqual(["LLM", "unconstrained"]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "track.create", targetId: llm.id } });
    expect(audit.actorId).toBe(organizer.id);
    expect(audit.data).toMatchObject({ taskId: task.id, phaseId: phase.id, name: "LLM", dailyLimit: 2, totalLimit: null });
    const view = await getPhaseForViewer(phase.id, null);
    expect(view.task.slug).toBe(task.slug);
    expect(view.phase.tracks.map((t) => [t.name, t.dailyLimit])).toEqual([
      ["LLM", 2],
      ["unconstrained", null],
    ]);
  });

  it("refuses bad fields with 422s naming the field, and a name the phase has (in any case); nothing stored", async () => {
    const { db, organizer, phase } = await setup();
    await addTrack(organizer.viewer, phase.id, { name: "LLM" });
    expect(await fieldPaths(addTrack(organizer.viewer, phase.id, { name: "   " }))).toEqual(["name"]);
    expect(await fieldPaths(addTrack(organizer.viewer, phase.id, { name: "x".repeat(61) }))).toEqual(["name"]);
    expect(await fieldPaths(addTrack(organizer.viewer, phase.id, { name: "ok", dailyLimit: 0 }))).toEqual(["dailyLimit"]);
    expect(await fieldPaths(addTrack(organizer.viewer, phase.id, { name: "ok", totalLimit: "2.5" }))).toEqual(["totalLimit"]);
    expect(await fieldPaths(addTrack(organizer.viewer, phase.id, { name: "ok", position: 3 }))).toEqual([""]);
    const taken = await rejection(addTrack(organizer.viewer, phase.id, { name: "llm" }));
    expect((taken as ValidationError).fieldErrors).toEqual([{ path: "name", message: 'This phase already has a track named "LLM".' }]);
    expect(await db.track.count({ where: { phaseId: phase.id } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "track.create", data: { path: ["phaseId"], equals: phase.id } } })).toBe(1);
  });

  it("only the task's organizers manage tracks (401 anonymous, 403 others); unknown phases and tracks are 404", async () => {
    const { organizer, outsider, phase } = await setup();
    const track = await addTrack(organizer.viewer, phase.id, { name: "LLM" });
    expect((await rejection(addTrack(null, phase.id, { name: "x" }))).httpStatus).toBe(401);
    expect((await rejection(addTrack(outsider.viewer, phase.id, { name: "x" }))).httpStatus).toBe(403);
    expect((await rejection(updateTrack(outsider.viewer, track.id, { name: "x" }))).httpStatus).toBe(403);
    expect((await rejection(deleteTrack(outsider.viewer, track.id))).httpStatus).toBe(403);
    expect((await rejection(moveTrack(outsider.viewer, track.id, "down"))).httpStatus).toBe(403);
    expect((await rejection(listTracksForOrganizers(outsider.viewer, phase.id))).httpStatus).toBe(403);
    expect((await rejection(addTrack(organizer.viewer, "not-a-uuid", { name: "x" }))).httpStatus).toBe(404);
    expect((await rejection(updateTrack(organizer.viewer, "00000000-0000-0000-0000-000000000000", { name: "x" }))).httpStatus).toBe(404);
    expect((await listTracks(phase.id)).map((t) => t.name)).toEqual(["LLM"]);
  });

  it("edits a track (audited with old and new values; limits removed with null or \"\"), refusing another track's name", async () => {
    const { db, organizer, phase } = await setup();
    const llm = await addTrack(organizer.viewer, phase.id, { name: "LLM", dailyLimit: 3, totalLimit: 10 });
    await addTrack(organizer.viewer, phase.id, { name: "open" });
    const edited = await updateTrack(organizer.viewer, llm.id, { name: "LLM-based", description: "Prompted LLMs", dailyLimit: "", totalLimit: null });
    expect(edited).toMatchObject({ id: llm.id, name: "LLM-based", description: "Prompted LLMs", dailyLimit: null, totalLimit: null });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "track.update", targetId: llm.id } });
    expect(audit.data).toMatchObject({ changes: { name: { from: "LLM", to: "LLM-based" }, dailyLimit: { from: 3, to: null }, totalLimit: { from: 10, to: null } } });
    expect(await fieldPaths(updateTrack(organizer.viewer, llm.id, { name: "OPEN" }))).toEqual(["name"]);
    expect(await fieldPaths(updateTrack(organizer.viewer, llm.id, { dailyLimit: -1 }))).toEqual(["dailyLimit"]);
    // Renaming to its own name in another case is allowed; an unchanged patch writes nothing.
    expect((await updateTrack(organizer.viewer, llm.id, { name: "llm-BASED" })).name).toBe("llm-BASED");
    const events = await db.auditEvent.count({ where: { action: "track.update", targetId: llm.id } });
    await updateTrack(organizer.viewer, llm.id, { name: "llm-BASED" });
    expect(await db.auditEvent.count({ where: { action: "track.update", targetId: llm.id } })).toBe(events);
  });

  it("reorders tracks (move up/down, a full order), audited; a wrong list is a 422", async () => {
    const { db, organizer, phase } = await setup();
    const a = await addTrack(organizer.viewer, phase.id, { name: "A" });
    const b = await addTrack(organizer.viewer, phase.id, { name: "B" });
    const c = await addTrack(organizer.viewer, phase.id, { name: "C" });
    expect((await moveTrack(organizer.viewer, c.id, "up")).map((t) => t.name)).toEqual(["A", "C", "B"]);
    expect((await moveTrack(organizer.viewer, a.id, "up")).map((t) => t.name)).toEqual(["A", "C", "B"]);
    expect((await reorderTracks(organizer.viewer, phase.id, [b.id, a.id, c.id])).map((t) => [t.name, t.position])).toEqual([
      ["B", 0],
      ["A", 1],
      ["C", 2],
    ]);
    expect(await db.auditEvent.count({ where: { action: "track.reorder", targetId: phase.id } })).toBe(2);
    expect(await fieldPaths(reorderTracks(organizer.viewer, phase.id, [b.id, a.id]))).toEqual(["trackIds"]);
    expect(await fieldPaths(reorderTracks(organizer.viewer, phase.id, [b.id, a.id, a.id]))).toEqual(["trackIds"]);
    expect(await fieldPaths(moveTrack(organizer.viewer, a.id, "left"))).toEqual(["direction"]);
    expect((await listTracks(phase.id)).map((t) => t.name)).toEqual(["B", "A", "C"]);
  });

  it("deletes a track without runs (audited); a track with runs is a 422 saying so, and stays", async () => {
    const { db, organizer, phase } = await setup();
    const used = await addTrack(organizer.viewer, phase.id, { name: "LLM" });
    const unused = await addTrack(organizer.viewer, phase.id, { name: "open" });
    const team = await makeTeam(db, "Runner", [organizer.id]);
    await insertSubmissionInTrack(db, { phaseId: phase.id, teamId: team.id, submitterId: organizer.id }, used.id);
    const refused = (await rejection(deleteTrack(organizer.viewer, used.id))) as ValidationError;
    expect(refused.httpStatus).toBe(422);
    expect(refused.fieldErrors[0].path).toBe("track");
    expect(refused.message).toBe('The track "LLM" has 1 run and cannot be deleted; a track with runs stays (you can rename it or change its description).');
    await deleteTrack(organizer.viewer, unused.id);
    expect((await listTracksForOrganizers(organizer.viewer, phase.id)).map((t) => [t.name, t.runs])).toEqual([["LLM", 1]]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "track.delete", targetId: unused.id } });
    expect(audit.data).toMatchObject({ phaseId: phase.id, name: "open" });
    expect(await db.auditEvent.count({ where: { action: "track.delete", targetId: used.id } })).toBe(0);
  });
});

/** The 422 a synchronous call throws. */
const invalid = (run: () => unknown) => thrown(run) as ValidationError;

describe("track references", () => {
  const tracks = [
    { id: "11111111-1111-4111-8111-111111111111", name: "LLM" },
    { id: "22222222-2222-4222-8222-222222222222", name: "unconstrained" },
  ];

  it("resolve by id (any case), exact name, then name in any case", () => {
    expect(findTrack(tracks, "22222222-2222-4222-8222-222222222222")?.name).toBe("unconstrained");
    expect(findTrack(tracks, "LLM")?.name).toBe("LLM");
    expect(findTrack(tracks, "Unconstrained")?.name).toBe("unconstrained");
    expect(findTrack(tracks, null)).toBeNull();
  });

  it("an upload needs a track in a phase with tracks (baselines excepted) and none in a phase without", () => {
    const missing = invalid(() => uploadTrack(tracks, null, false));
    expect(missing.fieldErrors).toEqual([{ path: "track", message: 'This phase has tracks: choose the run\'s track, one of "LLM", "unconstrained" (by name or id).' }]);
    expect(uploadTrack(tracks, null, true)).toBeNull();
    const unknown = invalid(() => uploadTrack(tracks, "closed", false));
    expect(unknown.fieldErrors[0]).toEqual({ path: "track", message: 'No track "closed" in this phase; choose one of "LLM", "unconstrained" (by name or id).' });
    expect(invalid(() => uploadTrack([], "LLM", false)).fieldErrors[0]).toEqual({ path: "track", message: "This phase has no tracks; leave out the track." });
    expect(uploadTrack([], null, false)).toBeNull();
  });
});
