/**
 * The inputs of one phase's settings, shared by the new-task form and the manage page.
 * Server-safe (no hooks); the surrounding form owns state and submission.
 */
import type { FieldErrorMap } from "./task-action-result";
import type { DocumentCheck } from "@/lib/validations/task";
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
  ["TEAM_SELECTED", "Team-selected: each team marks its final runs (its latest run counts until it marks one)"],
];

/** Leaderboard timing choices (`LEADERBOARD_TIMINGS` in lib/validations/task.ts). */
const TIMING_OPTIONS: readonly (readonly [string, string])[] = [
  ["live", "Live: runs show as they are scored"],
  ["after_close", "After the close: until the phase closes, each team sees only its own scores"],
  ["frozen", "Frozen at a date: later runs are scored but shown only to their team"],
];

/**
 * Participant analysis levels, each label saying what it reveals (the error analysis shows
 * the gold key's mentions next to the run's; see `canViewErrorAnalysis` in lib/permissions.ts).
 */
const PARTICIPANT_ANALYSIS_OPTIONS: readonly (readonly [string, string])[] = [
  ["NONE", "Organizers only: nobody else sees the error analysis"],
  ["TEAMS", "Teams: signed-in members of the task's teams see the error analysis, document views and per-document scores of the runs they may see — this shows them the gold key's mentions"],
  ["PUBLIC", "Public: anyone, including anonymous readers, sees the error analysis — this publishes the gold key's mentions"],
];

/**
 * Document check choices (`DOCUMENT_CHECKS` in lib/validations/task.ts), each saying what
 * happens to a run whose documents do not match the gold key's.
 */
const DOCUMENT_CHECK_OPTIONS: readonly (readonly [DocumentCheck, string])[] = [
  ["warn", "Warn: the submitter sees the mismatched documents and must confirm before the run counts"],
  ["error", "Error: a run with mismatched documents is refused (nothing is stored, no quota is used)"],
];

/** The zone options, with `current` added when it is not one of the common ones. */
function zoneOptions(current: string): readonly (readonly [string, string])[] {
  return TIME_ZONE_OPTIONS.some(([value]) => value === current) ? TIME_ZONE_OPTIONS : [[current, current], ...TIME_ZONE_OPTIONS];
}

/**
 * The inputs of one phase: name, window (wall-clock times in the chosen display zone), zone,
 * limits, leaderboard visibility and timing (with the freeze time), selection rule (with the
 * final-run limit of a team-selected phase), participant analysis, per-document scores for
 * teams on a hidden leaderboard, and the document check.
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
  const f = phaseFieldNaming(namePrefix, idPrefix, errors);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <PhaseWindowFields f={f} values={values} />
      <PhaseLimitFields f={f} values={values} />
      <PhaseLeaderboardFields f={f} values={values} />
      <PhaseAnalysisFields f={f} values={values} />
    </div>
  );
}

/** A phase input's name, element id and error, from the field's key (e.g. "opensAt"). */
interface PhaseFieldNaming {
  /** `<namePrefix><field>` */
  name: (field: string) => string;
  /** `<idPrefix>-<field>` */
  id: (field: string) => string;
  /** the field's error, keyed by its full name */
  err: (field: string) => string | undefined;
}

/** The naming of {@link TaskPhaseFields}' inputs (see its parameters). */
function phaseFieldNaming(namePrefix: string, idPrefix: string, errors: FieldErrorMap): PhaseFieldNaming {
  const name = (field: string) => `${namePrefix}${field}`;
  return { name, id: (field) => `${idPrefix}-${field}`, err: (field) => errors[name(field)] };
}

/** Name, display time zone, and the window (opens, closes) read in that zone. */
function PhaseWindowFields({ f, values }: { f: PhaseFieldNaming; values: PhaseFormValues }) {
  return (
    <>
      <Field label="Phase name" name={f.name("name")} id={f.id("name")} defaultValue={values.name} required maxLength={64} error={f.err("name")} />
      <SelectField
        label="Display time zone"
        name={f.name("displayTimeZone")}
        id={f.id("displayTimeZone")}
        defaultValue={values.displayTimeZone}
        options={zoneOptions(values.displayTimeZone)}
        error={f.err("displayTimeZone")}
        hint="Opening and closing times below are read in this zone, and the task page shows it."
      />
      <Field label="Opens" name={f.name("opensAt")} id={f.id("opensAt")} type="datetime-local" defaultValue={values.opensAt} required error={f.err("opensAt")} hint="In the display time zone." />
      <Field label="Closes" name={f.name("closesAt")} id={f.id("closesAt")} type="datetime-local" defaultValue={values.closesAt} required error={f.err("closesAt")} hint="In the display time zone; submissions are accepted until just before this time." />
    </>
  );
}

/** Runs per team per day and in total (empty: no limit). */
function PhaseLimitFields({ f, values }: { f: PhaseFieldNaming; values: PhaseFormValues }) {
  return (
    <>
      <Field
        label="Runs per team per day"
        name={f.name("dailyLimit")}
        id={f.id("dailyLimit")}
        type="number"
        min={1}
        step={1}
        defaultValue={values.dailyLimit}
        error={f.err("dailyLimit")}
        hint="Empty for no limit. Days are UTC days."
      />
      <Field
        label="Runs per team in total"
        name={f.name("totalLimit")}
        id={f.id("totalLimit")}
        type="number"
        min={1}
        step={1}
        defaultValue={values.totalLimit}
        error={f.err("totalLimit")}
        hint="Empty for no limit."
      />
    </>
  );
}

/** Leaderboard visibility and timing (with the freeze time), the selection rule and the final-run limit. */
function PhaseLeaderboardFields({ f, values }: { f: PhaseFieldNaming; values: PhaseFormValues }) {
  return (
    <>
      <SelectField
        label="Leaderboard visibility"
        name={f.name("leaderboardVisibility")}
        id={f.id("leaderboardVisibility")}
        defaultValue={values.leaderboardVisibility}
        options={VISIBILITY_OPTIONS}
        error={f.err("leaderboardVisibility")}
      />
      <SelectField
        label="Leaderboard timing"
        name={f.name("leaderboardTiming")}
        id={f.id("leaderboardTiming")}
        defaultValue={values.leaderboardTiming}
        options={TIMING_OPTIONS}
        error={f.err("leaderboardTiming")}
        hint="When other teams' scores show. Organizers always see every run."
      />
      <Field
        label="Freeze time"
        name={f.name("frozenAt")}
        id={f.id("frozenAt")}
        type="datetime-local"
        defaultValue={values.frozenAt}
        error={f.err("frozenAt")}
        hint="Frozen leaderboards only: runs made at or after this time (in the display time zone, before the close) are not shown to other teams."
      />
      <SelectField
        label="Selection rule"
        name={f.name("selectionRule")}
        id={f.id("selectionRule")}
        defaultValue={values.selectionRule}
        options={SELECTION_OPTIONS}
        error={f.err("selectionRule")}
        hint="Which of a team's scored runs the leaderboard ranks."
      />
      <Field
        label="Final runs per team"
        name={f.name("finalRunLimit")}
        id={f.id("finalRunLimit")}
        type="number"
        min={1}
        max={100}
        step={1}
        defaultValue={values.finalRunLimit}
        error={f.err("finalRunLimit")}
        hint="Team-selected phases only: how many runs each team may mark as final (1–100)."
      />
    </>
  );
}

/** Participant analysis, teams' per-document scores on a hidden leaderboard, and the document check (each across both columns). */
function PhaseAnalysisFields({ f, values }: { f: PhaseFieldNaming; values: PhaseFormValues }) {
  return (
    <>
      <div className="sm:col-span-2">
        <SelectField
          label="Participant analysis"
          name={f.name("participantAnalysis")}
          id={f.id("participantAnalysis")}
          defaultValue={values.participantAnalysis}
          options={PARTICIPANT_ANALYSIS_OPTIONS}
          error={f.err("participantAnalysis")}
          hint="Who besides the organizers sees each run's error analysis, document views (key and response side by side) and per-document scores. The task's teams are the teams with at least one run (not a baseline) in the task. Typically Teams for a development phase and Organizers only for a test phase."
        />
      </div>
      <div className="sm:col-span-2">
        <CheckboxField
          label="Teams see their runs' per-document scores on a hidden leaderboard. Per-document scores of a hidden test set let teams probe the gold, at least one bit per document per run."
          name={f.name("teamDocumentScores")}
          id={f.id("teamDocumentScores")}
          defaultChecked={values.teamDocumentScores}
          error={f.err("teamDocumentScores")}
          hint="Applies when the leaderboard is visible to organizers only: off, each team sees corpus-level scores of its own runs only. Participant analysis, where allowed, shows per-document results anyway."
        />
      </div>
      <div className="sm:col-span-2">
        <SelectField
          label="Document check"
          name={f.name("documentCheck")}
          id={f.id("documentCheck")}
          defaultValue={values.documentCheck}
          options={DOCUMENT_CHECK_OPTIONS}
          error={f.err("documentCheck")}
          hint="At upload, a run's document names are compared with the gold key's. A response document that matches no key document scores nothing, and a key document the run leaves out counts as entirely missed. Warn lets the submitter decide; Error refuses such runs without using up the team's limits."
        />
      </div>
    </>
  );
}
