/**
 * A phase's final results (issue 11 §2): a link to the newest snapshot, then every snapshot,
 * newest first, with its date, what changed and the start of its note. Who may read them is the
 * service's rule (`listSnapshots`: the phase's leaderboard audience; drafts: organizers).
 */
import { AccessDenied } from "@/app/_components/access-denied";
import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/errors";
import { listSnapshots, type SnapshotList } from "@/lib/boards";
import { getViewer } from "@/lib/auth/session";
import { Breadcrumbs, Table, UtcTime } from "@/app/_components/ui";
import { loadTaskForPage } from "@/app/tasks/[slug]/load-task";

type Params = Promise<{ slug: string; phaseId: string }>;

/** Title: "Final results · <phase> phase · <task>" ("Not found" for a phase that is not the task's). */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, phaseId } = await params;
  const { task } = await loadTaskForPage(slug);
  const phase = task.phases.find((p) => p.id === phaseId.toLowerCase());
  return { title: phase ? `Final results · ${phase.name} phase · ${task.title}` : "Not found" };
}

/** The first line of a note, cut at 120 characters ("" for none). */
function noteStart(note: string): string {
  const line = note.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** The phase's snapshots; 404 for unknown phases, a notice for viewers outside the board's audience. */
export default async function PhaseResultsPage({ params }: { params: Params }) {
  const { slug, phaseId } = await params;
  let list: SnapshotList;
  try {
    list = await listSnapshots(await getViewer(), phaseId);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
      const here = `/tasks/${encodeURIComponent(slug)}/phases/${encodeURIComponent(phaseId)}/results`;
      return <AccessDenied title="Final results" testId="results-denied" message={error.message} signIn={error instanceof UnauthorizedError ? here : null} />;
    }
    throw error;
  }
  if (list.task.slug !== slug) notFound();
  const taskHref = `/tasks/${encodeURIComponent(list.task.slug)}`;
  const [latest] = list.snapshots;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <Breadcrumbs
          links={[
            { href: taskHref, label: list.task.title },
            { href: `${taskHref}/phases/${encodeURIComponent(list.phase.id)}/leaderboard`, label: "Live leaderboard" },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight">Final results: {list.phase.name} phase</h1>
        <p className="text-sm text-zinc-700">
          The organizers publish the final results as snapshots that never change. A correction (a new gold key, a re-scored run) is published as a new
          snapshot, which says what changed.
        </p>
      </header>

      {!latest ? (
        <p className="text-sm text-zinc-600" data-testid="no-snapshots">
          No final results have been published for this phase yet.
        </p>
      ) : (
        <>
          <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm shadow-sm" data-testid="latest-snapshot">
            Latest:{" "}
            <Link href={latest.links.page} className="font-medium underline">
              snapshot #{latest.number}
            </Link>
            , published <UtcTime date={latest.createdAt} />.
          </p>
          <section aria-labelledby="all-snapshots" className="space-y-2">
            <h2 id="all-snapshots" className="text-lg font-semibold">
              All snapshots
            </h2>
            <Table columns={["Snapshot", "Published", "Changes", "Note"]} caption="Final results snapshots, newest first" testId="snapshot-list">
              {list.snapshots.map((s) => (
                <tr key={s.number} data-testid="snapshot-row">
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <Link href={s.links.page} className="font-medium underline">
                      #{s.number}
                    </Link>
                  </td>
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <UtcTime date={s.createdAt} />
                  </td>
                  <td className="min-w-[14rem] py-2 pr-4 text-zinc-700">
                    {s.changes[0]?.text ?? ""}
                    {s.changes.length > 1 && ` (and ${s.changes.length - 1} more)`}
                  </td>
                  <td className="min-w-[10rem] py-2 text-zinc-700">{noteStart(s.note)}</td>
                </tr>
              ))}
            </Table>
          </section>
        </>
      )}
    </div>
  );
}
