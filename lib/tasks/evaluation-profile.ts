/**
 * A task's evaluation profile (issue 10 §3) as organizers choose and change it: the columns a
 * choice is stored in, what pages show of it, and the change itself.
 *
 * The profiles are scoring facts (`scoring/presets.ts`), read from a task row by
 * `taskEvaluationProfile` (`lib/tasks/evaluation.ts`). A fixed profile (`conll2012`, `crac`) stores
 * its primary setting in the task's `mention_matching`, `keep_singletons` and `zero_matching`
 * columns too, so that those columns always say how the primary scores are computed (readers
 * that predate profiles, e.g. the error analysis's singleton rule, follow them).
 *
 * Changing the profile changes what the worker computes, so every run of the task that has a
 * result (SCORED or FAILED) or is being scored is re-queued, as a new gold key or new analysis
 * settings do (`requeueSubmissions`, lib/submission-states.ts). QUEUED runs are left as they
 * are: the worker reads the task's profile when it scores them. A profile that matches mentions
 * by their heads needs CorefUD CoNLL-U gold, so the change is refused while a dataset of one of
 * the task's phases has the `conll2012` format or an active gold key of another format
 * (`goldFitsProfile`); gold uploads and dataset changes make the matching checks
 * (`uploadGoldKey`, `addDataset`, `updateDataset`), and all take the phase's `gold:` lock so
 * that none slips past another.
 */
import { assertCanChangeTask } from "./state";
import { NotFoundError, ValidationError } from "../errors";
import { goldFitsProfile, profileNeedsHeads, runEvaluation, taskEvaluationProfile, type EvaluationProfile, type EvaluationProfileName, type TaskEvaluationFields } from "./evaluation";
import type { SubmissionStatus } from "../generated/prisma/enums";
import type { Viewer } from "../permissions";
import { enqueueAfterCommit } from "../queue";
import { requeueSubmissions } from "../submission-states";
import { parseInput } from "../validations/parse";
import { DEFAULT_EVALUATION_PROFILE, singletonsValue, taskEvaluationSchema, type EvaluationFormValues, type TaskEvaluationInput } from "../validations/task";
import { fileFormatOf } from "../validations/dataset";
import { recordAudit } from "../audit";
import { DATASET_ORDER } from "./datasets";
import { defaultDb, isUuid, lockKey, type Db, type Tx } from "../db";
import { customProfile, EVALUATION_PROFILE_NAMES, EVALUATION_PROFILES, MENTION_MATCHES, ZERO_MATCHES, type MentionMatch, type ZeroMatch } from "../../scoring";

/** The task columns of an evaluation choice (see the module comment for the fixed profiles). */
export interface TaskEvaluationColumns {
  evaluationProfile: EvaluationProfileName;
  mentionMatching: MentionMatch;
  keepSingletons: boolean;
  zeroMatching: ZeroMatch;
}

/** A task's evaluation profile as pages show it. */
export interface TaskEvaluationView {
  profile: EvaluationProfileName;
  /** the profile's label, from `scoring/presets.ts` (e.g. "CRAC (CorefUD scorer: head match, …)") */
  label: string;
  /** the secondary variants computed beside the primary scores, in the profile's order */
  variants: { id: string; label: string }[];
  /** the primary setting's mention matching */
  mentionMatching: MentionMatch;
  /** whether the primary setting keeps singleton entities */
  keepSingletons: boolean;
  /** the primary setting's zero matching (CorefUD input) */
  zeroMatching: ZeroMatch;
  /** whether gold keys must be CorefUD CoNLL-U (`.conllu`): the profile matches mentions by heads */
  needsHeads: boolean;
}

/** Statuses whose runs are scored again after a profile change (see the module comment). */
const RESCORED: SubmissionStatus[] = ["SCORED", "FAILED", "SCORING"];

/**
 * The task columns a validated evaluation choice is stored in.
 *
 * @param input a validated choice (`taskEvaluationSchema`, or the same fields of `createTaskSchema`)
 * @returns the profile name and its primary setting's mention matching, singleton rule and
 *   zero matching (the organizer's for `custom`, the profile's own otherwise)
 */
export function evaluationColumns(input: TaskEvaluationInput): TaskEvaluationColumns {
  if (input.evaluationProfile === "custom") {
    return { evaluationProfile: "custom", mentionMatching: input.mentionMatching!, keepSingletons: input.keepSingletons!, zeroMatching: input.zeroMatching! };
  }
  const { primary } = EVALUATION_PROFILES[input.evaluationProfile];
  return { evaluationProfile: input.evaluationProfile, mentionMatching: primary.match, keepSingletons: !primary.removeSingletons, zeroMatching: primary.zeroMatch };
}

/** What pages show of a profile. */
function viewOf(profile: EvaluationProfile): TaskEvaluationView {
  return {
    profile: profile.name,
    label: profile.label,
    variants: profile.variants.map((v) => ({ id: v.id, label: v.label })),
    mentionMatching: profile.primary.match,
    keepSingletons: !profile.primary.removeSingletons,
    zeroMatching: profile.primary.zeroMatch,
    needsHeads: profileNeedsHeads(profile),
  };
}

/**
 * A task's evaluation profile as pages show it (public: how runs are scored is no secret).
 *
 * @param task the task's evaluation columns
 */
export function taskEvaluationView(task: TaskEvaluationFields): TaskEvaluationView {
  return viewOf(taskEvaluationProfile(task));
}

/** Whether two profiles score alike: same name, settings and variants (`runEvaluation` records all of them). */
function sameProfile(a: EvaluationProfile, b: EvaluationProfile): boolean {
  return JSON.stringify(runEvaluation(a)) === JSON.stringify(runEvaluation(b));
}

/**
 * Refuses a profile that a dataset of one of the task's phases cannot be scored under: a
 * profile matching mentions by their heads needs every dataset to be CorefUD CoNLL-U
 * (`conllu`) and every active gold key to be `.conllu` (`goldFitsProfile`). Call inside the
 * change's transaction, holding the phases' `gold:` locks.
 *
 * @throws ValidationError (422, field `evaluationProfile`) naming every such phase (and, in a
 *   phase with several datasets, the dataset) with its active gold key's version and file
 *   name, or the dataset's format
 */
async function assertGoldFits(tx: Tx, taskId: string, profile: EvaluationProfile): Promise<void> {
  if (!profileNeedsHeads(profile)) return;
  const phases = await tx.phase.findMany({
    where: { taskId },
    orderBy: [{ opensAt: "asc" }, { name: "asc" }],
    select: {
      name: true,
      datasets: { orderBy: DATASET_ORDER, select: { name: true, format: true, goldKeys: { where: { active: true }, select: { version: true, fileName: true } } } },
    },
  });
  const misfits: string[] = [];
  for (const phase of phases) {
    for (const dataset of phase.datasets) {
      const where = phase.datasets.length > 1 ? `phase "${phase.name}", dataset "${dataset.name}"` : `phase "${phase.name}"`;
      const gold = dataset.goldKeys[0];
      if (gold && goldFitsProfile(gold.fileName, profile) !== null) misfits.push(`${where} (active gold key v${gold.version}, ${gold.fileName})`);
      else if (dataset.format !== "conllu") misfits.push(`${where} (dataset "${dataset.name}" has the CoNLL-2012 format)`);
    }
  }
  if (misfits.length === 0) return;
  throw ValidationError.field(
    "evaluationProfile",
    `The ${profile.label} evaluation profile matches mentions by their heads, which only CorefUD CoNLL-U (.conllu) datasets and gold keys have; not so in ${misfits.join(", ")}. Give those datasets the conllu format and upload their gold keys as .conllu first, or keep a profile with exact matching.`,
  );
}

/**
 * Changes a task's evaluation profile (organizers). Saving the profile the task already uses
 * (same name and, for `custom`, same settings) is a no-op: nothing is written, re-queued or
 * audited. Otherwise, in one transaction holding the `gold:` lock of each of the task's
 * phases: refuses a profile that needs heads while a dataset of a phase has the `conll2012`
 * format or an active gold key that is not `.conllu`;
 * stores the choice (`evaluationColumns`); re-queues the task's SCORED, FAILED and SCORING runs;
 * writes `task.evaluation.update` (old and new profile, re-queued count). The re-queued runs
 * are enqueued after commit (the reconciler covers a failed enqueue).
 *
 * @param actor the organizer (or site admin)
 * @param taskId the task
 * @param input `{evaluationProfile, mentionMatching?, keepSingletons?, zeroMatching?}` (see `taskEvaluationSchema`)
 * @returns whether anything changed, the task's profile afterwards, and how many runs were re-queued
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, unknown task),
 *   ValidationError (422: bad fields, or the profile needs heads and a named phase's dataset
 *   is `conll2012` or its active gold key is not CorefUD CoNLL-U; nothing is changed)
 */
export async function updateTaskEvaluation(
  actor: Viewer,
  taskId: string,
  input: unknown,
): Promise<{ changed: boolean; evaluation: TaskEvaluationView; requeued: number }> {
  const db = defaultDb();
  const user = await assertCanChangeTask(actor, taskId, db, "change its evaluation");
  const columns = evaluationColumns(parseInput(taskEvaluationSchema, input, "evaluation profile"));
  const next = taskEvaluationProfile(columns);
  const result = await db.$transaction(async (tx) => {
    await lockKey(tx, `evaluation:${taskId}`);
    const phases = await tx.phase.findMany({ where: { taskId }, select: { id: true }, orderBy: { id: "asc" } });
    for (const p of phases) await lockKey(tx, `gold:${p.id}`);
    const before = await tx.task.findUnique({
      where: { id: taskId },
      select: { evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true },
    });
    if (!before) throw new NotFoundError("No such task.");
    const previous = taskEvaluationProfile(before);
    if (sameProfile(previous, next)) return { changed: false, ids: [] as string[] };
    await assertGoldFits(tx, taskId, next);
    await tx.task.update({ where: { id: taskId }, data: columns });
    const ids = await requeueSubmissions(tx, { phase: { taskId }, status: { in: RESCORED } });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "task.evaluation.update",
      targetType: "task",
      targetId: taskId,
      data: { from: runEvaluation(previous), to: runEvaluation(next), requeued: ids.length },
    });
    return { changed: true, ids };
  });
  if (result.changed) await enqueueAfterCommit(result.ids, `evaluation profile of task ${taskId}`);
  return { changed: result.changed, evaluation: viewOf(next), requeued: result.ids.length };
}

/** "also scored: partial match, exact match, head match with singletons", or null for a profile without variants. */
export function alsoScoredText(variants: readonly { label: string }[]): string | null {
  if (variants.length === 0) return null;
  return `also scored: ${variants.map((v) => v.label.charAt(0).toLowerCase() + v.label.slice(1)).join(", ")}`;
}

/** One profile an organizer can choose, as the forms describe it. */
export interface EvaluationChoice {
  name: EvaluationProfileName;
  /** the option's text: the profile's label (for `custom`, with the settings chosen; see `customLabels`) */
  label: string;
  /** what the profile does, in a sentence or two */
  description: string;
}

/** What the evaluation forms offer: the profiles, and the custom profile's settings with their options. */
export interface EvaluationChoices {
  profiles: EvaluationChoice[];
  /** the custom profile's label for each setting, keyed `match|keep|zero` (e.g. "head|exclude|dependent") */
  customLabels: Record<string, string>;
  /** `[value, text]` options of each custom setting, the default first */
  mentionMatching: [string, string][];
  keepSingletons: [string, string][];
  zeroMatching: [string, string][];
}

/** What each mention-matching mode does (`MentionMatch` in scoring/evaluate.ts). */
const MATCH_TEXT: Record<MentionMatch, string> = {
  exact: "exact: the same words",
  partial: "partial: the response's words lie within the key mention and include its head (needs .conllu)",
  head: "head: the same head word, full spans breaking ties (needs .conllu)",
};

/** What each zero-matching mode does (`ZeroMatch` in scoring/evaluate.ts). */
const ZERO_TEXT: Record<ZeroMatch, string> = {
  dependent: "dependent: zeros matched by their heads' dependencies within each sentence (the CorefUD scorer's default)",
  linear: "linear: zeros matched by their node IDs like any other mention",
};

/** The evaluation form's values for a task's profile (see `EvaluationFormValues`). */
export function evaluationFormValues(evaluation: TaskEvaluationView): EvaluationFormValues {
  return {
    evaluationProfile: evaluation.profile,
    mentionMatching: evaluation.mentionMatching,
    keepSingletons: singletonsValue(evaluation.keepSingletons),
    zeroMatching: evaluation.zeroMatching,
  };
}

/** The text of a fixed profile's choice: its label, variants and gold format. */
function fixedDescription(profile: EvaluationProfile): string {
  const also = alsoScoredText(profile.variants);
  const gold = profileNeedsHeads(profile) ? "Gold keys must be CorefUD CoNLL-U (.conllu)." : "Gold keys may be CoNLL-2012, CorefUD CoNLL-U or JSON lines.";
  return `${profile.label}.${also ? ` Every run is ${also}.` : " No secondary variants."} ${gold}`;
}

/**
 * The profiles and custom settings the new-task form and the manage page's "Evaluation"
 * form offer; every label comes from `scoring/presets.ts` (`EVALUATION_PROFILES`, `customProfile`).
 */
export function evaluationChoices(): EvaluationChoices {
  const customLabels: Record<string, string> = {};
  for (const match of MENTION_MATCHES) {
    for (const keep of [true, false]) {
      for (const zeroMatch of ZERO_MATCHES) {
        customLabels[`${match}|${singletonsValue(keep)}|${zeroMatch}`] = customProfile({ match, zeroMatch, removeSingletons: !keep }).label;
      }
    }
  }
  const fixed = EVALUATION_PROFILE_NAMES.filter((n): n is Exclude<EvaluationProfileName, "custom"> => n !== "custom").map((n) => EVALUATION_PROFILES[n]);
  return {
    profiles: [
      ...fixed.map((p) => ({ name: p.name, label: p.label, description: fixedDescription(p) })),
      {
        name: "custom" as const,
        label: customProfile({ match: MENTION_MATCHES[0], zeroMatch: ZERO_MATCHES[0], removeSingletons: false }).label,
        description:
          "Mention matching, singletons and zero matching as chosen below; no secondary variants. Partial and head matching need CorefUD CoNLL-U (.conllu) gold keys.",
      },
    ],
    customLabels,
    mentionMatching: MENTION_MATCHES.map((m) => [m, MATCH_TEXT[m]]),
    keepSingletons: [
      [singletonsValue(true), "keep singleton entities (as the CoNLL reference scorer)"],
      [singletonsValue(false), "exclude singleton entities from key and response (as the CorefUD scorer)"],
    ],
    zeroMatching: ZERO_MATCHES.map((z) => [z, ZERO_TEXT[z]]),
  };
}

/** What the evaluation form (and the publishing checklist) suggest when the gold is CorefUD CoNLL-U. */
export const CRAC_SUGGESTION_TEXT = "Your gold is CorefUD CoNLL-U: the CRAC profile is suggested";

/** A profile the task's gold suggests instead of its own (see {@link profileSuggestionFor}); nothing changes until an organizer saves it. */
export interface ProfileSuggestion {
  /** the suggested profile */
  profile: "crac";
  /** its label, from `scoring/presets.ts` */
  label: string;
  /** {@link CRAC_SUGGESTION_TEXT} */
  message: string;
  /** the datasets that are CorefUD CoNLL-U, as `phase "p"` or `phase "p", dataset "d"` */
  conllu: string[];
  /** the datasets the suggested profile cannot score yet (CoNLL-2012 format or gold), named the same way; switching is refused until they are CoNLL-U */
  blocking: string[];
}

/** One dataset as {@link profileSuggestionFor} reads it. */
export interface SuggestionDataset {
  phase: string;
  name: string;
  /** the dataset's format (`conll2012` or `conllu`) */
  format: string;
  /** the file name of its active gold key, or null */
  goldFileName: string | null;
  /** whether its phase has several datasets (the names then say the dataset too) */
  several: boolean;
}

/**
 * Whether a task's gold suggests the CRAC profile (issue 24 §4): only while the task still
 * has the default profile (CoNLL-2012: a task created without a choice), and only when some
 * dataset has the CorefUD CoNLL-U format or a `.conllu` active gold key. Pure: it suggests,
 * it never changes the scoring.
 *
 * @param profile the task's evaluation profile
 * @param datasets the datasets of all its phases
 * @returns the suggestion (with the datasets that would still block the switch), or null
 */
export function profileSuggestionFor(profile: EvaluationProfileName, datasets: readonly SuggestionDataset[]): ProfileSuggestion | null {
  if (profile !== DEFAULT_EVALUATION_PROFILE) return null;
  const where = (d: SuggestionDataset) => (d.several ? `phase "${d.phase}", dataset "${d.name}"` : `phase "${d.phase}"`);
  const isConllu = (d: SuggestionDataset) => (d.goldFileName !== null ? fileFormatOf(d.goldFileName) === "conllu" : d.format === "conllu");
  const conllu = datasets.filter(isConllu).map(where);
  if (conllu.length === 0) return null;
  const crac = EVALUATION_PROFILES.crac;
  const blocking = datasets.filter((d) => (d.goldFileName !== null ? goldFitsProfile(d.goldFileName, crac) !== null : d.format !== "conllu")).map(where);
  return { profile: "crac", label: crac.label, message: CRAC_SUGGESTION_TEXT, conllu, blocking };
}

/**
 * {@link profileSuggestionFor} for a stored task: reads its profile, its phases' datasets and
 * their active gold keys' file names. For pages of the task's organizers (the caller checks).
 *
 * @param taskId the task
 * @returns the suggestion, or null (also for an unknown task)
 */
export async function evaluationProfileSuggestion(taskId: string, db: Db = defaultDb()): Promise<ProfileSuggestion | null> {
  if (!isUuid(taskId)) return null;
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: {
      evaluationProfile: true,
      mentionMatching: true,
      keepSingletons: true,
      zeroMatching: true,
      phases: {
        orderBy: [{ opensAt: "asc" }, { name: "asc" }],
        select: { name: true, datasets: { orderBy: DATASET_ORDER, select: { name: true, format: true, goldKeys: { where: { active: true }, select: { fileName: true } } } } },
      },
    },
  });
  if (!task) return null;
  const datasets = task.phases.flatMap((p) =>
    p.datasets.map((d) => ({ phase: p.name, name: d.name, format: d.format, goldFileName: d.goldKeys[0]?.fileName ?? null, several: p.datasets.length > 1 })),
  );
  return profileSuggestionFor(taskEvaluationProfile(task).name, datasets);
}
