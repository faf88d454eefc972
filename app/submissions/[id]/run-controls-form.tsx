"use client";
/**
 * The run page's control forms (client components; no zod here, the server checks
 * everything): the team's "Withdraw this run" with a confirmation checkbox, and the
 * organizers' "Disqualify" (reason field, 1–500 characters, public) and "Reinstate".
 */
import { useActionState } from "react";
import { CheckboxField, Notice, TextAreaField, primaryButton, secondaryButton } from "../../_components/ui";
import { disqualifyRunAction, requalifyRunAction, withdrawRunAction, type RunControlFormState } from "./actions";

/** Longest reason the form lets one type (the server checks the same limit, `DISQUALIFY_REASON_MAX`). */
const REASON_MAX = 500;

const IDLE: RunControlFormState = { status: "idle" };

/** The outcome of the last submission of a control form. */
function Outcome({ state }: { state: RunControlFormState }) {
  if (state.status === "done") return <Notice kind="success">{state.message}</Notice>;
  if (state.status === "error" && Object.keys(state.fieldErrors).length === 0) return <Notice kind="error">{state.message}</Notice>;
  return null;
}

/**
 * "Withdraw this run": a required confirmation checkbox, then the button.
 *
 * @param submissionId the run
 * @param closesAtText when the phase closes, as text for people (the last moment to withdraw)
 */
export function WithdrawRunForm({ submissionId, closesAtText }: { submissionId: string; closesAtText: string }) {
  const [state, action, pending] = useActionState<RunControlFormState, FormData>(withdrawRunAction, IDLE);
  return (
    <form action={action} className="space-y-3" noValidate data-testid="withdraw-form">
      <input type="hidden" name="submissionId" value={submissionId} />
      <p className="text-sm text-zinc-700">
        Withdrawing takes this run off every leaderboard of the phase for good. It still counts against your team&apos;s quota. Possible until the phase closes ({closesAtText}).
      </p>
      <CheckboxField
        label="I understand: the run leaves every leaderboard, and the submission is not refunded."
        name="confirm"
        required
        error={state.status === "error" ? state.fieldErrors.confirm : undefined}
      />
      <button type="submit" disabled={pending} className={secondaryButton}>
        {pending ? "Withdrawing…" : "Withdraw this run"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/**
 * "Disqualify": the public reason, then the button (with a current reason: change it).
 *
 * @param submissionId the run
 * @param currentReason the reason it is disqualified for, or null
 */
export function DisqualifyRunForm({ submissionId, currentReason }: { submissionId: string; currentReason: string | null }) {
  const [state, action, pending] = useActionState<RunControlFormState, FormData>(disqualifyRunAction, IDLE);
  return (
    <form action={action} className="space-y-3" noValidate data-testid="disqualify-form">
      <input type="hidden" name="submissionId" value={submissionId} />
      <TextAreaField
        label="Reason (shown publicly on the leaderboard)"
        name="reason"
        required
        rows={2}
        maxLength={REASON_MAX}
        defaultValue={currentReason ?? ""}
        hint={`1–${REASON_MAX} characters. The run stays on the board, struck through with this reason, and takes no rank.`}
        error={state.status === "error" ? state.fieldErrors.reason : undefined}
      />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Saving…" : currentReason === null ? "Disqualify" : "Change the reason"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** "Reinstate": undoes the disqualification of the run. */
export function RequalifyRunForm({ submissionId }: { submissionId: string }) {
  const [state, action, pending] = useActionState<RunControlFormState, FormData>(requalifyRunAction, IDLE);
  return (
    <form action={action} className="space-y-3" data-testid="requalify-form">
      <input type="hidden" name="submissionId" value={submissionId} />
      <button type="submit" disabled={pending} className={secondaryButton}>
        {pending ? "Reinstating…" : "Reinstate"}
      </button>
      <Outcome state={state} />
    </form>
  );
}
