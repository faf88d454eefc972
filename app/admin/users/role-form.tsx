"use client";

import { useActionState } from "react";
import { secondaryButton } from "../../_components/ui";
import { setSiteRoleAction, type SiteRoleState } from "./actions";

/** Props of {@link RoleForm}. */
export interface RoleFormProps {
  userId: string;
  /** the account's address, for the control's accessible name */
  email: string;
  /** the account's role as a form value ("admin", "organizer", "user") */
  role: string;
  /** the roles to offer, as `[form value, label]` pairs, most powerful first */
  options: readonly (readonly [string, string])[];
}

/**
 * One account's role control on /admin/users: a role menu and "Save", with the outcome (or the
 * refusal, e.g. for the last admin) announced beside it. The page keys it by the stored role,
 * so that the menu shows the role again after a change.
 */
export function RoleForm({ userId, email, role, options }: RoleFormProps) {
  const [state, action, pending] = useActionState<SiteRoleState, FormData>(setSiteRoleAction, { status: "idle" });
  const id = `role-${userId}`;
  return (
    <form action={action} className="flex flex-col gap-1" data-testid="role-form">
      <input type="hidden" name="userId" value={userId} />
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Role of {email}
        </label>
        <select
          id={id}
          name="role"
          defaultValue={role}
          className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200"
        >
          {options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" disabled={pending} className={secondaryButton} aria-label={`Save the role of ${email}`}>
          {pending ? "Saving…" : "Save"}
        </button>
      </div>
      <span aria-live="polite" className={`text-xs ${state.status === "error" ? "text-red-700" : "text-emerald-800"}`}>
        {state.status === "error" || state.status === "saved" ? state.message : ""}
      </span>
    </form>
  );
}
