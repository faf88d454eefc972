/**
 * The command that scores a run locally with the site's exact scorer (issue 24 §3 B), as the
 * submit page shows it: `node corefboard-<version>.mjs score KEY RUN` plus the flags of the
 * task's evaluation profile (the CLI's real options: `node scoring/cli/bin.mjs score --help`).
 * Pure.
 *
 * The site shares no development key (the data model has none): KEY is a placeholder for the
 * participant's own gold-annotated development file, RUN for their system's output on it.
 */
import type { EvaluationPreset } from "../../scoring/presets";
import { scorerBundleFileName } from "../scorer/bundle";

/** The command and what its placeholders stand for. */
export interface ScorerCommand {
  /** e.g. `node corefboard-0.1.0.mjs score KEY RUN --preset crac` */
  command: string;
  /** the flags after KEY RUN (empty for the CLI's defaults) */
  flags: string[];
  /** the file to download, e.g. `corefboard-0.1.0.mjs` */
  fileName: string;
}

/**
 * The score command for a profile's primary setting.
 *
 * @param primary the task's evaluation profile's primary preset (`taskEvaluationProfile(task).primary`)
 * @param corefud whether the phase's data is CorefUD CoNLL-U (zero matching only applies there)
 * @param version the scorer version (default: this server's)
 * @returns the command: `--preset crac` for the CRAC setting (head match, dependent zero
 *   matching, singletons removed, zeros kept); otherwise each option that differs from the
 *   CLI's default (`--match`, `--zero-match`, `--remove-singletons`, `--remove-zeros`); the
 *   CoNLL-2012 setting needs none
 */
export function scorerCommand(primary: Pick<EvaluationPreset, "match" | "zeroMatch" | "removeSingletons" | "removeZeros">, corefud: boolean, version?: string): ScorerCommand {
  const fileName = scorerBundleFileName(version);
  const crac = primary.match === "head" && primary.zeroMatch === "dependent" && primary.removeSingletons && !primary.removeZeros;
  const flags: string[] = [];
  if (crac) flags.push("--preset", "crac");
  else {
    if (primary.match !== "exact") flags.push("--match", primary.match);
    if (corefud && primary.zeroMatch !== "dependent") flags.push("--zero-match", primary.zeroMatch);
    if (primary.removeSingletons) flags.push("--remove-singletons");
    if (primary.removeZeros) flags.push("--remove-zeros");
  }
  return { command: ["node", fileName, "score", "KEY", "RUN", ...flags].join(" "), flags, fileName };
}
