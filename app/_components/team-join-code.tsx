"use client";

import { useState } from "react";
import { secondaryButton } from "./ui";

/** A team's join code in a monospace box, with a button that copies it. */
export function TeamJoinCode({ code, teamName }: { code: string; teamName: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1 font-mono text-sm tracking-wider text-zinc-900" data-testid="join-code" aria-label={`Join code of ${teamName}`}>
        {code}
      </code>
      <button
        type="button"
        className={secondaryButton}
        onClick={() => {
          void navigator.clipboard?.writeText(code).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}
