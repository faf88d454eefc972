import { listDatasetsForOrganizers } from "@/lib/tasks";
import { listParticipantFiles, blindInputHref } from "@/lib/runs";
import type { Viewer } from "@/lib/auth/session";
import { BlindInputForm } from "./blind-input-form";
import { BlindUploadForm } from "./blind-upload-form";

/**
 * The participant files of one phase in the console's gold tab (issue 24 §3): per dataset, its
 * blind test input (derived from the active gold key, or uploaded by the organizers; download
 * link, size, sha256), the form that derives it and the one that uploads one. Participants
 * download them once the phase opens.
 *
 * @param maxBytes UPLOAD_MAX_BYTES, for the upload form's hint
 */
export async function BlindInputsCard({ phaseId, viewer, maxBytes }: { phaseId: string; viewer: Viewer; maxBytes: number }) {
  const [files, datasets] = await Promise.all([listParticipantFiles(viewer, phaseId), listDatasetsForOrganizers(viewer, phaseId)]);
  const gold = new Map(datasets.map((d) => [d.id, d.activeGold !== null]));
  return (
    <div className="mt-6" data-testid="blind-inputs">
      <h3 className="mb-1 text-sm font-semibold text-zinc-900">Blind test input</h3>
      <p className="mb-3 text-sm text-zinc-600">
        The gold key without its coreference, for participants to run their systems on; the phase&apos;s sample submission is made of these files. Derive it from the
        gold key, or upload a file of your own (a file holding coreference is refused). Participants can download them once the phase opens.
      </p>
      <ul className="space-y-4">
        {files.datasets.map(({ dataset, blind }) => (
          <li key={dataset.id} className="space-y-2">
            <p className="text-sm text-zinc-800">
              <span className="font-medium">{dataset.name}</span>:{" "}
              {blind ? (
                <>
                  <a className="underline" href={blindInputHref(phaseId, dataset.id)}>
                    {blind.fileName}
                  </a>{" "}
                  ({blind.source}, {blind.size} bytes, sha256 <code>{blind.sha256.slice(0, 12)}…</code>)
                </>
              ) : (
                "no blind input yet"
              )}
            </p>
            <BlindInputForm phaseId={phaseId} dataset={{ id: dataset.id, name: dataset.name, format: dataset.format }} hasGold={gold.get(dataset.id) ?? false} hasBlind={blind !== null} />
            <BlindUploadForm phaseId={phaseId} dataset={{ id: dataset.id, name: dataset.name, format: dataset.format, fileName: dataset.fileName }} maxBytes={maxBytes} />
          </li>
        ))}
      </ul>
    </div>
  );
}
