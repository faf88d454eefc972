/**
 * The audit log: one AuditEvent per organizer action and per gold change, written in the
 * same transaction as the change itself. `data` holds ids, names and numbers, never file
 * content (gold keys in particular).
 */
import { isUuid, type Tx } from "../db";
import type { Prisma } from "../generated/prisma/client";

/** Actions written by the services, as stored in `AuditEvent.action`. */
export type AuditAction =
  | "task.create"
  | "phase.create"
  | "phase.update"
  | "task.organizer.add"
  | "task.analysis.update"
  | "task.evaluation.update"
  | "gold.upload"
  | "submission.create"
  | "team.create"
  | "team.join"
  | "team.member_remove"
  | "team.leave"
  | "team.owner_add"
  | "task.participant.update"
  | "track.create"
  | "track.update"
  | "track.reorder"
  | "track.delete"
  | "dataset.create"
  | "dataset.update"
  | "dataset.delete"
  | "submission.withdraw"
  | "submission.disqualify"
  | "submission.requalify"
  | "user.password_reset_request"
  | "user.password_reset"
  | "task.update"
  | "task.publish"
  | "task.archive"
  | "task.unarchive"
  | "phase.delete"
  | "phase.rescore"
  | "submission.hide"
  | "submission.unhide"
  | "submission.rescore"
  | "submission.final_select"
  | "submission.final_unselect"
  | "snapshot.publish"
  | "task.organizer.invite"
  | "task.organizer.invitation_revoke"
  | "task.organizer.accept"
  | "team.invitation_create"
  | "team.invitation_revoke"
  | "user.email_change_request"
  | "user.email_change"
  | "user.email_confirm"
  | "user.delete"
  | "user.api_token_create"
  | "user.api_token_revoke"
  | "user.role_change";

/** What one audit event records. */
export interface AuditInput {
  /** the acting user, or null for the system */
  actorId: string | null;
  action: AuditAction;
  /** "task", "phase", "gold_key", "submission", "team", "track", "dataset" */
  targetType: string;
  targetId: string;
  /** JSON-serializable facts (no file content); Dates become ISO strings */
  data?: Record<string, unknown>;
}

/**
 * The team an audit event concerns, as stored in `AuditEvent.teamId` (indexed with `at`, so a
 * team's events are found without reading the whole log): the target of an event on a team
 * (`targetType` "team"), else the `teamId` of the event's data (the run events
 * `submission.*` record the run's team there). Null otherwise, and for an id that is not a
 * UUID. Migration 0013 backfilled older events by the same rule.
 *
 * @param event the event as passed to {@link recordAudit}
 * @returns the team's id, or null
 */
export function auditTeamId(event: Pick<AuditInput, "targetType" | "targetId" | "data">): string | null {
  const id = event.targetType === "team" ? event.targetId : event.data?.teamId;
  return typeof id === "string" && isUuid(id) ? id : null;
}

/**
 * Writes one audit event, with the team it concerns ({@link auditTeamId}) in its own column.
 *
 * @param tx the transaction that makes the change being recorded
 * @param event actor, action, target and data
 * @throws a Prisma foreign-key error when the team the event names does not exist (the
 *   callers name the team they change, or the team of the run they change, in the same
 *   transaction)
 */
export async function recordAudit(tx: Tx, event: AuditInput): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorId: event.actorId,
      action: event.action,
      targetType: event.targetType,
      targetId: event.targetId,
      teamId: auditTeamId(event),
      data: JSON.parse(JSON.stringify(event.data ?? {})) as Prisma.InputJsonValue,
    },
  });
}

