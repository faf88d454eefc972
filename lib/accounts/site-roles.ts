/**
 * Site roles (issue 24 §4, "Who can create tasks"): who may create tasks and who administers
 * the site, and the site admins' list of accounts.
 *
 * - The roles (`users.role`, enum UserRole): ADMIN manages the site (organizer of every task,
 *   grants roles); ORGANIZER may create tasks and organizes the tasks it created (or was added
 *   to), no others; USER is everyone else. The rules themselves are in `lib/permissions.ts`
 *   (`isSiteAdmin`, `canCreateTask`, `isTaskOrganizer`).
 * - A role is changed by a site admin at /admin/users ({@link setSiteRole}) or by an operator
 *   with `npm run admin -- grant --email E --role organizer|admin|user`
 *   ({@link setSiteRoleByEmail}); "user" revokes. Each change is written to the audit log as
 *   `user.role_change` (target the account; data `email`, `from`, `to`, `via` "web" or "cli";
 *   the operator's changes have no actor), in the same transaction. Setting the role an
 *   account already has changes nothing and records nothing.
 * - The site always keeps an admin: the last admin (not deleted) cannot be made an organizer
 *   or a user, by themself or by the CLI (ConflictError, 409). Role changes take a
 *   transaction-scoped lock (`lockKey`), so two admins demoting each other at once cannot
 *   both succeed and leave none; the acting admin's own role is read again under that lock.
 * - Sessions re-read the role on every request (`lib/auth/session.ts`), so a change applies from
 *   the account's next request on; nobody is signed out.
 * - Deleted accounts (`users.deleted_at`) are not listed and their role cannot be changed.
 */
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError, type FieldError } from "../errors";
import { UserRole } from "../generated/prisma/enums";
import { emailSchema, fieldErrors } from "./schemas";
import { isSiteAdmin, type Viewer } from "../permissions";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Db, type Tx } from "../db";
import { UserInputError } from "./users";

/** Every site role, from the most powerful down (the order the role controls offer them). */
export const SITE_ROLES = [UserRole.ADMIN, UserRole.ORGANIZER, UserRole.USER] as const;

// Fails to compile when a role is added to the enum but not to the list above.
type MissingSiteRole = Exclude<UserRole, (typeof SITE_ROLES)[number]>;
const allRolesListed: [MissingSiteRole] extends [never] ? true : MissingSiteRole = true;
void allRolesListed;

/** A role's name on the command line (`--role organizer`) and in messages. */
export const SITE_ROLE_NAMES: Readonly<Record<UserRole, string>> = { ADMIN: "admin", ORGANIZER: "organizer", USER: "user" };

/** A role as the pages show it. */
export const SITE_ROLE_LABELS: Readonly<Record<UserRole, string>> = { ADMIN: "Administrator", ORGANIZER: "Organizer", USER: "User" };

/** A role with its article, in sentences: "x is now an organizer". */
export const A_SITE_ROLE: Readonly<Record<UserRole, string>> = { ADMIN: "an administrator", ORGANIZER: "an organizer", USER: "a user" };

/** What each role may do, in a few words (the role controls' hint, the account page). */
export const SITE_ROLE_DESCRIPTIONS: Readonly<Record<UserRole, string>> = {
  ADMIN: "manages the site: organizer of every task, grants roles",
  ORGANIZER: "may create tasks, and organizes the tasks it creates",
  USER: "takes part in tasks; cannot create them",
};

const ROLE_CHOICE = "Choose a role: admin, organizer or user.";

/**
 * Reads a role from a form or the command line: a name of {@link SITE_ROLE_NAMES} or the enum
 * value, in any case, surrounding spaces ignored.
 *
 * @param value e.g. "organizer", "ORGANIZER", " Admin "
 * @returns the role
 * @throws UserInputError (422) on the field `role` ("Choose a role: admin, organizer or user.")
 *   for anything else
 */
export function parseSiteRole(value: unknown): UserRole {
  const text = typeof value === "string" ? value.trim().toUpperCase() : "";
  const role = SITE_ROLES.find((r) => r === text);
  if (!role) throw new UserInputError({ role: ROLE_CHOICE });
  return role;
}

/** The account a role change concerns, as the callers report it. */
export interface SiteRoleAccount {
  id: string;
  email: string;
  name: string;
}

/** The outcome of {@link setSiteRole} and {@link setSiteRoleByEmail}. */
export interface SiteRoleChange {
  user: SiteRoleAccount;
  /** the role before */
  from: UserRole;
  /** the role now */
  to: UserRole;
  /** false when the account had that role already (nothing written, nothing audited) */
  changed: boolean;
}

/** Who makes a change: a site admin on the web, or the operator's CLI (no actor). */
type ChangeSource = { via: "web"; actorId: string } | { via: "cli"; actorId: null };

/**
 * Changes one account's role under the site-roles lock, with the last-admin guard and the
 * audit event. The account is looked up (and must not be deleted) inside the transaction.
 */
async function changeRole(where: { id: string } | { email: string }, to: UserRole, source: ChangeSource, notFound: string): Promise<SiteRoleChange> {
  return defaultDb().$transaction(async (tx: Tx) => {
    await lockKey(tx, "site-roles");
    if (source.via === "web") {
      // The viewer's role came with the request; it may have been revoked since.
      const actor = await tx.user.findUnique({ where: { id: source.actorId }, select: { role: true, deletedAt: true } });
      if (!actor || actor.deletedAt || actor.role !== UserRole.ADMIN) throw new ForbiddenError("Only site admins can change an account's role.");
    }
    const row = await tx.user.findUnique({ where, select: { id: true, email: true, name: true, role: true, deletedAt: true } });
    if (!row || row.deletedAt) throw new NotFoundError(notFound);
    const user = { id: row.id, email: row.email, name: row.name };
    if (row.role === to) return { user, from: row.role, to, changed: false };
    if (row.role === UserRole.ADMIN) {
      const otherAdmins = await tx.user.count({ where: { role: UserRole.ADMIN, deletedAt: null, id: { not: row.id } } });
      if (otherAdmins === 0) {
        const who = source.actorId === row.id ? "You are" : `${row.email} is`;
        throw new ConflictError(`${who} the last site admin: make another account an admin first, so that the site keeps one.`);
      }
    }
    await tx.user.update({ where: { id: row.id }, data: { role: to } });
    await recordAudit(tx, {
      actorId: source.actorId,
      action: "user.role_change",
      targetType: "user",
      targetId: row.id,
      data: { email: row.email, from: row.role, to, via: source.via },
    });
    return { user, from: row.role, to, changed: true };
  });
}

/**
 * A site admin gives an account a role (the /admin/users page): grants or revokes the right to
 * create tasks, or makes or unmakes an admin. Audited as `user.role_change` with the admin as
 * actor. Nothing changes when the request is refused.
 *
 * @param actor the signed-in site admin (their role is read again under the lock)
 * @param userId the account's id
 * @param role "admin", "organizer" or "user" (see {@link parseSiteRole})
 * @returns the account, its role before and now, and whether it changed
 * @throws UnauthorizedError (401) when anonymous; ForbiddenError (403) for anyone but a site
 *   admin; UserInputError (422, field `role`) for an unknown role; NotFoundError (404, "No such
 *   account.") for an unknown, malformed or deleted account id; ConflictError (409) when the
 *   account is the last site admin and the role is not admin
 */
export async function setSiteRole(actor: Viewer, userId: string, role: unknown): Promise<SiteRoleChange> {
  if (!actor) throw new UnauthorizedError("Please sign in as a site admin.");
  if (!isSiteAdmin(actor)) throw new ForbiddenError("Only site admins can change an account's role.");
  const to = parseSiteRole(role);
  if (!isUuid(userId)) throw new NotFoundError("No such account.");
  return changeRole({ id: userId.toLowerCase() }, to, { via: "web", actorId: actor.userId }, "No such account.");
}

/**
 * The operator gives an account a role (`npm run admin -- grant`): the way to make the first
 * admin of an account made on the web, and to grant or revoke the organizer role without the
 * site. Audited as `user.role_change` without an actor (`via: "cli"`).
 *
 * @param email the account's address (normalized: trimmed, lower-cased)
 * @param role "admin", "organizer" or "user" (see {@link parseSiteRole})
 * @returns the account, its role before and now, and whether it changed
 * @throws UserInputError (422, field `role` or `email`) for an unknown role or a malformed
 *   address; NotFoundError (404, "No account with the email address a@b.org.") when no
 *   account (or only a deleted one) has it; ConflictError (409) when the account is the last
 *   site admin and the role is not admin
 */
export async function setSiteRoleByEmail(email: string, role: unknown): Promise<SiteRoleChange> {
  const to = parseSiteRole(role);
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw new UserInputError({ email: fieldErrors(parsed.error).form ?? "That is not an email address." });
  return changeRole({ email: parsed.data }, to, { via: "cli", actorId: null }, `No account with the email address ${parsed.data}.`);
}

/** Accounts per page of {@link listSiteAccounts}. */
export const ACCOUNTS_PAGE_SIZE = 50;
/** The highest page number a query may ask for. */
const MAX_PAGE = 100_000;
/** The longest search text. */
const MAX_SEARCH = 200;

/** The raw query values of the accounts list (the page's search parameters). */
export interface SiteAccountsQueryInput {
  /** a part of the email address or name */
  q?: string | null;
  /** a role name (see {@link parseSiteRole}) */
  role?: string | null;
  /** 1-based page number */
  page?: string | null;
}

/** Filters of {@link listSiteAccounts}, from {@link parseSiteAccountsQuery}. */
export interface SiteAccountFilters {
  /** a case-insensitive part of the email address or the name */
  q?: string;
  role?: UserRole;
  /** 1-based */
  page: number;
}

/**
 * Turns query values into {@link SiteAccountFilters}: empty values are no filter; `q` at most
 * 200 characters; `role` a role name; `page` a whole number from 1 (absent: 1).
 *
 * @throws ValidationError (422) with one field error per bad value (`q`, `role`, `page`)
 */
export function parseSiteAccountsQuery(input: SiteAccountsQueryInput): SiteAccountFilters {
  const errors: FieldError[] = [];
  const q = input.q?.trim() || undefined;
  if (q && q.length > MAX_SEARCH) errors.push({ path: "q", message: `Search for at most ${MAX_SEARCH} characters.` });
  let role: UserRole | undefined;
  if (input.role?.trim()) {
    try {
      role = parseSiteRole(input.role);
    } catch {
      errors.push({ path: "role", message: ROLE_CHOICE });
    }
  }
  const pageText = input.page?.trim() || undefined;
  const page = pageText === undefined ? 1 : /^\d{1,6}$/.test(pageText) ? Number(pageText) : 0;
  if (page < 1 || page > MAX_PAGE) errors.push({ path: "page", message: "The page must be a whole number from 1." });
  if (errors.length > 0) throw new ValidationError(errors.map((e) => e.message).join(" "), { fieldErrors: errors });
  return { q, role, page };
}

/** Escapes LIKE wildcards (and the escape character) so that the text matches literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One account as the admins' list shows it. */
export interface SiteAccountView {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  createdAt: Date;
  /** the owner confirmed the address (operators' accounts are confirmed when made) */
  emailConfirmed: boolean;
  /** how many tasks the account organizes (task_organizers rows; an admin's reach over every task is not counted) */
  tasksOrganized: number;
}

/** A page of {@link listSiteAccounts}. */
export interface SiteAccountsPage {
  accounts: SiteAccountView[];
  /** accounts matching the filters */
  total: number;
  /** the page shown (1-based; an asked page past the last shows the last) */
  page: number;
  /** pages of matching accounts (at least 1) */
  pages: number;
  pageSize: number;
  /** accounts per role on the whole site (not deleted), whatever the filters */
  byRole: Record<UserRole, number>;
}

/**
 * The site's accounts for its admins (/admin/users): not deleted, ordered by email address,
 * {@link ACCOUNTS_PAGE_SIZE} per page (offset paging over that unique order), filtered by a
 * case-insensitive part of the email address or name and by role.
 *
 * @param viewer who asks
 * @param filters from {@link parseSiteAccountsQuery}
 * @param db client (default: the shared client)
 * @returns the page's accounts, the matching total, the page and page count, and the site's
 *   accounts per role
 * @throws UnauthorizedError (401) when anonymous; ForbiddenError (403) for anyone but a site
 *   admin (the page answers them 404 before asking)
 */
export async function listSiteAccounts(viewer: Viewer, filters: SiteAccountFilters, db: Db = defaultDb()): Promise<SiteAccountsPage> {
  if (!viewer) throw new UnauthorizedError("Please sign in as a site admin.");
  if (!isSiteAdmin(viewer)) throw new ForbiddenError("Only site admins can list the accounts.");
  // Prisma's `contains` is a LIKE that leaves the text's wildcards active: escape them.
  const part = filters.q ? { contains: likeLiteral(filters.q), mode: "insensitive" as const } : null;
  const where = {
    deletedAt: null,
    ...(filters.role ? { role: filters.role } : {}),
    ...(part ? { OR: [{ email: part }, { name: part }] } : {}),
  };
  const total = await db.user.count({ where });
  const pages = Math.max(1, Math.ceil(total / ACCOUNTS_PAGE_SIZE));
  const page = Math.min(filters.page, pages);
  const rows = await db.user.findMany({
    where,
    orderBy: { email: "asc" },
    skip: (page - 1) * ACCOUNTS_PAGE_SIZE,
    take: ACCOUNTS_PAGE_SIZE,
    select: { id: true, email: true, name: true, role: true, createdAt: true, emailConfirmedAt: true, _count: { select: { organizing: true } } },
  });
  const counts = await db.user.groupBy({ by: ["role"], where: { deletedAt: null }, _count: { _all: true } });
  const byRole = Object.fromEntries(SITE_ROLES.map((r) => [r, counts.find((c) => c.role === r)?._count._all ?? 0])) as Record<UserRole, number>;
  return {
    accounts: rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      role: r.role,
      createdAt: r.createdAt,
      emailConfirmed: r.emailConfirmedAt !== null,
      tasksOrganized: r._count.organizing,
    })),
    total,
    page,
    pages,
    pageSize: ACCOUNTS_PAGE_SIZE,
    byRole,
  };
}
