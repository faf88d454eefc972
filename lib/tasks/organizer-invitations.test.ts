/**
 * Co-organizer invitations against a real database (issue 11 §1): who may invite, the mail
 * and its link (only the sha256 stored), replacing a pending invitation, the 409 for an
 * existing organizer, revocation, expiry and single use (410), the wrong account (403 with the
 * masked address), the audit rows, and that an accepted organizer gets organizer powers on
 * that task only, never a site admin's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

const { sendMail } = await import("../accounts/mail");
const { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } = await import("../errors");
const { sha256Hex } = await import("../storage");
const { assertCanManageTask, canManageTask, isSiteAdmin } = await import("../permissions");
const { createTask, getTaskForViewer } = await import("./tasks");
const {
  ORGANIZER_INVITATION_TTL_MS,
  acceptOrganizerInvitation,
  inviteOrganizer,
  listOrganizerInvitations,
  maskEmail,
  organizerTaskIdForSlug,
  previewOrganizerInvitation,
  revokeOrganizerInvitation,
} = await import("./organizer-invitations");
const { GoneError } = await import("../errors");
const { makeTaskWithPhase, makeUser, rejection } = await import("./test-fixtures");

const testDb = useTestDatabase();
const mailed = vi.mocked(sendMail);
const BASE = "https://coref.example.org";
const LINK = /^https:\/\/coref\.example\.org\/invite\/organizer\/([A-Za-z0-9_-]{43})$/;
const T0 = new Date("2026-11-25T12:00:00.000Z");

let log: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", BASE);
  vi.stubEnv("SMTP_URL", "");
  mailed.mockClear();
  log = vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  log.mockRestore();
});

/** A published task with one organizer, a site admin, the invitee (with an account) and a stranger. */
async function setup() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const admin = await makeUser(db, "Admin", "ADMIN");
  const invitee = await makeUser(db, "Invitee");
  const stranger = await makeUser(db, "Stranger");
  const { task } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const { task: otherTask } = await makeTaskWithPhase(db, { organizerIds: [admin.id] });
  return { db, organizer, admin, invitee, stranger, task, otherTask };
}

/** The token of the last mail's link. */
function lastToken(): string {
  const url = mailed.mock.calls.at(-1)![0].links![0]!;
  const token = LINK.exec(url)?.[1];
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

describe("inviteOrganizer", () => {
  it("mails the link to the address, stores only its sha256, expires in 7 days, lists it, audits task.organizer.invite", async () => {
    const f = await setup();
    const made = await inviteOrganizer(f.organizer.viewer, f.task.id, `  ${f.invitee.email.toUpperCase()} `, T0);
    expect(mailed).toHaveBeenCalledTimes(1);
    const mail = mailed.mock.calls[0]![0];
    expect(mail).toMatchObject({ to: f.invitee.email, subject: `You are invited to organize “${f.task.title}” on Corefboard` });
    expect(mail.text).toContain(mail.links![0]);
    expect(mail.text).toContain("Organizer invites you");
    const token = lastToken();
    expect(made).toMatchObject({ url: mail.links![0], replaced: false, mailed: true, invitation: { email: f.invitee.email, expired: false, invitedBy: { id: f.organizer.id } } });
    expect(made.invitation.expiresAt.getTime() - T0.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(ORGANIZER_INVITATION_TTL_MS).toBe(7 * 24 * 3600 * 1000);
    const row = await f.db.organizerInvitation.findUniqueOrThrow({ where: { id: made.invitation.id } });
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await listOrganizerInvitations(f.organizer.viewer, f.task.id, T0)).map((i) => i.id)).toEqual([made.invitation.id]);
    const events = await f.db.auditEvent.findMany({ where: { targetType: "task", targetId: f.task.id, action: "task.organizer.invite" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.organizer.id, data: { invitationId: made.invitation.id, email: f.invitee.email, replaced: false } });
  });

  it("site admins may invite; others are refused (401 anonymous, 403 signed in, 404 unknown task), before the address is looked at", async () => {
    const f = await setup();
    await inviteOrganizer(f.admin.viewer, f.task.id, "someone@example.org", T0);
    expect(await rejection(inviteOrganizer(null, f.task.id, "x@example.org", T0))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(inviteOrganizer(f.stranger.viewer, f.task.id, "not an address", T0))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(inviteOrganizer(f.organizer.viewer, f.otherTask.id, "x@example.org", T0))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(inviteOrganizer(f.organizer.viewer, "00000000-0000-4000-8000-000000000000", "x@example.org", T0))).toBeInstanceOf(NotFoundError);
    expect(await f.db.organizerInvitation.count({ where: { taskId: f.otherTask.id } })).toBe(0);
  });

  it("a malformed address is a 422 on the email field", async () => {
    const f = await setup();
    const refused = await rejection(inviteOrganizer(f.organizer.viewer, f.task.id, "not an address", T0));
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as InstanceType<typeof ValidationError>).fieldErrors).toEqual([{ path: "email", message: "Enter a valid email address." }]);
    expect(mailed).not.toHaveBeenCalled();
  });

  it("inviting an existing organizer is a 409 'already an organizer'", async () => {
    const f = await setup();
    const refused = await rejection(inviteOrganizer(f.organizer.viewer, f.task.id, f.organizer.email, T0));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toBe(`Organizer (${f.organizer.email}) is already an organizer of this task.`);
    expect(await f.db.organizerInvitation.count({ where: { taskId: f.task.id } })).toBe(0);
  });

  it("re-inviting a pending address replaces its token: one invitation, the old link unknown, the new one works", async () => {
    const f = await setup();
    const first = await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    const oldToken = lastToken();
    const later = new Date(T0.getTime() + 3600_000);
    const second = await inviteOrganizer(f.admin.viewer, f.task.id, f.invitee.email, later);
    const newToken = lastToken();
    expect(second.replaced).toBe(true);
    expect(second.invitation.id).toBe(first.invitation.id);
    expect(second.invitation.expiresAt.getTime()).toBe(later.getTime() + ORGANIZER_INVITATION_TTL_MS);
    expect(second.invitation.invitedBy?.id).toBe(f.admin.id);
    expect(await f.db.organizerInvitation.count({ where: { taskId: f.task.id } })).toBe(1);
    expect(await rejection(acceptOrganizerInvitation(f.invitee.viewer, oldToken, later))).toBeInstanceOf(NotFoundError);
    await acceptOrganizerInvitation(f.invitee.viewer, newToken, later);
  });
});

describe("acceptOrganizerInvitation", () => {
  it("makes the invited user an organizer (not an admin: no task creation, no other task), uses the link up, audits task.organizer.accept", async () => {
    const f = await setup();
    const { invitation } = await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    const token = lastToken();
    const preview = await previewOrganizerInvitation(f.invitee.viewer, token, T0);
    expect(preview).toMatchObject({ task: { id: f.task.id, slug: f.task.slug, title: f.task.title }, invitedBy: { name: "Organizer" }, status: "pending", forViewer: true, maskedEmail: maskEmail(f.invitee.email) });

    const accepted = await acceptOrganizerInvitation(f.invitee.viewer, token, T0);
    expect(accepted).toEqual({ task: { id: f.task.id, slug: f.task.slug, title: f.task.title }, added: true });
    expect(await canManageTask(f.invitee.viewer, f.task.id)).toBe(true);
    expect((await getTaskForViewer(f.task.slug, f.invitee.viewer)).isOrganizer).toBe(true);
    const row = await f.db.organizerInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row).toMatchObject({ acceptedAt: T0, acceptedById: f.invitee.id });
    const events = await f.db.auditEvent.findMany({ where: { targetType: "task", targetId: f.task.id, action: "task.organizer.accept" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.invitee.id, data: { invitationId: invitation.id, email: f.invitee.email } });
    // Listed no more.
    expect(await listOrganizerInvitations(f.organizer.viewer, f.task.id, T0)).toEqual([]);

    // Organizer and admin powers stay distinct.
    const user = await f.db.user.findUniqueOrThrow({ where: { id: f.invitee.id } });
    expect(user.role).toBe("USER");
    expect(isSiteAdmin(f.invitee.viewer)).toBe(false);
    expect(await rejection(createTask(f.invitee.viewer, { slug: "new-task", title: "New" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(assertCanManageTask(f.invitee.viewer, f.otherTask.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(inviteOrganizer(f.invitee.viewer, f.otherTask.id, "friend@example.org", T0))).toBeInstanceOf(ForbiddenError);
    // …but they may invite to the task they now organize.
    await inviteOrganizer(f.invitee.viewer, f.task.id, "friend@example.org", T0);

    // One use.
    const again = await rejection(acceptOrganizerInvitation(f.invitee.viewer, token, T0));
    expect(again).toBeInstanceOf(GoneError);
    expect(again.httpStatus).toBe(410);
    expect(again.code).toBe("gone");
    expect(again.message).toBe("This invitation was already accepted; it works once.");
    expect(await f.db.taskOrganizer.count({ where: { taskId: f.task.id } })).toBe(2);
  });

  it("another account is refused with the masked address (403) and the link stays usable", async () => {
    const f = await setup();
    await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    const token = lastToken();
    expect((await previewOrganizerInvitation(f.stranger.viewer, token, T0)).forViewer).toBe(false);
    const refused = await rejection(acceptOrganizerInvitation(f.stranger.viewer, token, T0));
    expect(refused).toBeInstanceOf(ForbiddenError);
    const masked = `${f.invitee.email.charAt(0)}***@example.org`;
    expect(maskEmail(f.invitee.email)).toBe(masked);
    expect(refused.message).toBe(`This invitation was sent to ${masked}; sign in with that address to accept it.`);
    expect(await canManageTask(f.stranger.viewer, f.task.id)).toBe(false);
    // A site admin with another address is refused too: the invitation is the invitee's.
    expect(await rejection(acceptOrganizerInvitation(f.admin.viewer, token, T0))).toBeInstanceOf(ForbiddenError);
    await acceptOrganizerInvitation(f.invitee.viewer, token, T0);
  });

  it("an expired invitation (after 7 days) is a 410 saying so; anonymous viewers get a 401", async () => {
    const f = await setup();
    await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    const token = lastToken();
    expect(await rejection(acceptOrganizerInvitation(null, token, T0))).toBeInstanceOf(UnauthorizedError);
    const atExpiry = new Date(T0.getTime() + ORGANIZER_INVITATION_TTL_MS);
    expect((await previewOrganizerInvitation(null, token, atExpiry)).status).toBe("expired");
    const refused = await rejection(acceptOrganizerInvitation(f.invitee.viewer, token, atExpiry));
    expect(refused.httpStatus).toBe(410);
    expect(refused.message).toBe("This invitation has expired. Ask the organizer to invite you again.");
    expect(await canManageTask(f.invitee.viewer, f.task.id)).toBe(false);
    // An expired invitation does not block a new one (a new row, not a replacement).
    const renewed = await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, atExpiry);
    expect(renewed.replaced).toBe(false);
  });

  it("a revoked invitation is a 410 saying so; revoking is for organizers, once, audited", async () => {
    const f = await setup();
    const { invitation } = await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    const token = lastToken();
    expect(await rejection(revokeOrganizerInvitation(f.stranger.viewer, f.task.id, invitation.id, T0))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(revokeOrganizerInvitation(f.admin.viewer, f.otherTask.id, invitation.id, T0))).toBeInstanceOf(NotFoundError);
    expect(await revokeOrganizerInvitation(f.admin.viewer, f.task.id, invitation.id, T0)).toEqual({ id: invitation.id, email: f.invitee.email });
    expect(await rejection(revokeOrganizerInvitation(f.organizer.viewer, f.task.id, invitation.id, T0))).toBeInstanceOf(ConflictError);
    const refused = await rejection(acceptOrganizerInvitation(f.invitee.viewer, token, T0));
    expect(refused.httpStatus).toBe(410);
    expect(refused.message).toBe("This invitation was revoked by the task's organizers.");
    expect((await previewOrganizerInvitation(f.invitee.viewer, token, T0)).status).toBe("revoked");
    const events = await f.db.auditEvent.findMany({ where: { targetType: "task", targetId: f.task.id, action: "task.organizer.invitation_revoke" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.admin.id, data: { invitationId: invitation.id, email: f.invitee.email } });
    expect(await listOrganizerInvitations(f.organizer.viewer, f.task.id, T0)).toEqual([]);
  });

  it("an accepted invitation cannot be revoked (409); unknown tokens are a 404", async () => {
    const f = await setup();
    const { invitation } = await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    await acceptOrganizerInvitation(f.invitee.viewer, lastToken(), T0);
    expect(await rejection(revokeOrganizerInvitation(f.organizer.viewer, f.task.id, invitation.id, T0))).toBeInstanceOf(ConflictError);
    for (const token of ["B".repeat(43), "", "../etc"]) {
      expect(await rejection(acceptOrganizerInvitation(f.invitee.viewer, token, T0))).toBeInstanceOf(NotFoundError);
      expect(await rejection(previewOrganizerInvitation(null, token, T0))).toBeInstanceOf(NotFoundError);
    }
  });

  it("a user who became an organizer meanwhile uses the link up without a second row", async () => {
    const f = await setup();
    await inviteOrganizer(f.organizer.viewer, f.task.id, f.invitee.email, T0);
    await f.db.taskOrganizer.create({ data: { taskId: f.task.id, userId: f.invitee.id } });
    expect(await acceptOrganizerInvitation(f.invitee.viewer, lastToken(), T0)).toMatchObject({ added: false });
    expect(await f.db.taskOrganizer.count({ where: { taskId: f.task.id, userId: f.invitee.id } })).toBe(1);
  });
});

describe("organizerTaskIdForSlug", () => {
  it("finds a task by slug for its organizers and admins; 401 anonymous, 403 others, 404 unknown or malformed", async () => {
    const f = await setup();
    expect(await organizerTaskIdForSlug(f.organizer.viewer, f.task.slug)).toBe(f.task.id);
    expect(await organizerTaskIdForSlug(f.admin.viewer, f.task.slug)).toBe(f.task.id);
    expect(await rejection(organizerTaskIdForSlug(f.stranger.viewer, f.task.slug))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(organizerTaskIdForSlug(f.organizer.viewer, f.otherTask.slug))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(organizerTaskIdForSlug(null, f.task.slug))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(organizerTaskIdForSlug(f.stranger.viewer, "no-such-task"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(organizerTaskIdForSlug(f.stranger.viewer, "Bad Slug!"))).toBeInstanceOf(NotFoundError);
  });
});
