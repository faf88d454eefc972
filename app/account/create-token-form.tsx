"use client";

import { useActionState, useState } from "react";
import { Field, Notice, primaryButton, secondaryButton } from "../_components/ui";
import { createTokenAction, type CreateTokenState } from "./actions";

/** Form that creates an API token and shows its plaintext once, with a copy button. */
export function CreateTokenForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, { status: "idle" });
  const [copied, setCopied] = useState<string | null>(null);

  return (
    <div className="space-y-4">
      <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-72">
          <Field
            label="Token name"
            name="name"
            required
            maxLength={100}
            placeholder="e.g. laptop, CI"
            error={state.status === "error" ? state.message : undefined}
          />
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
