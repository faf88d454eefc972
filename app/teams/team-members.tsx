"use client";

/**
 * The member buttons of the teams page: Remove and Make owner (owners, on other members) and
 * Leave (on oneself). Remove, Leave and Make owner ask for confirmation first; the services
 * check who may do what again (`lib/teams/membership.ts`).
 */
import { useActionState, useState, type MouseEvent } from "react";
import { Notice, secondaryButton } from "../_components/ui";
import { leaveTeamAction, makeTeamOwnerAction, removeTeamMemberAction, type TeamMemberActionState } from "./actions";

type Step = "remove" | "leave" | "owner";

const ACTIONS = { remove: removeTeamMemberAction, leave: leaveTeamAction, owner: makeTeamOwnerAction } as const;

const dangerButton =
  "inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 disabled:opacity-50";

/**
 * One confirmed step on one member.
 *
 * @param step "remove" (owners, another member), "leave" (oneself), "owner" (owners, a MEMBER)
 */
export function TeamMemberButton({ step, teamId, teamName, userId, memberName }: { step: Step; teamId: string; teamName: string; userId: string; memberName: string }) {
  const [state, action, pending] = useActionState<TeamMemberActionState, FormData>(ACTIONS[step], { status: "idle" });
  const [confirming, setConfirming] = useState(false);
  // As in the phase actions: the question's button and the answer's take each other's place;
  // the default is prevented so the click cannot submit the form unconfirmed.
  const ask = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    setConfirming(true);
  };
  const label = step === "remove" ? "Remove" : step === "leave" ? "Leave team" : "Make owner";
  const question =
    step === "remove"
      ? `Remove ${memberName} from ${teamName}? Their runs stay the team's.`
      : step === "leave"
        ? `Leave ${teamName}? You can only come back with a new invitation. Your runs stay the team's.`
        : `Make ${memberName} an owner of ${teamName}? Owners can remove members, including you.`;
  const yes = step === "remove" ? "Yes, remove" : step === "leave" ? "Yes, leave" : "Yes, make owner";
  return (
    <form action={action} className="inline-flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="teamId" value={teamId} />
      <input type="hidden" name="userId" value={userId} />
      {!confirming ? (
        <button
          key="ask"
          type="button"
          className={step === "owner" ? secondaryButton : dangerButton}
          onClick={ask}
          aria-label={step === "leave" ? `Leave ${teamName}` : `${label}: ${memberName}`}
        >
          {label}
        </button>
      ) : (
        <>
          <span className="text-sm text-zinc-800">{question}</span>
          <button key="confirm" type="submit" disabled={pending} className={step === "owner" ? secondaryButton : dangerButton}>
            {pending ? "Working…" : yes}
          </button>
          <button type="button" className={secondaryButton} onClick={() => setConfirming(false)} disabled={pending}>
            Cancel
          </button>
        </>
      )}
      <div aria-live="polite" className="basis-full text-left text-xs">
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
    </form>
  );
}
