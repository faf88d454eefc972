"use client";

import type { ChangeEvent } from "react";

/**
 * A select of the leaderboard's GET forms ("Rank by" metric, the evaluation setting of tasks
 * with variants, the dataset ranking or shown). Without JavaScript the form's submit button
 * applies the choice; with JavaScript, choosing an option submits the form at once. At most
 * 9.5 rem wide on phones (two side by side), 12 rem from `sm` on, so that the bar stays short.
 *
 * @param metrics the options, `{value, label}`
 * @param value the option the board uses now
 * @param id the element id, for its `<label htmlFor>` (default `board-metric`)
 * @param name the query parameter (default `metric`)
 */
export function BoardMetricSelect({
  metrics,
  value,
  id = "board-metric",
  name = "metric",
}: {
  metrics: { value: string; label: string }[];
  value: string;
  id?: string;
  name?: string;
}) {
  const submit = (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();
  return (
    <select
      id={id}
      name={name}
      defaultValue={value}
      onChange={submit}
      className="max-w-[9.5rem] rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200 sm:max-w-[12rem]"
    >
      {metrics.map((m) => (
        <option key={m.value} value={m.value}>
          {m.label}
        </option>
      ))}
    </select>
  );
}
