"use client";

import type { ChangeEvent } from "react";

/**
 * The "Rank by" select of the leaderboard's GET form. Without JavaScript the form's submit
 * button applies the choice; with JavaScript, choosing an option submits the form at once.
 *
 * @param metrics the options, `{value, label}`
 * @param value the metric the board is ranked by now
 */
export function BoardMetricSelect({ metrics, value }: { metrics: { value: string; label: string }[]; value: string }) {
  const submit = (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();
  return (
    <select
      id="board-metric"
      name="metric"
      defaultValue={value}
      onChange={submit}
      className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm shadow-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200"
    >
      {metrics.map((m) => (
        <option key={m.value} value={m.value}>
          {m.label}
        </option>
      ))}
    </select>
  );
}
