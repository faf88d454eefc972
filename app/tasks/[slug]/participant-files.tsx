import { isDomainError } from "@/lib/errors";
import { blindInputHref, sampleSubmissionHref, scorerDownloadHref, listParticipantFiles } from "@/lib/runs";
import { loadScorerBundle } from "@/lib/scorer/bundle";
import type { TaskEvaluationView } from "@/lib/tasks";
import type { Viewer } from "@/lib/permissions";
import { formatUtc } from "@/lib/validations/time";
import { scorerCommand } from "@/lib/view-models/scorer-command";

/**
 * A phase's participant files (issue 24 §3) as links: each dataset's blind test input and the
 * sample submission, once the phase has opened (before, when they will be available). Renders
 * nothing when the phase has no blind input yet (or the viewer may not see the task).
 */
export async function ParticipantFileLinks({ phaseId, phaseName, viewer }: { phaseId: string; phaseName: string; viewer: Viewer }) {
  let files;
  try {
    files = await listParticipantFiles(viewer, phaseId);
  } catch (error) {
    if (isDomainError(error)) return null;
    throw error;
  }
  const ready = files.datasets.filter((d) => d.blind !== null);
  if (ready.length === 0) return null;
  if (!files.available) {
    return <p className="text-sm text-zinc-700">The {phaseName} phase&apos;s test input can be downloaded once the phase opens ({formatUtc(files.opensAt)}).</p>;
  }
  return (
    <div className="space-y-1 text-sm text-zinc-800" data-testid="participant-files">
      <p>
        <span className="font-medium">{phaseName}</span>: blind test input{" "}
        {ready.map(({ dataset, blind }, i) => (
          <span key={dataset.id}>
            {i > 0 && ", "}
            <a className="underline" href={blindInputHref(phaseId, dataset.id)} download>
              {blind!.fileName}
            </a>
          </span>
        ))}
        {files.sampleReady && (
          <>
            {" · "}
            <a className="underline" href={sampleSubmissionHref(phaseId)} download>
              sample submission ({files.sampleFileName})
            </a>
          </>
        )}
      </p>
    </div>
  );
}

/**
 * The site's scorer to run locally (issue 24 §3 B): the download, its sha256 and the command
 * for the task's evaluation profile. KEY is the participant's own development key (the site
 * shares none), RUN their system's output for it.
 */
export async function LocalScoring({ evaluation, corefud }: { evaluation: Pick<TaskEvaluationView, "mentionMatching" | "zeroMatching" | "keepSingletons">; corefud: boolean }) {
  let sha256: string | null = null;
  try {
    sha256 = (await loadScorerBundle()).sha256;
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
  if (sha256 === null) return null;
  const command = scorerCommand({ match: evaluation.mentionMatching, zeroMatch: evaluation.zeroMatching, removeSingletons: !evaluation.keepSingletons, removeZeros: false }, corefud);
  return (
    <div className="space-y-2 text-sm text-zinc-800" data-testid="local-scoring">
      <p>
        Score on your own machine with the site&apos;s exact scorer (Node 20 or later, nothing to install):{" "}
        <a className="font-medium underline" href={scorerDownloadHref()} download>
          {command.fileName}
        </a>
        , sha256 <code className="break-all">{sha256}</code>.
      </p>
      <pre className="overflow-x-auto rounded-md bg-zinc-100 px-3 py-2 text-xs">
        <code>{command.command}</code>
      </pre>
      <p className="text-xs text-zinc-600">KEY: a gold-annotated file of your own (e.g. your development data); RUN: your system&apos;s output for it.</p>
    </div>
  );
}
