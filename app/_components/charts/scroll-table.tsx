/**
 * A table that scrolls sideways inside its own box instead of widening the page (at 390 px a
 * table of several number columns is wider than the screen). The box is a named region that
 * takes the keyboard focus (`tabIndex={0}`, `role="region"`, `aria-label`), so keyboard users
 * can scroll it with the arrow keys, as WCAG 2.1.1 and axe's `scrollable-region-focusable`
 * ask. Server-safe (no state), used by the charts' data tables and the compare page.
 */
import type { ReactNode } from "react";

/** A column: its header text, right-aligned for numbers. */
export type ScrollTableColumn = string | { label: string; right?: boolean };

/**
 * The table in its scrolling region.
 *
 * @param label the region's and the table's accessible name, e.g. "F1 per metric and run"
 * @param columns the header cells, in order
 * @param testId `data-testid` of the `<table>`
 * @param children the body rows (`<tr>`)
 */
export function ScrollTable({ label, columns, testId, children }: { label: string; columns: readonly ScrollTableColumn[]; testId?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="max-w-full overflow-x-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-700">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{label}</caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-600">
          <tr>
            {columns.map((column, i) => {
              const { label: text, right = false } = typeof column === "string" ? { label: column } : column;
              return (
                <th key={i} scope="col" className={`py-2 font-medium whitespace-nowrap ${i < columns.length - 1 ? "pr-4" : ""} ${right ? "text-right" : ""}`}>
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </div>
  );
}
