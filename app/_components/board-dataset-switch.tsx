/**
 * The dataset switch of a phase with several datasets (issue 10 §4): a link to the phase-level
 * board ("All datasets (macro-average)") and one per dataset, to that dataset's own board (track,
 * metric, setting and run selection kept); the current board is marked with `aria-current`.
 * Plain links: it works without JavaScript. Server-safe.
 */
import Link from "next/link";

/**
 * The switch.
 *
 * @param datasets the phase's datasets in order (`Leaderboard.datasets`)
 * @param current the name of the board's dataset, or null for the phase-level board
 * @param href the board's URL for a dataset name (null: the phase-level board)
 */
export function BoardDatasetSwitch({
  datasets,
  current,
  href,
}: {
  datasets: readonly { name: string; language: string }[];
  current: string | null;
  href: (dataset: string | null) => string;
}) {
  const choices: { key: string; name: string | null; label: string; title?: string }[] = [
    { key: "", name: null, label: "All datasets (macro-average)" },
    ...datasets.map((d) => ({ key: `d-${d.name}`, name: d.name, label: d.name, title: d.language ? `${d.name} (${d.language})` : undefined })),
  ];
  return (
    <nav aria-label="Dataset" className="space-y-1" data-testid="dataset-switch">
      <p className="text-sm font-medium text-zinc-800" id="dataset-switch-label">
        Dataset
      </p>
      <ul className="flex flex-wrap rounded-md border border-zinc-300 text-sm" aria-labelledby="dataset-switch-label">
        {choices.map((c) => (
          <li key={c.key}>
            <Link
              href={href(c.name)}
              title={c.title}
              aria-current={c.name === current ? "page" : undefined}
              className={`block px-3 py-1.5 ${c.name === current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
            >
              {c.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
