/**
 * A run's F1 under every evaluation setting, per dataset (issue 24 §1): for each dataset of the
 * phase (and, on a phase with several, the macro-average), one row for the primary setting and
 * one per secondary variant the run was scored with (e.g. CRAC's partial match, exact match,
 * head match with singletons), the CoNLL F1 first, then the other metrics' F1
 * (`variantScoreTable` of `lib/view-models/submission-view.ts`). Percentages with 2 decimals
 * (the `%` is in the headers), the exact value in each number's `title`. A dataset the run left
 * out gets one row saying so. The table scrolls inside its own keyboard-reachable region.
 * Server-safe.
 */
import type { VariantScoreTable } from "@/lib/view-models/submission-view";
import { conllTitle } from "./board-numbers";
import { ScoreValue, Table, type TableColumn } from "./ui";

/** The name of a group's dataset, or of the macro-average row group. */
function groupName(dataset: string | null): string {
  return dataset ?? "Macro-average";
}

/**
 * The table. Rows of one dataset share its name, written on the first (screen readers get it
 * on each row).
 *
 * @param table from `variantScoreTable` (not null)
 */
export function RunVariantScoreTable({ table }: { table: VariantScoreTable }) {
  const columns: TableColumn[] = ["Dataset", "Setting", ...table.metrics.map((m) => ({ label: m.id === "conll" ? "CoNLL F1 (%)" : `${m.label} F1 (%)`, right: true }))];
  return (
    <Table label="The run's F1 under each evaluation setting" testId="run-variant-scores" columns={columns}>
      {table.groups.flatMap((g) => {
        const name = groupName(g.dataset);
        const heading = (first: boolean) => (
          <th scope="row" className="py-2 pr-4 text-left align-top font-medium">
            <span className={first ? undefined : "sr-only"}>{name}</span>
            {first && g.language && <span className="ml-1 text-xs font-normal text-zinc-600">({g.language})</span>}
          </th>
        );
        if (g.settings.length === 0) {
          return [
            <tr key={name} data-testid="run-variant-row" data-dataset={g.dataset ?? ""} data-missing={g.missing ? "true" : "false"}>
              {heading(true)}
              <td colSpan={1 + table.metrics.length} className={`py-2 ${g.missing ? "text-amber-800" : "text-zinc-600"}`}>
                {g.missing ? "missing — counts as 0" : "not scored yet"}
              </td>
            </tr>,
          ];
        }
        return g.settings.map((setting, i) => (
          <tr key={`${name}/${setting.id}`} data-testid="run-variant-row" data-dataset={g.dataset ?? ""} data-setting={setting.id}>
            {heading(i === 0)}
            <td className="py-2 pr-4">{setting.label}</td>
            {setting.f1.map((value, j) => (
              <td key={table.metrics[j]!.id} className={`py-2 text-right tabular-nums ${j < setting.f1.length - 1 ? "pr-4" : ""}`} data-metric={table.metrics[j]!.id}>
                {value === null ? (
                  <span className="text-zinc-600">—</span>
                ) : (
                  <ScoreValue value={value} title={table.metrics[j]!.id === "conll" ? conllTitle(value, setting.id === "" ? undefined : setting.label) : `${table.metrics[j]!.label} F1 = ${value}`} />
                )}
              </td>
            ))}
          </tr>
        ));
      })}
    </Table>
  );
}
