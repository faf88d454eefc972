/**
 * Team invitation links against a real database (issue 11 §4, issue 23 F4): who may make
 * (owners), list (members) and revoke (owners) them, the token (only its sha256 stored, shown
 * once), joining through a link (uses counted up to the link's limit, single-use by default,
 * joining twice a no-op), expiry, revocation and use-up (410 saying which), the audit rows,
 * and the join code still working beside the links.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, GoneError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { sha256Hex } from "../storage";
import {
  MAX_ACTIVE_TEAM_INVITATIONS,
  TEAM_INVITATION_TTL_MS,
  acceptTeamInvitation,
  createTeamInvitation,
  listTeamInvitations,
  previewTeamInvitation,
  revokeTeamInvitation,
} from "./invitations";
import { getJoinCode, joinTeam, listTeamsOf } from "./teams";
import { makeTeam, makeUser, rejection } from "../tasks/test-fixtures";

const testDb = useTestDatabase();
const BASE = "https://coref.example.org";
const LINK = /^https:\/\/coref\.example\.org\/invite\/team\/([A-Za-z0-9_-]{43})$/;
const T0 = new Date("2026-11-25T12:00:00.000Z");

beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", BASE);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A team with an owner and a member, and an outsider. */
async function setup() {
  const db = testDb.prisma;
  const owner = await makeUser(db, "Owner");
  const member = await makeUser(db, "Member");
  const outsider = await makeUser(db, "Outsider");
  const admin = await makeUser(db, "Admin", "ADMIN");
  const team = await makeTeam(db, "Crew", [owner.id, member.id]);
  return { db, owner, member, outsider, admin, team };
}

function tokenOf(url: string): string {
  const token = LINK.exec(url)?.[1];
  if (!token) throw new Error(`not a team invitation link: ${url}`);
  return token;
}

describe("createTeamInvitation", () => {
  it("an owner makes a single-use link valid 14 days; only the token's sha256 is stored; audited as team.invitation_create", async () => {
    const f = await setup();
    const made = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const token = tokenOf(made.url);
    expect(made.invitation).toMatchObject({ status: "active", uses: 0, maxUses: 1, revokedAt: null, createdBy: { id: f.owner.id, name: "Owner" } });
    expect(made.invitation.expiresAt.getTime() - T0.getTime()).toBe(TEAM_INVITATION_TTL_MS);
    expect(TEAM_INVITATION_TTL_MS).toBe(14 * 24 * 3600 * 1000);
    const row = await f.db.teamInvitation.findUniqueOrThrow({ where: { id: made.invitation.id } });
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    // The listing never carries the token.
    expect(JSON.stringify(await listTeamInvitations(f.owner.viewer, f.team.id, T0))).not.toContain(token);
    const events = await f.db.auditEvent.findMany({ where: { targetType: "team", targetId: f.team.id, action: "team.invitation_create" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.owner.id, data: { invitationId: made.invitation.id, maxUses: 1 } });

    await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    // Members see the links but cannot make any.
    expect(await listTeamInvitations(f.member.viewer, f.team.id, T0)).toHaveLength(2);
  });

  it("a MEMBER cannot make a link (403, nothing stored or audited); maxUses out of 1–50 is a 422", async () => {
    const f = await setup();
    const refused = await rejection(createTeamInvitation(f.member.viewer, f.team.id, T0, { maxUses: 5 }));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.message).toBe("Only the team's owners can create invitation links.");
    for (const maxUses of [0, 51, 2.5, "many", -1]) {
      expect(await rejection(createTeamInvitation(f.owner.viewer, f.team.id, T0, { maxUses }))).toBeInstanceOf(ValidationError);
    }
    expect(await f.db.teamInvitation.count({ where: { teamId: f.team.id } })).toBe(0);
    expect(await f.db.auditEvent.count({ where: { targetId: f.team.id, action: "team.invitation_create" } })).toBe(0);
    // A form's string is accepted.
    expect((await createTeamInvitation(f.owner.viewer, f.team.id, T0, { maxUses: "3" })).invitation.maxUses).toBe(3);
  });

  it("outsiders, site admins and unknown teams get the same 404; anonymous viewers a 401", async () => {
    const f = await setup();
    for (const viewer of [f.outsider.viewer, f.admin.viewer]) {
      expect(await rejection(createTeamInvitation(viewer, f.team.id))).toBeInstanceOf(NotFoundError);
      expect(await rejection(listTeamInvitations(viewer, f.team.id))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejection(createTeamInvitation(f.owner.viewer, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(createTeamInvitation(f.owner.viewer, "not-a-uuid"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(createTeamInvitation(null, f.team.id))).toBeInstanceOf(UnauthorizedError);
    expect(await f.db.teamInvitation.count({ where: { teamId: f.team.id } })).toBe(0);
  });

  it(`refuses a link beyond ${MAX_ACTIVE_TEAM_INVITATIONS} working ones (409); expired and revoked ones do not count`, async () => {
    const f = await setup();
    const old = await createTeamInvitation(f.owner.viewer, f.team.id, new Date(T0.getTime() - TEAM_INVITATION_TTL_MS - 1000));
    const revoked = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    await revokeTeamInvitation(f.owner.viewer, f.team.id, revoked.invitation.id, T0);
    for (let i = 0; i < MAX_ACTIVE_TEAM_INVITATIONS; i += 1) await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const refused = await rejection(createTeamInvitation(f.owner.viewer, f.team.id, T0));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toBe(`This team already has ${MAX_ACTIVE_TEAM_INVITATIONS} working invitation links; revoke one first.`);
    const listed = await listTeamInvitations(f.owner.viewer, f.team.id, T0);
    expect(listed.find((i) => i.id === old.invitation.id)?.status).toBe("expired");
    expect(listed.find((i) => i.id === revoked.invitation.id)?.status).toBe("revoked");
  });
});

describe("acceptTeamInvitation", () => {
  it("joins the team as a MEMBER, counts the use, audits team.join via invitation; a second time is a no-op said so", async () => {
    const f = await setup();
    const { url, invitation } = await createTeamInvitation(f.owner.viewer, f.team.id, T0, { maxUses: 2 });
    const token = tokenOf(url);
    const preview = await previewTeamInvitation(f.outsider.viewer, token, T0);
    expect(preview).toMatchObject({ team: { id: f.team.id, name: f.team.name, memberCount: 2 }, invitedBy: { name: "Owner" }, status: "active", alreadyMember: false });

    const joined = await acceptTeamInvitation(f.outsider.viewer, token, new Date(T0.getTime() + 1000));
    expect(joined).toEqual({ team: { id: f.team.id, name: f.team.name }, joined: true, message: `You joined “${f.team.name}”.` });
    const membership = await f.db.teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId: f.team.id, userId: f.outsider.id } } });
    expect(membership.role).toBe("MEMBER");
    const events = await f.db.auditEvent.findMany({ where: { targetType: "team", targetId: f.team.id, action: "team.join" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.outsider.id, data: { via: "invitation", invitationId: invitation.id } });

    const again = await acceptTeamInvitation(f.outsider.viewer, token, new Date(T0.getTime() + 2000));
    expect(again).toEqual({ team: { id: f.team.id, name: f.team.name }, joined: false, message: `You are already a member of “${f.team.name}”.` });
    // Members already in the team do not count as uses.
    expect(await acceptTeamInvitation(f.member.viewer, token, T0)).toMatchObject({ joined: false });
    expect((await f.db.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).uses).toBe(1);
    expect(await f.db.auditEvent.count({ where: { targetType: "team", targetId: f.team.id, action: "team.join" } })).toBe(1);
    expect((await previewTeamInvitation(f.outsider.viewer, token, T0)).alreadyMember).toBe(true);

    // A link for two people lets a second one in, and then no one.
    const third = await makeUser(f.db, "Third");
    await acceptTeamInvitation(third.viewer, token, T0);
    expect((await f.db.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).uses).toBe(2);
    expect((await listTeamsOf(third.id)).map((t) => t.id)).toEqual([f.team.id]);
    const fourth = await makeUser(f.db, "Fourth");
    const usedUp = await rejection(acceptTeamInvitation(fourth.viewer, token, T0));
    expect(usedUp).toBeInstanceOf(GoneError);
    expect(usedUp.message).toBe("This team invitation link has already been used as many times as it allows. Ask an owner of the team for a new one.");
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id, userId: fourth.id } })).toBe(0);
    expect((await previewTeamInvitation(fourth.viewer, token, T0)).status).toBe("used");
    expect((await listTeamInvitations(f.owner.viewer, f.team.id, T0))[0]).toMatchObject({ uses: 2, maxUses: 2, status: "used" });
    // Someone already in the team is still told so.
    expect(await acceptTeamInvitation(third.viewer, token, T0)).toMatchObject({ joined: false });
  });

  it("a single-use link (the default) lets one person in; the second is refused (410) and nothing changes", async () => {
    const f = await setup();
    const { url, invitation } = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const token = tokenOf(url);
    expect(await acceptTeamInvitation(f.outsider.viewer, token, T0)).toMatchObject({ joined: true });
    const second = await makeUser(f.db, "Second");
    const refused = await rejection(acceptTeamInvitation(second.viewer, token, T0));
    expect(refused.httpStatus).toBe(410);
    expect(refused.message).toContain("already been used");
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id, userId: second.id } })).toBe(0);
    expect((await f.db.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).uses).toBe(1);
    expect(await f.db.auditEvent.count({ where: { targetId: f.team.id, action: "team.join" } })).toBe(1);
  });

  it("two people racing for the last use of a link: one joins, the other is refused", async () => {
    const f = await setup();
    const { url } = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const a = await makeUser(f.db, "Racer A");
    const b = await makeUser(f.db, "Racer B");
    const results = await Promise.allSettled([acceptTeamInvitation(a.viewer, tokenOf(url), T0), acceptTeamInvitation(b.viewer, tokenOf(url), T0)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected");
    expect(failed && failed.status === "rejected" ? (failed.reason as Error) : null).toBeInstanceOf(GoneError);
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id, userId: { in: [a.id, b.id] } } })).toBe(1);
  });

  it("a revoked link says it was revoked (410); revoking twice is a 409; audited as team.invitation_revoke", async () => {
    const f = await setup();
    const { url, invitation } = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    expect(await rejection(revokeTeamInvitation(f.outsider.viewer, f.team.id, invitation.id, T0))).toBeInstanceOf(NotFoundError);
    expect(await rejection(revokeTeamInvitation(f.member.viewer, f.team.id, invitation.id, T0))).toBeInstanceOf(ForbiddenError);
    const revoked = await revokeTeamInvitation(f.owner.viewer, f.team.id, invitation.id, T0);
    expect(revoked).toMatchObject({ id: invitation.id, status: "revoked", revokedAt: T0 });
    const refused = await rejection(acceptTeamInvitation(f.outsider.viewer, tokenOf(url), T0));
    expect(refused).toBeInstanceOf(GoneError);
    expect(refused.httpStatus).toBe(410);
    expect(refused.message).toBe("This team invitation link was revoked by the team. Ask a member for a new one.");
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id, userId: f.outsider.id } })).toBe(0);
    expect(await rejection(revokeTeamInvitation(f.owner.viewer, f.team.id, invitation.id, T0))).toBeInstanceOf(ConflictError);
    const events = await f.db.auditEvent.findMany({ where: { targetType: "team", targetId: f.team.id, action: "team.invitation_revoke" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.owner.id, data: { invitationId: invitation.id } });
  });

  it("an expired link says it expired (410); a link of another team cannot be revoked through this one (404)", async () => {
    const f = await setup();
    const { url, invitation } = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const justBefore = new Date(T0.getTime() + TEAM_INVITATION_TTL_MS - 1);
    expect((await previewTeamInvitation(null, tokenOf(url), justBefore)).status).toBe("active");
    const atExpiry = new Date(T0.getTime() + TEAM_INVITATION_TTL_MS);
    expect((await previewTeamInvitation(null, tokenOf(url), atExpiry)).status).toBe("expired");
    const refused = await rejection(acceptTeamInvitation(f.outsider.viewer, tokenOf(url), atExpiry));
    expect(refused.httpStatus).toBe(410);
    expect(refused.message).toBe("This team invitation link has expired. Ask a member of the team for a new one.");

    const other = await makeTeam(f.db, "Other", [f.owner.id]);
    expect(await rejection(revokeTeamInvitation(f.owner.viewer, other.id, invitation.id, T0))).toBeInstanceOf(NotFoundError);
  });

  it("unknown and malformed tokens are a 404; anonymous viewers are asked to sign in (401)", async () => {
    const f = await setup();
    const { url } = await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    for (const token of ["A".repeat(43), "short", `${tokenOf(url)}x`]) {
      expect(await rejection(acceptTeamInvitation(f.outsider.viewer, token, T0))).toBeInstanceOf(NotFoundError);
      expect(await rejection(previewTeamInvitation(f.outsider.viewer, token, T0))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejection(acceptTeamInvitation(null, tokenOf(url), T0))).toBeInstanceOf(UnauthorizedError);
  });

  it("the join code keeps working beside the links", async () => {
    const f = await setup();
    await createTeamInvitation(f.owner.viewer, f.team.id, T0);
    const code = await getJoinCode(f.owner.id, f.team.id);
    const joined = await joinTeam(f.outsider.id, code);
    expect(joined.id).toBe(f.team.id);
  });
});
