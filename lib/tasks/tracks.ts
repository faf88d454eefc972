/**
 * Tracks of a phase (issue 10 §5; migration 0005_tracks), e.g. "LLM" and "unconstrained" in
 * CRAC 2025: organizers add, edit, reorder and delete them (audited); a run declares its track
 * at upload; each track is ranked separately (`leaderboard.ts`); quotas are the phase's unless a
 * track has limits of its own (`quota.ts`).
 *
 * Contract:
 * - A phase has zero or more tracks, in `position` order (then creation order). Names are
 *   1–60 characters, unique in the phase regardless of case (so that a name resolves to one
 *   track).
 * - A phase with tracks requires every non-baseline run to name one (by id or name); a phase
 *   without tracks refuses a track. Baselines may leave it out: a baseline without a track is a
 *   reference row on every track's board.
 * - A track that has runs cannot be deleted (422); the foreign key (track_id, phase_id) →
 *   tracks(id, phase_id) ON DELETE RESTRICT backs this up. Deletion locks the track's row
 *   first, so an upload racing it either lands before (the delete is refused) or fails on the
 *   foreign key (the upload is refused with a 422 on `track`).
 * - Track limits: a track whose `dailyLimit` or `totalLimit` is set counts only the team's
 *   runs in that track against its own limits (a null one of the two is no limit); tracks
 *   without limits of their own share the phase's limits (see `quota.ts`).
 */
import { assertCanChangeTask } from "./state";
import { NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, type Viewer } from "../permissions";
import { parseInput } from "../validations/parse";
import { MAX_TRACKS, trackInputSchema, trackMoveSchema, trackPatchSchema, type TrackPatch } from "../validations/track";
import { recordAudit } from "../audit";
import { defaultDb, isUniqueViolation, isUuid, lockKey, type Db, type Tx } from "../db";
import { loadPhase } from "./phases";

/** A track as pages, the API and the other services use it. */
export interface TrackView {
  id: string;
  name: string;
  description: string;
  /** runs per team per UTC day in this track, or null */
  dailyLimit: number | null;
  /** runs per team in this track, or null */
  totalLimit: number | null;
  /** order on pages (ascending) */
  position: number;
}

/** A track with the number of runs in it (organizers: a track with runs cannot be deleted). */
export type ManagedTrack = TrackView & { runs: number };

/** The columns of a {@link TrackView}. */
export const TRACK_SELECT = { id: true, name: true, description: true, dailyLimit: true, totalLimit: true, position: true } as const;

/** The order of a phase's tracks: position, then creation, then id (total). */
export const TRACK_ORDER = [{ position: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }];

/** True when the track has a limit of its own (then its runs count only against its limits). */
export function hasOwnLimits(track: Pick<TrackView, "dailyLimit" | "totalLimit">): boolean {
  return track.dailyLimit !== null || track.totalLimit !== null;
}

/**
 * A phase's tracks in order (public facts, like the phase's name: no authorization).
 *
 * @param phaseId a phase id (unknown ids give [])
 */
export async function listTracks(phaseId: string, db: Db = defaultDb()): Promise<TrackView[]> {
  if (!isUuid(phaseId)) return [];
  return db.track.findMany({ where: { phaseId }, orderBy: TRACK_ORDER, select: TRACK_SELECT });
}

/** `"LLM", "unconstrained"`: the tracks' names for messages. */
export function trackChoices(tracks: readonly Pick<TrackView, "name">[]): string {
  return tracks.map((t) => JSON.stringify(t.name)).join(", ");
}

/**
 * The track a reference names among a phase's tracks: an id, else the exact name, else the
 * name in any case.
 *
 * @param tracks the phase's tracks
 * @param ref a track id or name (null: none named)
 * @param field the input field, for the error (`track`)
 * @returns the track, or null when `ref` is null
 * @throws ValidationError (422, field `field`) when `ref` names none of them; the message
 *   lists the choices, or says that the phase has no tracks
 */
export function findTrack<T extends Pick<TrackView, "id" | "name">>(tracks: readonly T[], ref: string | null, field = "track"): T | null {
  if (ref === null) return null;
  if (tracks.length === 0) throw ValidationError.field(field, "This phase has no tracks; leave out the track.");
  const found =
    tracks.find((t) => t.id === ref.toLowerCase()) ??
    tracks.find((t) => t.name === ref) ??
    tracks.find((t) => t.name.toLowerCase() === ref.toLowerCase());
  if (!found) throw ValidationError.field(field, `No track "${ref}" in this phase; choose one of ${trackChoices(tracks)} (by name or id).`);
  return found;
}

/**
 * The track of an upload (see the module comment).
 *
 * @param tracks the phase's tracks
 * @param ref the upload's `track` (id or name), or null
 * @param isBaseline baselines may leave it out
 * @returns the track, or null (no tracks in the phase, or a baseline without one)
 * @throws ValidationError (422, field `track`) when the phase has tracks and a non-baseline
 *   run names none (the message lists the choices), names an unknown one, or names one in a
 *   phase without tracks
 */
export function uploadTrack<T extends Pick<TrackView, "id" | "name">>(tracks: readonly T[], ref: string | null, isBaseline: boolean): T | null {
  if (ref === null && tracks.length > 0 && !isBaseline) {
    throw ValidationError.field("track", `This phase has tracks: choose the run's track, one of ${trackChoices(tracks)} (by name or id).`);
  }
  return findTrack(tracks, ref);
}

/** Loads a track with its phase's task id. @throws NotFoundError (404) for an unknown id */
async function loadTrack(trackId: string, db: Db) {
  const track = isUuid(trackId)
    ? await db.track.findUnique({ where: { id: trackId }, select: { ...TRACK_SELECT, phaseId: true, phase: { select: { taskId: true } } } })
    : null;
  if (!track) throw new NotFoundError("No such track.");
  return track;
}

/** @throws ValidationError (422, field `name`) when another track of the phase has this name in any case */
async function assertNameFree(db: Db, phaseId: string, name: string, exceptId?: string): Promise<void> {
  const clash = await db.track.findFirst({
    where: { phaseId, name: { equals: name, mode: "insensitive" }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { name: true },
  });
  if (clash) throw nameTaken(clash.name);
}

function nameTaken(name: string): ValidationError {
  return ValidationError.field("name", `This phase already has a track named "${name}".`);
}

/** Audit facts of a track (no file content). */
function auditTrack(t: Pick<TrackView, "name" | "description" | "dailyLimit" | "totalLimit">) {
  return { name: t.name, description: t.description, dailyLimit: t.dailyLimit, totalLimit: t.totalLimit };
}

/**
 * Adds a track to a phase, last in its order (organizers). Writes `track.create`.
 *
 * @param input `{name, description?, dailyLimit?, totalLimit?}` (see `trackInputSchema`; form
 *   strings accepted for the limits)
 * @returns the new track
 * @throws UnauthorizedError (401), ForbiddenError (403, not an organizer of the phase's task),
 *   NotFoundError (404, no phase), ValidationError (422: bad fields, a name the phase already
 *   has (field `name`), or more than `MAX_TRACKS` tracks)
 */
export async function addTrack(actor: Viewer, phaseId: string, input: unknown): Promise<TrackView> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanChangeTask(actor, phase.taskId, db, "change its tracks", "No such phase.");
  const data = parseInput(trackInputSchema, input, "track");
  try {
    return await db.$transaction(async (tx) => {
      await lockTracks(tx, phase.id);
      await assertNameFree(tx, phase.id, data.name);
      const existing = await tx.track.aggregate({ where: { phaseId: phase.id }, _count: true, _max: { position: true } });
      if (existing._count >= MAX_TRACKS) throw ValidationError.field("name", `A phase has at most ${MAX_TRACKS} tracks.`);
      const track = await tx.track.create({
        data: { phaseId: phase.id, ...data, position: (existing._max.position ?? -1) + 1 },
        select: TRACK_SELECT,
      });
      await recordAudit(tx, {
        actorId: user.userId,
        action: "track.create",
        targetType: "track",
        targetId: track.id,
        data: { taskId: phase.taskId, phaseId: phase.id, ...auditTrack(track), position: track.position },
      });
      return track;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(data.name);
    throw error;
  }
}

/** Serializes changes to one phase's tracks (names, order). */
function lockTracks(tx: Tx, phaseId: string): Promise<void> {
  return lockKey(tx, `tracks:${phaseId}`);
}

/**
 * Changes a track's name, description or limits (organizers). Writes `track.update` with each
 * changed field's old and new value (nothing when nothing changes). Changing limits takes
 * effect at the next upload; runs already made keep their track.
 *
 * @param patch any subset of `name`, `description`, `dailyLimit`, `totalLimit` (null or ""
 *   removes a limit)
 * @returns the track after the change
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no track),
 *   ValidationError (422: bad fields; a name another track of the phase has, field `name`)
 */
export async function updateTrack(actor: Viewer, trackId: string, patch: unknown): Promise<TrackView> {
  const db = defaultDb();
  const track = await loadTrack(trackId, db);
  const user = await assertCanChangeTask(actor, track.phase.taskId, db, "change its tracks", "No such track.");
  const changes: TrackPatch = parseInput(trackPatchSchema, patch, "track");
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(changes) as [keyof TrackPatch, unknown][]) {
    if (value !== undefined && track[key] !== value) diff[key] = { from: track[key], to: value };
  }
  const { phase: _p, phaseId, ...view } = track;
  if (Object.keys(diff).length === 0) return view;
  try {
    return await db.$transaction(async (tx) => {
      await lockTracks(tx, phaseId);
      if (changes.name !== undefined) await assertNameFree(tx, phaseId, changes.name, track.id);
      const updated = await tx.track.update({ where: { id: track.id }, data: changes, select: TRACK_SELECT });
      await recordAudit(tx, {
        actorId: user.userId,
        action: "track.update",
        targetType: "track",
        targetId: track.id,
        data: { taskId: track.phase.taskId, phaseId, changes: diff },
      });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(changes.name ?? track.name);
    throw error;
  }
}

/**
 * Puts a phase's tracks in the given order (organizers): positions 0, 1, 2, … Writes
 * `track.reorder` with the old and new order (nothing when the order is unchanged).
 *
 * @param trackIds every track id of the phase, each once, in the new order
 * @returns the tracks in the new order
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase),
 *   ValidationError (422, field `trackIds`) unless `trackIds` lists each of the phase's tracks
 *   exactly once
 */
export async function reorderTracks(actor: Viewer, phaseId: string, trackIds: readonly string[]): Promise<TrackView[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanChangeTask(actor, phase.taskId, db, "change its tracks", "No such phase.");
  return db.$transaction(async (tx) => {
    await lockTracks(tx, phase.id);
    const tracks = await listTracks(phase.id, tx);
    const known = new Set(tracks.map((t) => t.id));
    const ids = trackIds.map((id) => id.toLowerCase());
    if (ids.length !== tracks.length || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw ValidationError.field("trackIds", `List each of the phase's ${tracks.length} tracks exactly once, in the new order.`);
    }
    if (ids.every((id, i) => tracks[i].id === id && tracks[i].position === i)) return tracks;
    for (const [position, id] of ids.entries()) await tx.track.update({ where: { id }, data: { position } });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "track.reorder",
      targetType: "phase",
      targetId: phase.id,
      data: { taskId: phase.taskId, from: tracks.map((t) => t.id), to: ids },
    });
    return listTracks(phase.id, tx);
  });
}

/**
 * Moves a track one place up or down in its phase's order (organizers; see
 * {@link reorderTracks}). Moving the first track up or the last down changes nothing.
 *
 * @param direction `"up"` or `"down"`
 * @returns the phase's tracks in the new order
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no track),
 *   ValidationError (422, field `direction`)
 */
export async function moveTrack(actor: Viewer, trackId: string, direction: unknown): Promise<TrackView[]> {
  const db = defaultDb();
  const track = await loadTrack(trackId, db);
  await assertCanChangeTask(actor, track.phase.taskId, db, "change its tracks", "No such track.");
  const { direction: dir } = parseInput(trackMoveSchema, { direction }, "move");
  const ids = (await listTracks(track.phaseId, db)).map((t) => t.id);
  const from = ids.indexOf(track.id);
  const to = dir === "up" ? from - 1 : from + 1;
  if (from >= 0 && to >= 0 && to < ids.length) [ids[from], ids[to]] = [ids[to], ids[from]];
  return reorderTracks(actor, track.phaseId, ids);
}

/**
 * Deletes a track that has no runs (organizers). Writes `track.delete` with the track's fields.
 *
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no track),
 *   ValidationError (422, field `track`) when runs (baselines included) declare the track: the
 *   message says how many
 */
export async function deleteTrack(actor: Viewer, trackId: string): Promise<void> {
  const db = defaultDb();
  const track = await loadTrack(trackId, db);
  const user = await assertCanChangeTask(actor, track.phase.taskId, db, "change its tracks", "No such track.");
  await db.$transaction(async (tx) => {
    // Lock the row: an upload's foreign-key check waits for it (see the module comment).
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM tracks WHERE id = ${track.id}::uuid FOR UPDATE`;
    if (locked.length === 0) throw new NotFoundError("No such track.");
    const runs = await tx.submission.count({ where: { trackId: track.id } });
    if (runs > 0) {
      throw ValidationError.field(
        "track",
        `The track "${track.name}" has ${runs} run${runs === 1 ? "" : "s"} and cannot be deleted; a track with runs stays (you can rename it or change its description).`,
      );
    }
    await tx.track.delete({ where: { id: track.id } });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "track.delete",
      targetType: "track",
      targetId: track.id,
      data: { taskId: track.phase.taskId, phaseId: track.phaseId, ...auditTrack(track) },
    });
  });
}

/**
 * A phase's tracks with their run counts, for the manage page (organizers).
 *
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase)
 */
export async function listTracksForOrganizers(actor: Viewer, phaseId: string): Promise<ManagedTrack[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const tracks = await db.track.findMany({ where: { phaseId: phase.id }, orderBy: TRACK_ORDER, select: { ...TRACK_SELECT, _count: { select: { submissions: true } } } });
  return tracks.map(({ _count, ...t }) => ({ ...t, runs: _count.submissions }));
}
