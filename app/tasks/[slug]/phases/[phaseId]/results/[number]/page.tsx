/**
 * The permalink of a phase's final results snapshot (issue 11 §2): the ranking as published
 * (one table per track; each board's disqualified runs in a table of their own under a
 * "Disqualified" heading below the ranking, issue 24 §2), the date, the organizers' note, what
 * changed since the previous snapshot, the gold versions and the scorer version, the CSV and JSON
 * downloads with their sha256 in full, and the LaTeX and Markdown tables for papers (generated
 * from the JSON, whose sha256 they cite). Everything comes from the stored snapshot
 * (`getSnapshot`), which never changes.
 * Who may read it is the service's rule (the phase's leaderboard audience; drafts: organizers).
 */
import { AccessDenied } from "@/app/_components/access-denied";
import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/errors";
import { getSnapshot, type SnapshotBoard, type SnapshotView } from "@/lib/boards";
import { getViewer } from "@/lib/auth/session";
import { BoardTable, rankingPhrase } from "@/app/_components/board-table";
import { LocalTime } from "@/app/_components/local-time";
import { TaskMarkdown } from "@/app/_components/task-markdown";
import { Breadcrumbs, Notice, UtcTime } from "@/app/_components/ui";
import { loadTaskForPage } from "@/app/tasks/[slug]/load-task";

type Params = Promise<{ slug: string; phaseId: string; number: string }>;

/** Title: "Final results #<n> · <phase> phase · <task>" ("Not found" for a phase that is not the task's). */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, phaseId, number } = await params;
  const { task } = await loadTaskForPage(slug);
  const phase = task.phases.find((p) => p.id === phaseId.toLowerCase());
  return { title: phase ? `Final results #${number} · ${phase.name} phase · ${task.title}` : "Not found" };
}

/** How each team's run on the board was chosen, by the phase's selection rule. */
const SELECTION_TEXT: Record<string, string> = {
  BEST: "Each team is represented by its best run.",
  LATEST: "Each team is represented by its most recent run.",
  TEAM_SELECTED: "Each team is represented by the best of the runs it marked as final (its latest run when it marked none).",
};

/** "1.2 kB" / "830 bytes". */
function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * A snapshot's permalink page; 404 for unknown phases and numbers (or a task whose slug is not
 * this phase's), a notice for viewers outside the board's audience.
 */
export default async function SnapshotPage({ params }: { params: Params }) {
  const { slug, phaseId, number } = await params;
  let view: SnapshotView;
  try {
    view = await getSnapshot(await getViewer(), phaseId, number);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
      const here = `/tasks/${encodeURIComponent(slug)}/phases/${encodeURIComponent(phaseId)}/results/${encodeURIComponent(number)}`;
      return <AccessDenied title="Final results" testId="results-denied" message={error.message} signIn={error instanceof UnauthorizedError ? here : null} />;
    }
    throw error;
  }
  if (view.task.slug !== slug) notFound();

  return (
    <div className="space-y-8">
      <SnapshotHeader view={view} />
      {view.note && <SnapshotNote note={view.note} />}
      <SnapshotRanking boards={view.boards} />
      <SnapshotChanges view={view} />
      <SnapshotProvenance view={view} />
      <SnapshotDownloads view={view} />
    </div>
  );
}

/** Breadcrumbs, the title with the snapshot's number, when it was published, and a link to a newer snapshot when there is one. */
function SnapshotHeader({ view }: { view: SnapshotView }) {
  const taskHref = `/tasks/${encodeURIComponent(view.task.slug)}`;
  const published = view.createdAt.toISOString();
  return (
    <header className="space-y-2">
      <Breadcrumbs
        links={[
          { href: taskHref, label: view.task.title },
          { href: view.resultsHref, label: `All final results of the ${view.phase.name} phase` },
        ]}
      />
      <h1 className="text-2xl font-semibold tracking-tight">
        Final results: {view.phase.name} phase <span className="font-normal text-zinc-500">(snapshot #{view.number})</span>
      </h1>
      <p className="text-sm text-zinc-700" data-testid="snapshot-date">
        Published <UtcTime date={view.createdAt} /> (your time: <LocalTime iso={published} />). A published snapshot never changes; a correction is published
        as a new snapshot.
      </p>
      {view.latestNumber > view.number && (
        <Notice kind="info">
          A newer snapshot of these results exists:{" "}
          <Link href={`${view.resultsHref}/${view.latestNumber}`} className="font-medium underline" data-testid="newer-snapshot">
            snapshot #{view.latestNumber}
          </Link>
          .
        </Notice>
      )}
    </header>
  );
}

/** The organizers' note (Markdown). */
function SnapshotNote({ note }: { note: string }) {
  return (
    <section aria-labelledby="snapshot-note" className="space-y-2">
      <h2 id="snapshot-note" className="text-lg font-semibold">
        Note from the organizers
      </h2>
      <div data-testid="snapshot-note">
        <TaskMarkdown source={note} idPrefix="note-" />
      </div>
    </section>
  );
}

/** The ranking: one board per track (one for a phase without tracks). */
function SnapshotRanking({ boards }: { boards: SnapshotBoard[] }) {
  return (
    <section aria-labelledby="snapshot-ranking" className="space-y-4">
      <h2 id="snapshot-ranking" className="text-lg font-semibold">
        Ranking
      </h2>
      {boards.map((board) => (
        <SnapshotBoardSection key={board.track?.id ?? "board"} board={board} />
      ))}
    </section>
  );
}

/** What changed since the previous snapshot (or "Changes" for the first). */
function SnapshotChanges({ view }: { view: SnapshotView }) {
  return (
    <section aria-labelledby="snapshot-changes" className="space-y-2">
      <h2 id="snapshot-changes" className="text-lg font-semibold">
        {view.number === 1 ? "Changes" : `Changes since snapshot #${view.number - 1}`}
      </h2>
      <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-800" data-testid="snapshot-changes-list">
        {view.changes.map((change, i) => (
          <li key={i}>{change.text}</li>
        ))}
      </ul>
    </section>
  );
}

/** The gold key versions (file name and sha256 for organizers only) and the scorer version. */
function SnapshotProvenance({ view }: { view: SnapshotView }) {
  return (
    <section aria-labelledby="snapshot-provenance" className="space-y-2">
      <h2 id="snapshot-provenance" className="text-lg font-semibold">
        Gold keys and scorer
      </h2>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-medium text-zinc-800">Gold {view.gold.length === 1 ? "key" : "keys"}</dt>
        <dd>
          <ul className="space-y-1" data-testid="snapshot-gold">
            {view.gold.map((g) => (
              <li key={g.dataset}>
                {g.dataset}: version {g.version}
                {g.sha256 && (
                  <span className="block text-xs text-zinc-600">
                    (organizers only) {g.fileName}, sha256 <code className="break-all font-mono select-all">{g.sha256}</code>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </dd>
        <dt className="font-medium text-zinc-800">Scorer version</dt>
        <dd>
          <code className="font-mono" data-testid="snapshot-scorer-version">
            {view.scorerVersion}
          </code>
        </dd>
      </dl>
    </section>
  );
}

/** The CSV and JSON downloads with their sha256, and the LaTeX and Markdown tables generated from the JSON. */
function SnapshotDownloads({ view }: { view: SnapshotView }) {
  return (
    <section aria-labelledby="snapshot-downloads" className="space-y-3">
      <h2 id="snapshot-downloads" className="text-lg font-semibold">
        Downloads
      </h2>
      <p className="text-sm text-zinc-700">
        The files are exactly as published. Check a download with <code className="font-mono">sha256sum</code> (or{" "}
        <code className="font-mono">shasum -a 256</code>): it must print the checksum shown here.
      </p>
      <ul className="space-y-3 text-sm">
        <Download label="CSV" href={view.links.csv} bytes={view.csvBytes} sha256={view.csvSha256} testId="csv" />
        <Download label="JSON" href={view.links.json} bytes={view.jsonBytes} sha256={view.jsonSha256} testId="json" />
      </ul>
      <p className="text-sm text-zinc-700" data-testid="snapshot-tables">
        Tables for papers, generated from the JSON above (each cites its sha256):{" "}
        <a href={view.links.latex} download className="font-medium underline" data-testid="download-latex">
          LaTeX
        </a>{" "}
        (a <code className="font-mono">tabular</code> with booktabs rules) and{" "}
        <a href={view.links.markdown} download className="font-medium underline" data-testid="download-markdown">
          Markdown
        </a>
        .
      </p>
    </section>
  );
}

/**
 * One board of the snapshot: its track's heading, how it is ranked, the table, and its
 * disqualified runs in a table of their own under a "Disqualified" heading.
 */
function SnapshotBoardSection({ board }: { board: SnapshotBoard }) {
  const variants = board.evaluation.variants;
  const trackName = board.track?.name ?? null;
  const Heading = board.track ? "h4" : "h3";
  return (
    <div className="space-y-2" data-testid="snapshot-board">
      {board.track && <h3 className="text-base font-semibold">{board.track.name} track</h3>}
      <p className="text-sm text-zinc-700">
        Ranked by {rankingPhrase(board.metric, variants.length === 0 ? null : "primary")}. {SELECTION_TEXT[board.selectionRule] ?? ""} Baselines are listed for
        reference and take no rank; disqualified runs take no rank and are listed apart, below the ranking, struck through, with the organizers&apos; reason.{" "}
        {board.tiePolicy}
      </p>
      {board.rows.length === 0 ? (
        <p className="text-sm text-zinc-600">No run was ranked{board.track ? ` in the ${board.track.name} track` : ""}.</p>
      ) : (
        <BoardTable rows={board.rows} metric={board.metric} showRp={false} variants={variants} trackName={trackName} datasets={board.datasets} />
      )}
      {board.disqualified.length > 0 && (
        <div className="space-y-2 pt-2" data-testid="snapshot-disqualified">
          <Heading className="text-sm font-semibold text-zinc-800">Disqualified</Heading>
          <BoardTable rows={board.disqualified} metric={board.metric} showRp={false} variants={variants} trackName={trackName} datasets={board.datasets} />
        </div>
      )}
    </div>
  );
}

/** A download link with its size and its sha256 in full (monospace, selectable). */
function Download({ label, href, bytes, sha256, testId }: { label: string; href: string; bytes: number; sha256: string; testId: string }) {
  return (
    <li className="space-y-1">
      <a href={href} download className="font-medium underline" data-testid={`download-${testId}`}>
        Download the {label} ({size(bytes)})
      </a>
      <p className="text-zinc-700">
        SHA-256:{" "}
        <code className="break-all rounded bg-zinc-100 px-1 font-mono text-xs select-all" data-testid={`${testId}-sha256`}>
          {sha256}
        </code>
      </p>
    </li>
  );
}

