/**
 * A leaderboard switch: a row of links to the same board under another choice (a phase's
 * tracks, issue 10 §5; its datasets, §4), the current one marked with `aria-current`. Plain
 * links: it works without JavaScript. Server-safe.
 */
import Link from "./link";

/** One choice of a {@link BoardSwitch}. */
export interface BoardSwitchChoice {
  /** React key */
  key: string;
  label: string;
  /** hover text, e.g. a dataset's language */
  title?: string;
  href: string;
  /** the board shown now */
  current: boolean;
}

/**
 * The switch.
 *
 * @param label what is chosen, e.g. "Track" or "Dataset": the navigation's name and heading
 * @param testId the navigation's `data-testid`
 * @param choices the links in order
 */
export function BoardSwitch({ label, testId, choices }: { label: string; testId: string; choices: readonly BoardSwitchChoice[] }) {
  const labelId = `${testId}-label`;
  return (
    <nav aria-label={label} className="space-y-1" data-testid={testId}>
      <p className="text-sm font-medium text-zinc-800" id={labelId}>
        {label}
      </p>
      <ul className="flex flex-wrap rounded-md border border-zinc-300 text-sm" aria-labelledby={labelId}>
        {choices.map((c) => (
          <li key={c.key}>
            <Link
              href={c.href}
              title={c.title}
              aria-current={c.current ? "page" : undefined}
              className={`block px-3 py-1.5 ${c.current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
            >
              {c.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
