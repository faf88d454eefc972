/** The gold key versions of a phase (metadata only, never content), per dataset, newest first. Organizer pages only. */
import type { GoldVersionMeta } from "@/lib/tasks";
import { Table, UtcTime, type TableColumn } from "@/app/_components/ui";

const COLUMNS: TableColumn[] = [
  "Version",
  "File",
  { label: "Docs", right: true },
  { label: "Tokens", right: true },
  { label: "Mentions", right: true },
  { label: "Entities", right: true },
  { label: "Singletons", right: true },
  "Uploaded",
  "Status",
];

/**
 * A table of gold key versions (in dataset order, newest first within a dataset): the
 * dataset (when the phase has several), file name, sha256 and size (bytes), statistics,
 * uploader and time, and whether the version is active.
 *
 * @param uploaders user names by id (for "uploaded by")
 * @param showDataset show the dataset column (a phase with several datasets)
 */
export function GoldVersionsTable({ versions, uploaders, showDataset = false }: { versions: GoldVersionMeta[]; uploaders: Map<string, string>; showDataset?: boolean }) {
  if (versions.length === 0) {
    return <p className="text-sm text-zinc-600">No gold key yet: submissions stay queued until one is uploaded.</p>;
  }
  const count = "py-2 pr-4 text-right tabular-nums";
  return (
    <Table label="Gold key versions" columns={showDataset ? ["Dataset", ...COLUMNS] : COLUMNS}>
      {versions.map((v) => (
        <tr key={v.id} data-testid="gold-version-row" className="align-top">
          {showDataset && (
            <td className="py-2 pr-4 font-medium" data-testid="gold-version-dataset">
              {v.dataset}
            </td>
          )}
          <td className="py-2 pr-4 font-medium">v{v.version}</td>
          <td className="py-2 pr-4">
            <div>{v.fileName}</div>
            <div className="font-mono text-[11px] break-all text-zinc-500" title="sha256 of the uncompressed file">
              sha256 {v.sha256}
            </div>
            <div className="text-xs text-zinc-500">{v.size} bytes</div>
          </td>
          <td className={count}>{v.stats.documents}</td>
          <td className={count}>{v.stats.tokens}</td>
          <td className={count}>{v.stats.mentions}</td>
          <td className={count}>{v.stats.entities}</td>
          <td className={count}>{v.stats.singletons}</td>
          <td className="py-2 pr-4 text-zinc-600">
            <div>{uploaders.get(v.uploadedById) ?? "a former user"}</div>
            <div className="text-xs">
              <UtcTime date={v.uploadedAt} />
            </div>
          </td>
          <td className="py-2">{v.active ? <span className="font-medium text-emerald-700">active</span> : <span className="text-zinc-500">replaced</span>}</td>
        </tr>
      ))}
    </Table>
  );
}
