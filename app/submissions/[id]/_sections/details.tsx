/** The submission page's "Details" card: what the run is, who sent it, and what scored it. */
import Link from "@/app/_components/link";
import type { SubmissionView } from "@/lib/runs";
import type { SubmissionPageView } from "@/lib/view-models/submission-view";
import { Instant } from "@/app/_components/phase-window";
import { Card } from "@/app/_components/ui";

/** The details as a definition list: the run's identity and metadata, then its scoring's provenance. */
export function DetailsCard({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <Card title="Details">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] [&>dd]:min-w-0 [&>dd]:break-words">
        <RunIdentityRows s={s} view={view} />
        <RunMetadataRows s={s} view={view} />
        <RunProvenanceRows s={s} view={view} />
      </dl>
    </Card>
  );
}

/** Task, phase, track, team, submitter and system. */
function RunIdentityRows({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <>
      <dt className="text-zinc-600">Task</dt>
      <dd>
        <Link href={view.hrefs.task} className="underline">
          {s.task.title}
        </Link>
      </dd>
      <dt className="text-zinc-600">Phase</dt>
      <dd>{s.phase.name}</dd>
      {s.track && (
        <>
          <dt className="text-zinc-600">Track</dt>
          <dd data-testid="run-track">
            <Link href={view.hrefs.trackBoard} className="underline">
              {s.track.name}
            </Link>
          </dd>
        </>
      )}
      <dt className="text-zinc-600">Team</dt>
      <dd>{s.team.name}</dd>
      {s.submitter && (
        <>
          <dt className="text-zinc-600">Submitted by</dt>
          <dd>{s.submitter.name}</dd>
        </>
      )}
      <dt className="text-zinc-600">System</dt>
      <dd>{s.systemName}</dd>
    </>
  );
}

/** Description, paper and code links, submission time (in the phase's zone) and the uploaded file. */
function RunMetadataRows({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <>
      <dt className="text-zinc-600">Description</dt>
      <dd className="whitespace-pre-wrap">{s.description || <span className="text-zinc-600">none</span>}</dd>
      <dt className="text-zinc-600">Paper</dt>
      <dd>{s.paperUrl ? <ExternalLink href={s.paperUrl} /> : <span className="text-zinc-600">none</span>}</dd>
      <dt className="text-zinc-600">Code</dt>
      <dd>{s.codeUrl ? <ExternalLink href={s.codeUrl} /> : <span className="text-zinc-600">none</span>}</dd>
      <dt className="text-zinc-600">Submitted</dt>
      <dd>
        <Instant date={s.submittedAt} zone={s.phase.displayTimeZone} testId="submitted-at" />
      </dd>
      {s.file && (
        <>
          <dt className="text-zinc-600">File</dt>
          <dd>
            <span className="break-all font-mono text-xs">{s.file.name}</span>{" "}
            <span className="text-zinc-600">
              ({view.fileSizeText}, sha256 <span className="font-mono text-xs" title={s.file.sha256}>{view.fileShaPrefix}…</span>)
            </span>
          </dd>
        </>
      )}
    </>
  );
}

/** Gold version, scorer version, evaluation profile (and its variants) and scoring attempts. */
function RunProvenanceRows({ s, view }: { s: SubmissionView; view: SubmissionPageView }) {
  return (
    <>
      <dt className="text-zinc-600">Gold version</dt>
      <dd data-testid="gold-version">
        {view.goldVersionDetail ?? <span className="text-zinc-600">not scored yet</span>}
      </dd>
      <dt className="text-zinc-600">Scorer version</dt>
      <dd data-testid="scorer-version">{s.scorerVersion ?? <span className="text-zinc-600">not scored yet</span>}</dd>
      <dt className="text-zinc-600">Evaluation</dt>
      <dd data-testid="evaluation-profile">
        {s.evaluation ? (
          <>
            {s.evaluation.label}
            {view.alsoScoredText && <span className="text-zinc-600"> (also scored: {view.alsoScoredText})</span>}
          </>
        ) : (
          <span className="text-zinc-600">not scored yet</span>
        )}
      </dd>
      {s.attempts !== undefined && (
        <>
          <dt className="text-zinc-600">Scoring attempts</dt>
          <dd>{s.attempts}</dd>
        </>
      )}
    </>
  );
}

/** A link to an outside page, opened safely in a new tab. */
function ExternalLink({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="break-all underline">
      {href}
    </a>
  );
}
