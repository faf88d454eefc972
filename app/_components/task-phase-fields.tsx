/**
 * The inputs of one phase's settings, shared by the new-task form and the manage page.
 * Server-safe (no hooks); the surrounding form owns state and submission.
 */
import type { FieldErrorMap } from "./task-action-result";
import type { PhaseFormValues } from "./task-phase-form-data";
import { CheckboxField, Field, SelectField } from "./ui";

/** Display time zones offered in forms: UTC, AoE, then common IANA zones west to east. */
const TIME_ZONE_OPTIONS: readonly (readonly [string, string])[] = [
  ["UTC", "UTC"],
  ["AoE", "AoE — Anywhere on Earth (UTC−12)"],
  ["Pacific/Honolulu", "Pacific/Honolulu"],
  ["America/Los_Angeles", "America/Los_Angeles"],
  ["America/Denver", "America/Denver"],
  ["America/Chicago", "America/Chicago"],
  ["America/New_York", "America/New_York"],
  ["America/Sao_Paulo", "America/Sao_Paulo"],
  ["Europe/London", "Europe/London"],
  ["Europe/Dublin", "Europe/Dublin"],
  ["Europe/Paris", "Europe/Paris"],
  ["Europe/Berlin", "Europe/Berlin"],
  ["Europe/Prague", "Europe/Prague"],
  ["Europe/Helsinki", "Europe/Helsinki"],
  ["Europe/Moscow", "Europe/Moscow"],
  ["Asia/Dubai", "Asia/Dubai"],
  ["Asia/Kolkata", "Asia/Kolkata"],
  ["Asia/Singapore", "Asia/Singapore"],
  ["Asia/Shanghai", "Asia/Shanghai"],
  ["Asia/Seoul", "Asia/Seoul"],
  ["Asia/Tokyo", "Asia/Tokyo"],
  ["Australia/Sydney", "Australia/Sydney"],
  ["Pacific/Auckland", "Pacific/Auckland"],
];

/** Leaderboard visibility choices. */
const VISIBILITY_OPTIONS: readonly (readonly [string, string])[] = [
  ["PUBLIC", "Public — anyone"],
  ["PARTICIPANTS", "Participants — teams that submitted, and organizers"],
  ["ORGANIZERS", "Organizers only"],
];

/** Selection rule choices. */
const SELECTION_OPTIONS: readonly (readonly [string, string])[] = [
  ["BEST", "Best run per team"],
  ["LATEST", "Latest run per team"],
];

/** The zone options, with `current` added when it is not one of the common ones. */
function zoneOptions(current: string): readonly (readonly [string, string])[] {
  return TIME_ZONE_OPTIONS.some(([value]) => value === current) ? TIME_ZONE_OPTIONS : [[current, current], ...TIME_ZONE_OPTIONS];
}

/**
 * The inputs of one phase: name, window (wall-clock times in the chosen display zone), zone,
 * limits, leaderboard visibility, selection rule and participant analysis.
 *
 * @param namePrefix prefix of the input names, e.g. "phases.0." (also the key prefix in `errors`)
 * @param idPrefix prefix of the element ids, unique on the page
 * @param values the initial values
 * @param errors field errors keyed by full input name
 */
export function TaskPhaseFields({
  namePrefix,
  idPrefix,
  values,
  errors,
}: {
  namePrefix: string;
  idPrefix: string;
  values: PhaseFormValues;
  errors: FieldErrorMap;
}) {
  const name = (field: string) => `${namePrefix}${field}`;
  const id = (field: string) => `${idPrefix}-${field}`;
  const err = (field: string) => errors[name(field)];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Phase name" name={name("name")} id={id("name")} defaultValue={values.name} required maxLength={64} error={err("name")} />
      <SelectField
        label="Display time zone"
        name={name("displayTimeZone")}
        id={id("displayTimeZone")}
        defaultValue={values.displayTimeZone}
        options={zoneOptions(values.displayTimeZone)}
        error={err("displayTimeZone")}
        hint="Opening and closing times below are read in this zone, and the task page shows it."
      />
      <Field label="Opens" name={name("opensAt")} id={id("opensAt")} type="datetime-local" defaultValue={values.opensAt} required error={err("opensAt")} hint="In the display time zone." />
      <Field label="Closes" name={name("closesAt")} id={id("closesAt")} type="datetime-local" defaultValue={values.closesAt} required error={err("closesAt")} hint="In the display time zone; submissions are accepted until just before this time." />
      <Field
        label="Runs per team per day"
        name={name("dailyLimit")}
        id={id("dailyLimit")}
        type="number"
        min={1}
        step={1}
        defaultValue={values.dailyLimit}
        error={err("dailyLimit")}
        hint="Empty for no limit. Days are UTC days."
      />
      <Field
        label="Runs per team in total"
        name={name("totalLimit")}
        id={id("totalLimit")}
        type="number"
        min={1}
        step={1}
        defaultValue={values.totalLimit}
        error={err("totalLimit")}
        hint="Empty for no limit."
      />
      <SelectField
        label="Leaderboard visibility"
        name={name("leaderboardVisibility")}
        id={id("leaderboardVisibility")}
        defaultValue={values.leaderboardVisibility}
        options={VISIBILITY_OPTIONS}
        error={err("leaderboardVisibility")}
      />
      <SelectField
        label="Selection rule"
        name={name("selectionRule")}
        id={id("selectionRule")}
        defaultValue={values.selectionRule}
        options={SELECTION_OPTIONS}
        error={err("selectionRule")}
        hint="Which of a team's scored runs the leaderboard ranks."
      />
      <div className="sm:col-span-2">
        <CheckboxField
          label="Allow participant analysis: everyone who may see a run also sees its error analysis, document views and per-document scores (they reveal the gold key; typically on for a development phase, off for a test phase)"
          name={name("allowParticipantAnalysis")}
          id={id("allowParticipantAnalysis")}
          defaultChecked={values.allowParticipantAnalysis}
          error={err("allowParticipantAnalysis")}
        />
      </div>
    </div>
  );
}
