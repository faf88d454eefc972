/**
 * Form controls that `ui.tsx` does not have (select, text area, checkbox), styled like its
 * `Field` and with the same inline-error wiring. Server-safe (no hooks).
 */
import type { SelectHTMLAttributes, TextareaHTMLAttributes, InputHTMLAttributes, ReactNode } from "react";

const controlClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-zinc-400 " +
  "focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200 aria-[invalid=true]:border-red-500";

interface Labelled {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
}

function HintAndError({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
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

/** A labelled `<select>` with options given as `[value, label]` pairs. */
export function SelectField({
  label,
  name,
  error,
  hint,
  options,
  ...select
}: Labelled & { options: readonly (readonly [string, string])[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = select.id ?? `field-${name}`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={controlClass} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <HintAndError id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled `<textarea>`. */
export function TextAreaField({ label, name, error, hint, ...area }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = area.id ?? `field-${name}`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={controlClass} {...area} />
      <HintAndError id={id} error={error} hint={hint} />
    </div>
  );
}

/** A checkbox with its label on the right. The form value is "on" when checked. */
export function CheckboxField({ label, name, error, hint, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
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
