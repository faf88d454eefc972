/** The gold key versions of a phase (metadata only, never content), newest first. */
import type { GoldKeyMeta } from "../../../../lib/services/gold";
import { UtcTime } from "../../../_components/ui";

/**
 * A table of gold key versions.
 *
 * @param uploaders user names by id (for "uploaded by")
 */
export function GoldVersionsTable({ versions, uploaders }: { versions: GoldKeyMeta[]; uploaders: Map<string, string> }) {
  if (versions.length === 0) {
    return <p className="text-sm text-zinc-600">No gold key yet: submissions stay queued until one is uploaded.</p>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label="Gold key versions">
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Version</th>
            <th className="py-2 pr-3 font-medium">File</th>
            <th className="py-2 pr-3 text-right font-medium">Docs</th>
            <th className="py-2 pr-3 text-right font-medium">Tokens</th>
            <th className="py-2 pr-3 text-right font-medium">Mentions</th>
            <th className="py-2 pr-3 text-right font-medium">Entities</th>
            <th className="py-2 pr-3 text-right font-medium">Singletons</th>
            <th className="py-2 pr-3 font-medium">Uploaded</th>
            <th className="py-2 font-medium">Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {versions.map((v) => (
            <tr key={v.id} data-testid="gold-version-row" className="align-top">
              <td className="py-2 pr-3 font-medium">v{v.version}</td>
              <td className="py-2 pr-3">
                <div>{v.fileName}</div>
                <div className="font-mono text-[11px] break-all text-zinc-500" title="sha256 of the uncompressed file">
                  sha256 {v.sha256}
                </div>
                <div className="text-xs text-zinc-500">{v.size} bytes</div>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{v.stats.documents}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{v.stats.tokens}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{v.stats.mentions}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{v.stats.entities}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{v.stats.singletons}</td>
              <td className="py-2 pr-3 text-zinc-600">
                <div>{uploaders.get(v.uploadedById) ?? "a former user"}</div>
                <div className="text-xs">
                  <UtcTime date={v.uploadedAt} />
                </div>
              </td>
              <td className="py-2">{v.active ? <span className="font-medium text-emerald-700">active</span> : <span className="text-zinc-500">replaced</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
