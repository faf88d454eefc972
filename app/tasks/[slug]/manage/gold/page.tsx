import type { Metadata } from "next";
import { listDatasetsForOrganizers, goldUploadImpact, listGoldVersions } from "@/lib/tasks";
import type { PhaseView } from "@/lib/tasks";
import { uploadLimitBytes } from "@/lib/uploads";
import { getUserById } from "@/lib/accounts";
import type { Viewer } from "@/lib/auth/session";
import { Card } from "@/app/_components/ui";
import { GoldUploadForm } from "../gold-upload-form";
import { GoldVersionsTable } from "../gold-versions-table";
import { BlindInputsCard } from "./blind-inputs-card";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";

/** Title: "Gold · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Gold");
}

/** Names of the users who uploaded gold keys, by id. */
async function uploaderNames(ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(ids)) {
    const user = await getUserById(id);
    if (user) names.set(id, user.name);
  }
  return names;
}

/** One phase's gold keys: the upload form and the versions. */
async function PhaseGold({ phase, viewer, maxBytes, needsHeads }: { phase: PhaseView; viewer: Viewer; maxBytes: number; needsHeads: boolean }) {
  const [versions, datasets, impact] = await Promise.all([listGoldVersions(viewer, phase.id), listDatasetsForOrganizers(viewer, phase.id), goldUploadImpact(viewer, phase.id)]);
  const several = datasets.length > 1;
  const uploaders = await uploaderNames(versions.map((v) => v.uploadedById));
  return (
    <section aria-label={`Gold of phase ${phase.name}`} data-testid="manage-phase-gold">
      <Card
        title={`Phase ${phase.name}: ${several ? "gold keys" : "gold key"}`}
        description={
          several
            ? `Upload one dataset's gold key, or an archive with a file per dataset. A new version becomes its dataset's active key and re-queues every run of this phase (${impact.runs} now); only the datasets whose gold key changed are scored again.`
            : `Uploading a new version makes it the active key and re-queues every run of this phase (${impact.runs} now) for scoring.`
        }
      >
        <GoldUploadForm
          phaseId={phase.id}
          maxBytes={maxBytes}
          needsHeads={needsHeads}
          datasets={datasets.map((d) => ({ id: d.id, name: d.name, fileName: d.fileName }))}
          impact={{ runs: impact.runs, hasActiveGold: impact.hasActiveGold }}
        />
        <div className="mt-6">
          <h3 className="mb-2 text-sm font-semibold text-zinc-900">Versions</h3>
          <GoldVersionsTable versions={versions} uploaders={uploaders} showDataset={several} />
        </div>
        <BlindInputsCard phaseId={phase.id} viewer={viewer} maxBytes={maxBytes} />
      </Card>
    </section>
  );
}

/** The console's gold tab: per phase, the gold key upload and its versions. */
export default async function ManageGoldPage({ params }: ManageParams) {
  const { viewer, task } = await loadManagedTask(params);
  const maxBytes = uploadLimitBytes();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Gold keys</h1>
      {task.phases.map((phase) => (
        <PhaseGold key={phase.id} phase={phase} viewer={viewer} maxBytes={maxBytes} needsHeads={task.evaluation.needsHeads} />
      ))}
    </div>
  );
}
