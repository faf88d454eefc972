/**
 * The track switch of a phase with tracks (issue 10 §5): one link per track, to the same
 * board (metric, setting and run selection kept) for that track; the current track is marked
 * with `aria-current`. Plain links: it works without JavaScript. Server-safe.
 */
import Link from "next/link";

/**
 * The switch.
 *
 * @param tracks the phase's tracks in order (`Leaderboard.tracks`)
 * @param current the id of the board's track
 * @param href the board's URL for a track id
 */
export function BoardTrackSwitch({
  tracks,
  current,
  href,
}: {
  tracks: readonly { id: string; name: string }[];
  current: string;
  href: (trackId: string) => string;
}) {
  return (
    <nav aria-label="Track" className="space-y-1" data-testid="track-switch">
      <p className="text-sm font-medium text-zinc-800" id="track-switch-label">
        Track
      </p>
      <ul className="flex flex-wrap rounded-md border border-zinc-300 text-sm" aria-labelledby="track-switch-label">
        {tracks.map((t) => (
          <li key={t.id}>
            <Link
              href={href(t.id)}
              aria-current={t.id === current ? "page" : undefined}
              className={`block px-3 py-1.5 ${t.id === current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
            >
              {t.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
