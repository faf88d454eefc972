/**
 * The leaderboard's "Significance" section, by the stored significance's status
 * (`readBoardSignificance`, issue 12 §1): how the "≈" markers and the intervals were computed;
 * that they are being computed (no stale markers meanwhile); or why the board has none.
 * Server-safe.
 */
import Link from "@/app/_components/link";
import { metricHref } from "@/lib/hrefs";
import type { LeaderboardMetric } from "@/lib/validations/metrics";
import type { SignificanceView } from "@/lib/view-models/leaderboard-view";

/**
 * The section.
 *
 * @param view the board's significance view (`leaderboardView(…).significance`)
 * @param metric the ranking metric (its explanation page is linked)
 */
export function SignificanceSection({ view, metric }: { view: SignificanceView; metric: LeaderboardMetric }) {
  return (
    <section aria-labelledby="significance" className="space-y-1 text-sm text-zinc-700">
      <h2 id="significance" className="font-medium text-zinc-900">
        Significance
      </h2>
      {view.status === "pending" && (
        <p data-testid="significance-pending" role="status">
          Significance markers are being computed; reload in a minute.
        </p>
      )}
      {view.status === "none" && (
        <p data-testid="significance-note">
          {view.reason}
          {view.primarySettingHref && (
            <>
              {" "}
              <Link href={view.primarySettingHref} className="underline">
                Rank by the primary setting
              </Link>{" "}
              to see them.
            </>
          )}
        </p>
      )}
      {view.status === "ready" && (
        <p data-testid="significance-note">
          <span className="text-sky-800">≈</span> marks a run whose {view.metricLabel} F1 is not significantly different from the run listed directly
          above it (two-sided p ≥ {view.significance.level}; baselines count as reference points), by a paired bootstrap over documents (Koehn 2004;
          Berg-Kirkpatrick et al. 2012) with {view.significance.samples.toLocaleString("en")} samples and the fixed seed {view.significance.seed}. Click a
          marker to compare the two runs. {view.resampling && `${view.resampling} `}
          {view.intervals && "Intervals are 95 % percentile bootstrap intervals of the run's F1 over documents. "}
          <Link href={metricHref(metric)} className="underline">
            How {view.metricLabel} is computed
          </Link>
          .
        </p>
      )}
    </section>
  );
}
