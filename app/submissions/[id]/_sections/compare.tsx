/** The submission page's chooser of another run to compare with. */
import type { CompareOption } from "@/lib/view-models/submission-view";
import { Card, secondaryButton } from "@/app/_components/ui";

/** "Compare with another run": a GET form to `/compare` with this run as `a` and the chosen one as `b`; nothing without options. */
export function CompareCard({ submissionId, options }: { submissionId: string; options: CompareOption[] }) {
  if (options.length === 0) return null;
  return (
    <Card title="Compare with another run" description="Per-metric differences with paired-bootstrap p-values, and per-document differences.">
      <form action="/compare" method="get" className="flex flex-wrap items-end gap-2" data-testid="compare-form">
        <input type="hidden" name="a" value={submissionId} />
        <div className="min-w-0 max-w-full flex-1 space-y-1">
          <label htmlFor="compare-b" className="block text-sm font-medium text-zinc-800">
            Other run
          </label>
          {/* w-full: a long option must not widen the page on a phone. */}
          <select id="compare-b" name="b" className="w-full max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm">
            {options.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton}>
          Compare
        </button>
      </form>
    </Card>
  );
}
