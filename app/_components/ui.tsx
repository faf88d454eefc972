/**
 * Small shared form, table and layout pieces, styled with Tailwind. Server-safe (no hooks),
 * so client components use them too.
 */
import Link from "./link";
import { Fragment, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

const controlClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-zinc-400 " +
  "focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200 aria-[invalid=true]:border-red-500";

/** What every labelled control takes: its label, input name, and optional inline error and hint. */
interface LabelledProps {
  label: string;
  name: string;
  /** shown under the control (instead of the hint) and linked through `aria-describedby` */
  error?: string;
  hint?: ReactNode;
}

/** The `aria-describedby` of a control: its error and hint paragraphs, when present. */
function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
}

/** The hint (when there is no error) or the error under a control. */
function HintAndError({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-zinc-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

/** A label above a control, then its hint or error. */
function LabelledControl({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children}
      <HintAndError id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled input with an optional inline error (linked through `aria-describedby`). The id defaults to `field-<name>`. */
export function Field({ label, name, error, hint, ...input }: LabelledProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = input.id ?? `field-${name}`;
  return (
    <LabelledControl id={id} label={label} error={error} hint={hint}>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={controlClass} {...input} />
    </LabelledControl>
  );
}

/**
 * A labelled `<select>` with options given as `[value, label]` pairs, styled and wired like
 * {@link Field}.
 *
 * @param placeholder the text of a first, disabled option with the value "" (pair it with
 *   `defaultValue=""` and `required` to make the user choose)
 */
export function SelectField({
  label,
  name,
  error,
  hint,
  options,
  placeholder,
  ...select
}: LabelledProps & { options: readonly (readonly [string, string])[]; placeholder?: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = select.id ?? `field-${name}`;
  return (
    <LabelledControl id={id} label={label} error={error} hint={hint}>
      <select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={controlClass} {...select}>
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </LabelledControl>
  );
}

/** A labelled `<textarea>`, styled and wired like {@link Field}. */
export function TextAreaField({ label, name, error, hint, ...area }: LabelledProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = area.id ?? `field-${name}`;
  return (
    <LabelledControl id={id} label={label} error={error} hint={hint}>
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={controlClass} {...area} />
    </LabelledControl>
  );
}

/** A checkbox with its label on the right. The form value is "on" when checked. */
export function CheckboxField({ label, name, error, hint, ...input }: LabelledProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = input.id ?? `field-${name}`;
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          className="h-4 w-4 rounded border-zinc-300 text-zinc-900 focus:ring-zinc-300"
          {...input}
        />
        <label htmlFor={id} className="text-sm text-zinc-800">
          {label}
        </label>
      </div>
      <HintAndError id={id} error={error} hint={hint} />
    </div>
  );
}

/** A message box for a whole form: `role="alert"` for errors, `role="status"` otherwise. */
export function Notice({ kind, children }: { kind: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
    info: "border-zinc-200 bg-zinc-50 text-zinc-800",
  }[kind];
  return (
    <div role={kind === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 text-sm ${styles}`}>
      {children}
    </div>
  );
}

/** The primary button style. */
export const primaryButton =
  "inline-flex items-center justify-center rounded-md bg-zinc-900 px-4 py-2 text-sm font-medium text-white shadow-sm " +
  "hover:bg-zinc-700 focus:outline-none focus:ring-2 focus:ring-zinc-300 disabled:cursor-not-allowed disabled:opacity-60";

/** A secondary (outlined) button style. */
export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 " +
  "hover:bg-zinc-100 focus:outline-none focus:ring-2 focus:ring-zinc-200 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * A one-field form: the field (children) and its submit button side by side (stacked on
 * small screens), then `notice` (e.g. the outcome of the last submission) below. Browser
 * validation is off: the server action reports problems inline.
 *
 * @param action the form action (from `useActionState`)
 * @param submit the button text; `pendingText` replaces it while `pending`
 * @param primary the primary button style (default: secondary)
 * @param fieldClassName the width of the field's box
 */
export function InlineForm({
  action,
  submit,
  pendingText,
  pending,
  primary = false,
  fieldClassName = "min-w-0 sm:flex-1",
  notice,
  children,
}: {
  action: (formData: FormData) => void;
  submit: string;
  pendingText: string;
  pending: boolean;
  primary?: boolean;
  fieldClassName?: string;
  notice?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-3">
      <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <div className={fieldClassName}>{children}</div>
        <button type="submit" disabled={pending} className={`${primary ? primaryButton : secondaryButton} shrink-0 whitespace-nowrap sm:mt-6`}>
          {pending ? pendingText : submit}
        </button>
      </form>
      {notice}
    </div>
  );
}

/** A white card with a title, for page sections. */
export function Card({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
      <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
      {description && <p className="mt-1 text-sm text-zinc-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A column of a {@link Table}: its header text, optionally right-aligned or for screen readers only. */
export type TableColumn = string | { label: string; right?: boolean; srOnly?: boolean };

/**
 * A plain data table that scrolls sideways when too wide, inside a keyboard-reachable region
 * named by `label` or `caption` ({@link ScrollRegion}): small grey upper-case headers, rows
 * divided by thin lines. Header cells have `pr-4` except the last; give body cells the same
 * padding so the columns line up.
 *
 * @param columns the header row
 * @param label the table's accessible name (`aria-label`), or `caption` for a screen-reader caption
 * @param children the body rows (`<tr>` elements)
 */
export function Table({ columns, label, caption, testId, children }: { columns: readonly TableColumn[]; label?: string; caption?: string; testId?: string; children: ReactNode }) {
  const table = (
    <table className="w-full text-left text-sm" aria-label={label} data-testid={testId}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-600">
        <tr>
          {columns.map((column, i) => {
            const { label: text, right = false, srOnly = false } = typeof column === "string" ? { label: column } : column;
            return (
              <th key={i} scope="col" className={`py-2 font-medium ${i < columns.length - 1 ? "pr-4" : ""} ${right ? "text-right" : ""}`}>
                {srOnly ? <span className="sr-only">{text}</span> : text}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">{children}</tbody>
    </table>
  );
  // A named table scrolls inside a keyboard-reachable region (see ScrollRegion), never the page.
  const name = label ?? caption;
  return name ? <ScrollRegion label={name}>{table}</ScrollRegion> : <div className="relative max-w-full overflow-x-auto">{table}</div>;
}

/** The small line of links above a page's title (back to the task, …), separated by "·". */
export function Breadcrumbs({ links }: { links: readonly { href: string; label: string }[] }) {
  return (
    <p className="text-sm text-zinc-600">
      {links.map((link, i) => (
        <Fragment key={link.href}>
          {i > 0 && " · "}
          <Link href={link.href} className="hover:underline">
            {link.label}
          </Link>
        </Fragment>
      ))}
    </p>
  );
}

/**
 * A date as `YYYY-MM-DD HH:MM UTC` in a `<time>` element (full ISO time on hover).
 */
export function UtcTime({ date }: { date: Date }) {
  const iso = date.toISOString();
  return (
    <time dateTime={iso} title={iso}>
      {iso.slice(0, 10)} {iso.slice(11, 16)} UTC
    </time>
  );
}

/**
 * A score (a fraction in [0, 1]) as a percentage with 2 decimals, the one way pages write
 * percentages: `0.78123` → `"78.12"` in a table cell (the `%` goes in the column header), or
 * `"78.12 %"` in prose (`unit: true`, with a no-break space so the sign stays with its number).
 *
 * @param fraction a fraction, e.g. 0.78123 (not a percentage); NaN and ±Infinity give "—"
 * @param options `unit`: append " %" (default false)
 */
export function formatPercent(fraction: number, options: { unit?: boolean } = {}): string {
  if (!Number.isFinite(fraction)) return "—";
  const text = (fraction * 100).toFixed(2);
  return options.unit ? `${text}\u00a0%` : text;
}

/**
 * A score in a table cell, as {@link formatPercent} writes it (no `%`: the column header has
 * it), with its exact value in `data-exact` and the hover text in `title`.
 *
 * @param value a fraction in [0, 1]
 * @param title the hover text (e.g. the exact fraction and how it is made)
 * @param inheritNumerals the table already sets `tabular-nums` (the leaderboard's, whose 50 rows
 *   of scores would otherwise repeat the class some 400 times)
 */
export function ScoreValue({ value, title, inheritNumerals = false }: { value: number; title?: string; inheritNumerals?: boolean }) {
  return (
    <span title={title} className={inheritNumerals ? undefined : "tabular-nums"} data-exact={String(value)}>
      {formatPercent(value)}
    </span>
  );
}

/**
 * A container that scrolls sideways when its content (a wide table) does not fit, so that the
 * page itself never does: reachable with the keyboard (`tabIndex=0`, arrow keys then scroll
 * it), announced as a region named `label`, with a visible focus ring. Use it for every table
 * that may be wider than a phone (390 px).
 *
 * @param label the region's accessible name, e.g. "Scores per document"
 * @param testId an optional `data-testid` of the region
 */
export function ScrollRegion({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      className="relative max-w-full overflow-x-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-400"
    >
      {children}
    </div>
  );
}
