/**
 * Site roles against a real database: granting and revoking the organizer role and the admin
 * role (by a site admin, and by the operator's CLI path), the refusals (which change nothing
 * and record nothing), the last-admin guard (also against two admins demoting each other at
 * once), the audit events, and the admins' list of accounts.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import type { Viewer } from "../permissions";
import { lockKey } from "../db";
import { ACCOUNTS_PAGE_SIZE, listSiteAccounts, parseSiteAccountsQuery, parseSiteRole, setSiteRole, setSiteRoleByEmail } from "./site-roles";
import { makeTaskWithPhase, makeUser, rejection } from "../tasks/test-fixtures";
import { UserInputError } from "./users";

const testDb = useTestDatabase();
const db = () => testDb.prisma;

/** The role changes recorded for an account, oldest first. */
const roleEvents = (userId: string) =>
  db().auditEvent.findMany({ where: { action: "user.role_change", targetId: userId }, orderBy: { at: "asc" }, select: { actorId: true, targetType: true, data: true } });

const roleOf = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } })).role;

/** Makes `keep` the only active admin of the site (the others become users, directly in the database). */
async function onlyAdmin(keep: string): Promise<void> {
  await db().user.updateMany({ where: { role: "ADMIN", id: { not: keep } }, data: { role: "USER" } });
}

describe("parseSiteRole", () => {
  it("reads the role names and enum values in any case", () => {
    expect(["admin", "ORGANIZER", " Organizer ", "user"].map(parseSiteRole)).toEqual(["ADMIN", "ORGANIZER", "ORGANIZER", "USER"]);
  });

  it.each([["owner"], [""], [undefined], [3], ["organiser"]])("refuses %j with a field error on role", (value) => {
    expect(() => parseSiteRole(value)).toThrow(UserInputError);
    try {
      parseSiteRole(value);
    } catch (error) {
      expect((error as UserInputError).fields).toEqual({ role: "Choose a role: admin, organizer or user." });
    }
  });
});

describe("setSiteRole (a site admin, on the web)", () => {
  it("grants and revokes the organizer role, each change audited with the admin as actor", async () => {
    const admin = await makeUser(db(), "Grant Admin", "ADMIN");
    const user = await makeUser(db(), "Future Organizer");

    const granted = await setSiteRole(admin.viewer, user.id, "organizer");
    expect(granted).toEqual({ user: { id: user.id, email: user.email, name: "Future Organizer" }, from: "USER", to: "ORGANIZER", changed: true });
    expect(await roleOf(user.id)).toBe("ORGANIZER");

    const revoked = await setSiteRole(admin.viewer, user.id, "user");
    expect(revoked).toMatchObject({ from: "ORGANIZER", to: "USER", changed: true });
    expect(await roleOf(user.id)).toBe("USER");

    expect(await roleEvents(user.id)).toEqual([
      { actorId: admin.id, targetType: "user", data: { email: user.email, from: "USER", to: "ORGANIZER", via: "web" } },
      { actorId: admin.id, targetType: "user", data: { email: user.email, from: "ORGANIZER", to: "USER", via: "web" } },
    ]);
  });

  it("makes and unmakes an admin; the role an account already has changes nothing and records nothing", async () => {
    const admin = await makeUser(db(), "Maker Admin", "ADMIN");
    const user = await makeUser(db(), "Promoted");
    expect(await setSiteRole(admin.viewer, user.id, "admin")).toMatchObject({ from: "USER", to: "ADMIN", changed: true });
    expect(await setSiteRole(admin.viewer, user.id, "ADMIN")).toMatchObject({ from: "ADMIN", to: "ADMIN", changed: false });
    expect(await setSiteRole(admin.viewer, user.id, "user")).toMatchObject({ from: "ADMIN", to: "USER", changed: true });
    expect((await roleEvents(user.id)).map((e) => e.data)).toEqual([
      { email: user.email, from: "USER", to: "ADMIN", via: "web" },
      { email: user.email, from: "ADMIN", to: "USER", via: "web" },
    ]);
  });

  it("refuses everyone but a site admin, bad roles and unknown or deleted accounts; nothing changes, nothing is recorded", async () => {
    const admin = await makeUser(db(), "Refusing Admin", "ADMIN");
    const user = await makeUser(db(), "Target User");
    const organizer = await makeUser(db(), "Site Organizer");
    await db().user.update({ where: { id: organizer.id }, data: { role: "ORGANIZER" } });
    const organizerViewer: Viewer = { userId: organizer.id, role: "ORGANIZER" };
    const deleted = await makeUser(db(), "Deleted Account");
    await db().user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    // A viewer whose admin role was revoked after the request read it.
    const demoted = await makeUser(db(), "Demoted Admin");
    const staleViewer: Viewer = { userId: demoted.id, role: "ADMIN" };

    expect(await rejection(setSiteRole(null, user.id, "organizer"))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(setSiteRole(user.viewer, user.id, "organizer"))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setSiteRole(organizerViewer, user.id, "organizer"))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setSiteRole(organizerViewer, organizer.id, "admin"))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setSiteRole(staleViewer, user.id, "admin"))).toBeInstanceOf(ForbiddenError);
    const badRole = await rejection(setSiteRole(admin.viewer, user.id, "superuser"));
    expect(badRole).toBeInstanceOf(UserInputError);
    expect((badRole as ValidationError).fieldErrors).toEqual([{ path: "role", message: "Choose a role: admin, organizer or user." }]);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", deleted.id]) {
      const missing = await rejection(setSiteRole(admin.viewer, id, "organizer"));
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing.message).toBe("No such account.");
    }

    expect(await roleOf(user.id)).toBe("USER");
    expect(await roleOf(organizer.id)).toBe("ORGANIZER");
    expect(await roleOf(deleted.id)).toBe("USER");
    expect(await db().auditEvent.count({ where: { action: "user.role_change", targetId: { in: [user.id, organizer.id, deleted.id] } } })).toBe(0);
  });
});

describe("the last admin", () => {
  it("cannot demote themself, nor be demoted by the CLI; once another admin exists they can", async () => {
    const admin = await makeUser(db(), "Last Admin", "ADMIN");
    await onlyAdmin(admin.id);
    // A deleted admin does not count.
    const gone = await makeUser(db(), "Gone Admin", "ADMIN");
    await db().user.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });

    for (const role of ["organizer", "user"]) {
      const self = await rejection(setSiteRole(admin.viewer, admin.id, role));
      expect(self).toBeInstanceOf(ConflictError);
      expect(self.message).toBe("You are the last site admin: make another account an admin first, so that the site keeps one.");
      const cli = await rejection(setSiteRoleByEmail(admin.email, role));
      expect(cli).toBeInstanceOf(ConflictError);
      expect(cli.message).toBe(`${admin.email} is the last site admin: make another account an admin first, so that the site keeps one.`);
    }
    expect(await roleOf(admin.id)).toBe("ADMIN");
    expect(await roleEvents(admin.id)).toEqual([]);

    const next = await makeUser(db(), "Next Admin");
    await setSiteRole(admin.viewer, next.id, "admin");
    expect(await setSiteRole(admin.viewer, admin.id, "organizer")).toMatchObject({ from: "ADMIN", to: "ORGANIZER", changed: true });
    expect((await roleEvents(admin.id)).map((e) => e.actorId)).toEqual([admin.id]);
    // Now the other one is the last.
    const nextViewer: Viewer = { userId: next.id, role: "ADMIN" };
    expect(await rejection(setSiteRole(nextViewer, next.id, "user"))).toBeInstanceOf(ConflictError);
  });

  it("a demotion waits for a concurrent role change and then sees it: two admins demoting each other cannot leave none", async () => {
    const a = await makeUser(db(), "Duel A", "ADMIN");
    const b = await makeUser(db(), "Duel B", "ADMIN");
    await onlyAdmin(a.id);
    await db().user.update({ where: { id: b.id }, data: { role: "ADMIN" } });

    // B's demotion of A, in another connection, under the site-roles lock and not yet committed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let lockTaken!: () => void;
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));
    const held = testDb.newClient().$transaction(
      async (tx) => {
        await lockKey(tx, "site-roles");
        await tx.user.update({ where: { id: a.id }, data: { role: "USER" } });
        lockTaken();
        await released;
      },
      { timeout: 30_000 },
    );
    await taken;

    // Meanwhile A demotes B: it must wait (without the lock it would read both as admins and go ahead).
    let settled = false;
    const racing = setSiteRole(a.viewer, b.id, "user").then(
      (value) => ((settled = true), { value }),
      (error: unknown) => ((settled = true), { error }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(settled).toBe(false);
    release();
    await held;
    const outcome = await racing;
    expect("error" in outcome && outcome.error).toBeInstanceOf(ForbiddenError);
    expect(await roleOf(b.id)).toBe("ADMIN");
    expect(await db().user.count({ where: { role: "ADMIN", deletedAt: null } })).toBe(1);
  });
});

describe("setSiteRoleByEmail (the operator's CLI)", () => {
  it("finds the account by its normalized address and records the change without an actor", async () => {
    const user = await makeUser(db(), "Cli Target");
    const change = await setSiteRoleByEmail(`  ${user.email.toUpperCase()} `, "Organizer");
    expect(change).toMatchObject({ user: { id: user.id, email: user.email }, from: "USER", to: "ORGANIZER", changed: true });
    expect(await roleEvents(user.id)).toEqual([{ actorId: null, targetType: "user", data: { email: user.email, from: "USER", to: "ORGANIZER", via: "cli" } }]);
    expect(await setSiteRoleByEmail(user.email, "organizer")).toMatchObject({ changed: false });
    expect(await roleEvents(user.id)).toHaveLength(1);
  });

  it("refuses an unknown or deleted address, a malformed one and a bad role, changing nothing", async () => {
    const missing = await rejection(setSiteRoleByEmail("Nobody@Example.org", "organizer"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe("No account with the email address nobody@example.org.");
    const deleted = await makeUser(db(), "Deleted Cli");
    await db().user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    expect(await rejection(setSiteRoleByEmail(deleted.email, "admin"))).toBeInstanceOf(NotFoundError);
    const malformed = await rejection(setSiteRoleByEmail("not an email", "organizer"));
    expect((malformed as UserInputError).fields).toEqual({ email: "Enter a valid email address." });
    const user = await makeUser(db(), "Cli Bad Role");
    expect(await rejection(setSiteRoleByEmail(user.email, "root"))).toBeInstanceOf(UserInputError);
    expect(await roleOf(user.id)).toBe("USER");
    expect(await roleOf(deleted.id)).toBe("USER");
    expect(await db().auditEvent.count({ where: { action: "user.role_change", targetId: { in: [user.id, deleted.id] } } })).toBe(0);
  });
});

describe("listSiteAccounts", () => {
  it("is for site admins only", async () => {
    const user = await makeUser(db(), "Curious User");
    expect(await rejection(listSiteAccounts(null, { page: 1 }))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(listSiteAccounts(user.viewer, { page: 1 }))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(listSiteAccounts({ userId: user.id, role: "ORGANIZER" }, { page: 1 }))).toBeInstanceOf(ForbiddenError);
  });

  it("searches email and name (case-insensitive, wildcards literal), filters by role, pages by email, hides deleted accounts", async () => {
    const admin = await makeUser(db(), "Lister Admin", "ADMIN");
    const tag = `zq${Date.now().toString(36)}`;
    // 52 accounts whose email holds the tag, one of them an organizer of a task; one whose name holds it; one deleted.
    const made: { id: string }[] = [];
    for (let i = 0; i < 52; i++) made.push(await db().user.create({ data: { email: `${tag}-${String(i).padStart(2, "0")}@example.org`, name: `Member ${i}` } }));
    await db().user.update({ where: { id: made[3]!.id }, data: { role: "ORGANIZER" } });
    await makeTaskWithPhase(db(), { organizerIds: [made[3]!.id] });
    const byName = await db().user.create({ data: { email: `zzz-named-${tag.slice(2)}@example.net`, name: `Named ${tag.toUpperCase()}` } });
    await db().user.create({ data: { email: `${tag}-deleted@example.org`, name: "Deleted", deletedAt: new Date() } });

    const first = await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: tag.toUpperCase() }));
    expect(first).toMatchObject({ total: 53, page: 1, pages: 2, pageSize: ACCOUNTS_PAGE_SIZE });
    expect(first.accounts).toHaveLength(ACCOUNTS_PAGE_SIZE);
    expect(first.accounts[0]!.email).toBe(`${tag}-00@example.org`);
    expect(first.accounts.find((a) => a.id === made[3]!.id)).toMatchObject({ role: "ORGANIZER", tasksOrganized: 1, emailConfirmed: false, name: "Member 3" });
    const second = await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: tag, page: "2" }));
    expect(second.accounts.map((a) => a.email)).toEqual([`${tag}-50@example.org`, `${tag}-51@example.org`, byName.email]);
    // A page past the last shows the last.
    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: tag, page: "9" }))).page).toBe(2);

    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: tag, role: "organizer" }))).accounts.map((a) => a.id)).toEqual([made[3]!.id]);
    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: `${tag}-1%` }))).total).toBe(0);
    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: `${tag}-_1` }))).total).toBe(0);
    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: `${tag}-deleted` }))).total).toBe(0);
    const slashed = await db().user.create({ data: { email: `slash-${tag.slice(2)}@example.com`, name: "Slash\\Back" } });
    expect((await listSiteAccounts(admin.viewer, parseSiteAccountsQuery({ q: "h\\b" }))).accounts.map((a) => a.id)).toEqual([slashed.id]);

    const all = await listSiteAccounts(admin.viewer, { page: 1 });
    const active = await db().user.groupBy({ by: ["role"], where: { deletedAt: null }, _count: { _all: true } });
    expect(all.byRole).toEqual({ ADMIN: 0, ORGANIZER: 0, USER: 0, ...Object.fromEntries(active.map((r) => [r.role, r._count._all])) });
    expect(all.byRole.ORGANIZER).toBeGreaterThanOrEqual(1);
  });

  it("parseSiteAccountsQuery: empty values are no filter; bad ones are field errors", () => {
    expect(parseSiteAccountsQuery({ q: "  ", role: "", page: null })).toEqual({ q: undefined, role: undefined, page: 1 });
    expect(parseSiteAccountsQuery({ q: " ada ", role: "Admin", page: "3" })).toEqual({ q: "ada", role: "ADMIN", page: 3 });
    try {
      parseSiteAccountsQuery({ q: "x".repeat(201), role: "root", page: "0" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors.map((e) => e.path)).toEqual(["q", "role", "page"]);
    }
    expect(() => parseSiteAccountsQuery({ page: "two" })).toThrow(ValidationError);
  });
});
