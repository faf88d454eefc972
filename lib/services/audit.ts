/**
 * The audit log: one AuditEvent per organizer action and per gold change, written in the
 * same transaction as the change itself. `data` holds ids, names and numbers, never file
 * content (gold keys in particular).
 */
import type { Tx } from "./db";
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
  | "user.api_token_revoke";

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
 * Writes one audit event.
 *
 * @param tx the transaction that makes the change being recorded
 * @param event actor, action, target and data
 */
export async function recordAudit(tx: Tx, event: AuditInput): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorId: event.actorId,
      action: event.action,
      targetType: event.targetType,
      targetId: event.targetId,
      data: JSON.parse(JSON.stringify(event.data ?? {})) as Prisma.InputJsonValue,
    },
  });
}

