import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "../../_components/link";
import { ValidationError } from "@/lib/errors";
import { isSiteAdmin, type SignedInViewer } from "@/lib/permissions";
import {
  listSiteAccounts,
  parseSiteAccountsQuery,
  SITE_ROLE_DESCRIPTIONS,
  SITE_ROLE_LABELS,
  SITE_ROLE_NAMES,
  SITE_ROLES,
  type SiteAccountsPage,
  type SiteAccountsQueryInput,
} from "@/lib/accounts";
import { getViewer } from "@/lib/auth/session";
import { Field, Notice, primaryButton, secondaryButton, SelectField, Table, UtcTime } from "../../_components/ui";
import { RoleForm } from "./role-form";

type Params = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The signed-in site admin, or null for anyone else (who gets the 404). */
async function siteAdmin(): Promise<SignedInViewer | null> {
  const viewer = await getViewer();
  return isSiteAdmin(viewer) ? viewer : null;
}

/** Title: "Users" for site admins; others get the 404's title. */
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await siteAdmin()) ? "Users" : "Not found" };
}

/** The first value of a search parameter (null when absent). */
function first(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** This page's URL with these query values (empty ones left out). */
function pageHref(query: SiteAccountsQueryInput = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return `/admin/users${text ? `?${text}` : ""}`;
}

/** "1 administrator", "3 organizers", … */
function countOf(n: number, role: (typeof SITE_ROLES)[number]): string {
  const word = role === "ADMIN" ? "administrator" : SITE_ROLE_NAMES[role];
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const ROLE_OPTIONS = SITE_ROLES.map((r) => [SITE_ROLE_NAMES[r], SITE_ROLE_LABELS[r]] as const);

/**
 * The site's accounts, for site admins only (404 for everyone else, signed in or not): search by
 * email or name, filter by role, 50 per page by email address, and each account's role control
 * (grant or revoke the organizer role, make or unmake an admin). The services enforce the rules
 * again (lib/accounts/site-roles.ts): admins only, the last admin stays one, every change audited.
 */
export default async function AdminUsersPage({ searchParams }: Params) {
  const viewer = await siteAdmin();
  if (!viewer) notFound();
  const sp = await searchParams;
  const query: SiteAccountsQueryInput = { q: first(sp.q), role: first(sp.role) };

  let page: SiteAccountsPage | null = null;
  let problem: string | null = null;
  let fieldErrors: Record<string, string> = {};
  try {
    page = await listSiteAccounts(viewer, parseSiteAccountsQuery({ ...query, page: first(sp.page) }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problem = error.message;
    fieldErrors = Object.fromEntries(error.fieldErrors.map((e) => [e.path, e.message]));
  }

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="text-sm text-zinc-600">
          Every account of the site, by email address. A role applies from the account&apos;s next page view; each change is written
          to the audit log. The server&apos;s operator can do the same with <code>npm run admin -- grant</code>.
        </p>
        <ul className="list-disc space-y-0.5 pl-5 text-sm text-zinc-600">
          {SITE_ROLES.map((r) => (
            <li key={r}>
              <span className="font-medium text-zinc-800">{SITE_ROLE_LABELS[r]}</span>: {SITE_ROLE_DESCRIPTIONS[r]}.
            </li>
          ))}
        </ul>
        {page && (
          <p className="text-sm text-zinc-600" data-testid="role-counts">
            {SITE_ROLES.map((r) => countOf(page.byRole[r], r)).join(", ")}.
          </p>
        )}
      </header>

      <form method="get" role="search" aria-label="Search the accounts" className="grid gap-3 sm:grid-cols-3 sm:items-end">
        <Field label="Email or name" name="q" type="search" defaultValue={query.q ?? ""} error={fieldErrors.q} />
        <SelectField label="Role" name="role" defaultValue={query.role?.trim().toLowerCase() ?? ""} options={[["", "Any role"], ...ROLE_OPTIONS]} error={fieldErrors.role} />
        <div className="flex gap-2">
          <button type="submit" className={primaryButton}>
            Search
          </button>
          <Link href={pageHref()} className={secondaryButton}>
            Clear
          </Link>
        </div>
      </form>

      {problem && <Notice kind="error">{problem}</Notice>}

      {page && (
        <>
          <p className="text-sm text-zinc-600" aria-live="polite">
            {page.total} matching account{page.total === 1 ? "" : "s"}
            {page.total > 0 ? `, page ${page.page} of ${page.pages}` : ""}.
          </p>
          {page.accounts.length > 0 && (
            <Table caption={`Accounts by email address, page ${page.page} of ${page.pages}`} testId="accounts-table" columns={["Account", "Joined (UTC)", "Tasks organized", "Role"]}>
              {page.accounts.map((account) => (
                <tr key={account.id} data-testid="account-row" className="align-top">
                  <td className="py-2 pr-4">
                    <span className="font-medium">{account.name}</span>
                    {account.id === viewer.userId && <span className="ml-1 text-xs text-zinc-500">(you)</span>}
                    <span className="block break-all text-xs text-zinc-500">
                      {account.email}
                      {!account.emailConfirmed && " · not confirmed"}
                    </span>
                  </td>
                  <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
                    <UtcTime date={account.createdAt} />
                  </td>
                  <td className="py-2 pr-4 tabular-nums">{account.tasksOrganized}</td>
                  <td className="py-2">
                    <RoleForm key={`${account.id}-${account.role}`} userId={account.id} email={account.email} role={SITE_ROLE_NAMES[account.role]} options={ROLE_OPTIONS} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {page.pages > 1 && (
            <nav aria-label="Pages of accounts" className="flex gap-3">
              {page.page > 1 && (
                <Link href={pageHref({ ...query, page: String(page.page - 1) })} className={secondaryButton} rel="prev">
                  Previous
                </Link>
              )}
              {page.page < page.pages && (
                <Link href={pageHref({ ...query, page: String(page.page + 1) })} className={secondaryButton} rel="next">
                  Next
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </div>
  );
}
