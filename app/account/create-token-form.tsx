"use client";

import { useActionState, useState } from "react";
import { Field, Notice, primaryButton, secondaryButton } from "../_components/ui";
import { createTokenAction, type CreateTokenState } from "./actions";

/**
 * Form that creates an API token (a name and the current password) and shows its plaintext
 * once, with a copy button. The password field is emptied after every attempt; the name is kept
 * after a refusal.
 */
export function CreateTokenForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, { status: "idle", attempt: 0 });
  const [copied, setCopied] = useState<string | null>(null);
  const errors = state.status === "error" ? state.errors : {};

  return (
    <div className="space-y-4">
      {/* Keyed by attempt, so that the fields start afresh (the password empty) after each answer. */}
      <form key={state.attempt} action={action} className="space-y-3">
        {errors.form && <Notice kind="error">{errors.form}</Notice>}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="sm:w-64">
            <Field
              label="Token name"
              name="name"
              required
              maxLength={100}
              placeholder="e.g. laptop, CI"
              defaultValue={state.status === "error" ? state.name : ""}
              error={errors.name}
            />
          </div>
          <div className="sm:w-64">
            <Field
              label="Your password, to confirm the token"
              id="field-token-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              hint="A token acts as you until revoked, so we ask for your password."
              error={errors.password}
            />
          </div>
        </div>
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Creating…" : "Create token"}
        </button>
      </form>
      {state.status === "created" && (
        <Notice kind="success">
          <p className="font-medium">Token “{state.name}” created. Copy it now: it will not be shown again.</p>
          <div className="mt-2 flex items-center gap-2">
            <input
              readOnly
              value={state.token}
              aria-label="New API token"
              data-testid="new-token"
              onFocus={(e) => e.currentTarget.select()}
              className="w-full rounded-md border border-emerald-300 bg-white px-2 py-1 font-mono text-xs text-zinc-900"
            />
            <button
              type="button"
              className={secondaryButton}
              onClick={() => {
                void navigator.clipboard?.writeText(state.token).then(
                  () => setCopied(state.token),
                  () => setCopied(null),
                );
              }}
            >
              {copied === state.token ? "Copied" : "Copy"}
            </button>
          </div>
        </Notice>
      )}
    </div>
  );
}
