import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { ValidationError } from "@/lib/errors";
import { describeAuditData, listTaskAuditEvents, parseAuditQuery, TASK_AUDIT_ACTIONS, type AuditPage, type AuditQueryInput } from "@/lib/audit";
import { Field, Notice, primaryButton, secondaryButton, SelectField, Table, UtcTime } from "@/app/_components/ui";
import { loadTaskForPage } from "../../load-task";

type Params = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Title: "Audit log of <task>" (organizers only reach the page; others get the 404 title). */
export async function generateMetadata({ params }: Pick<Params, "params">): Promise<Metadata> {
  const { task } = await loadTaskForPage((await params).slug);
  return { title: task.isOrganizer ? `Audit log of ${task.title}` : "Not found" };
}

/** The first value of a search parameter (null when absent). */
function first(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The page's URL with these query values (empty ones left out). */
function pageHref(slug: string, query: AuditQueryInput): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return `/tasks/${encodeURIComponent(slug)}/manage/audit${text ? `?${text}` : ""}`;
}

/**
 * A task's audit log (its organizers and site admins only; 404 for everyone else, as the
 * manage page): who did what and when, and what it changed, newest first, 50 per page, with
 * a filter form (action, actor id or email, UTC date range) and "Older" / "Newest" links.
 */
export default async function TaskAuditPage({ params, searchParams }: Params) {
  const { viewer, task } = await loadTaskForPage((await params).slug);
  if (!viewer || !task.isOrganizer) notFound();
  const sp = await searchParams;
  const query: AuditQueryInput = { action: first(sp.action), actor: first(sp.actor), from: first(sp.from), to: first(sp.to) };
  const before = first(sp.before);

  let page: AuditPage | null = null;
  let problem: string | null = null;
  try {
    page = await listTaskAuditEvents(viewer, task.slug, parseAuditQuery({ ...query, before }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problem = error.message;
  }

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="text-sm text-zinc-600">Who changed what in this task and when, newest first. Times are in UTC.</p>
      </header>

      <form method="get" role="search" aria-label="Filter the audit log" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        <SelectField label="Action" name="action" defaultValue={query.action ?? ""} options={[["", "All actions"], ...TASK_AUDIT_ACTIONS.map((a) => [a, a] as const)]} />
        <Field label="Who" name="actor" defaultValue={query.actor ?? ""} placeholder="email or user id" />
        <Field label="From (UTC)" name="from" type="date" defaultValue={query.from ?? ""} />
        <Field label="To (UTC, inclusive)" name="to" type="date" defaultValue={query.to ?? ""} />
        <div className="flex gap-2">
          <button type="submit" className={primaryButton}>
            Filter
          </button>
          <Link href={pageHref(task.slug, {})} className={secondaryButton}>
            Clear
          </Link>
        </div>
      </form>

      {problem && <Notice kind="error">{problem}</Notice>}

      {page && page.events.length === 0 && <p className="text-sm text-zinc-600">No events match.</p>}

      {page && page.events.length > 0 && (
        <Table caption="Audit events, newest first" testId="audit-table" columns={["When (UTC)", "Who", "Action", "Target", "What changed"]}>
          {page.events.map((event) => {
            const lines = describeAuditData(event.data);
            return (
              <tr key={event.id} data-testid="audit-row" className="align-top">
                <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
                  <UtcTime date={event.at} />
                </td>
                <td className="py-2 pr-4">
                  {event.actor ? (
                    <>
                      <span className="font-medium">{event.actor.name}</span>
                      <span className="block text-xs text-zinc-500">{event.actor.email}</span>
                    </>
                  ) : (
                    <span className="text-zinc-500">system</span>
                  )}
                </td>
                <td className="whitespace-nowrap py-2 pr-4 font-mono text-xs" data-testid="audit-action">
                  {event.action}
                </td>
                <td className="py-2 pr-4">
                  <span className="text-xs text-zinc-500">{event.target.type.replace("_", " ")}</span> {event.target.label ?? <span className="font-mono text-xs">{event.target.id}</span>}
                </td>
                <td className="min-w-64 py-2" data-testid="audit-changes">
                  {lines.length === 0 ? (
                    <span className="text-zinc-500">—</span>
                  ) : (
                    <ul className="space-y-0.5 break-words font-mono text-xs">
                      {lines.map((line, i) => (
                        <li key={i}>{line}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}

      {(before || page?.next) && (
        <nav aria-label="Audit log pages" className="flex gap-3">
          {before && (
            <Link href={pageHref(task.slug, query)} className={secondaryButton}>
              Newest
            </Link>
          )}
          {page?.next && (
            <Link href={pageHref(task.slug, { ...query, before: page.next })} className={secondaryButton} rel="next">
              Older
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
