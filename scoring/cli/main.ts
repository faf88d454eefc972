/**
 * The `corefboard` command line.
 *
 *   corefboard score KEY RESPONSE [--format table|json] [--metrics muc,bcub,...]
 *                                 [--match exact|partial|head] [--zero-match dependent|linear]
 *                                 [--remove-singletons | --no-remove-singletons] [--remove-zeros]
 *                                 [--preset crac] [--per-document]
 *                                 [--bcub-weighting mention|entity]
 *                                 [--input-format conll2012|conllu|jsonlines]
 *                                 [--mapped-cluster-f [threshold]] [--threads N]
 *
 * `--preset crac` is `presets.ts`'s `CRAC_PRESET` (head match, singletons excluded, dependent
 * zeros, the CorefUD scorer's metrics); options given explicitly win over the preset's.
 *
 * Exit codes: 0 scored; 2 bad usage (unknown option or metric, unreadable file, a setting the
 * input cannot have, e.g. head match on CoNLL-2012 input); 3 a format error in KEY or RESPONSE
 * (printed with file, line and column).
 *
 * Startup matters (a participant runs this once per file): the module does no work at load time
 * beyond defining the commands, and `bin.mjs` runs it from a bundle built at install time
 * (`scripts/build-cli.mjs`). With `--threads N`, large CoNLL-2012 and CoNLL-U files are read and
 * scored on several threads (`scoring/parallel.ts`), with exactly the one-thread output.
 */
import { readFileSync, statSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { MAPPED_F_THRESHOLD } from "../analysis/mapped-cluster-f.js";
import {
  MENTION_MATCHES,
  METRICS,
  ZERO_MATCHES,
  type EvaluateOptions,
  type MentionMatch,
  type Report,
  type ZeroMatch,
} from "../evaluate.js";
import { evaluateInputs } from "../evaluate-inputs.js";
import { CORPUS_FORMATS, detectFormat, type CorpusFormat } from "../formats/index.js";
import {
  evaluateInParts,
  MAX_SCORING_THREADS,
  ScoringThreads,
  threadsAvailable,
  threadsFor,
  type SplittableFormat,
} from "../parallel.js";
import { CONLL_METRICS, SELECTABLE_METRICS, type SelectableMetric } from "../metrics/registry.js";
import { CRAC_PRESET, PRESET_NAMES, PRESETS, presetOptions, type PresetName } from "../presets.js";
import { FormatError } from "../types.js";
import { renderTable, reportToJson } from "./format.js";

/** Where the CLI writes; injected so tests can capture output. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit code: scored (warnings, if any, do not change it). */
export const EXIT_OK = 0;
/** Exit code: bad usage (unknown option or metric, unreadable file, a setting the input cannot have). */
export const EXIT_USAGE = 2;
/** Exit code: a `FormatError` in KEY or RESPONSE. */
export const EXIT_FORMAT = 3;

class UsageError extends Error {}

/** The options of `corefboard score` as commander parses them (absent when not given). */
export interface ScoreOptions {
  format: "table" | "json";
  metrics?: string;
  perDocument?: boolean;
  /** `true` for `--remove-singletons`, `false` for `--no-remove-singletons`. */
  removeSingletons?: boolean;
  removeZeros?: boolean;
  match?: MentionMatch;
  zeroMatch?: ZeroMatch;
  preset?: PresetName;
  bcubWeighting: "mention" | "entity";
  inputFormat?: CorpusFormat;
  /** `true` for the flag alone, the threshold text when one is given. */
  mappedClusterF?: true | string;
  /** Threads to read and score with (1 to `MAX_SCORING_THREADS`); default by input size. */
  threads?: number;
}

/**
 * Runs the CLI with `argv` (without `node` and the script name).
 *
 * @param argv the arguments, e.g. `["score", "key.conll", "response.conll", "--format", "json"]`
 * @param io where the output goes: the settings line and the table, or the JSON (percentages in
 *   the table, fractions in [0, 1] in JSON), to `stdout`; warnings, help and errors to `stderr`
 * @returns the exit code (`EXIT_OK`, `EXIT_USAGE`, `EXIT_FORMAT`, or 1 for an internal
 *   error, whose stack is printed); never throws
 */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command("corefboard")
    .description("Corefboard's coreference scorer: the CoNLL reference scorer's and the CorefUD scorer's metrics, fast.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)");

  program
    .command("score")
    .description("score a response file against a key file")
    .argument("<key>", "key (gold) file")
    .argument("<response>", "response (system output) file")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json"]).default("table"))
    .option(
      "--metrics <list>",
      `comma-separated metrics to compute (${SELECTABLE_METRICS.join(",")}, or conll for ${CONLL_METRICS.join(",")}); default ${METRICS.join(",")}`,
    )
    .addOption(
      new Option("--match <mode>", "mention matching; partial and head need CorefUD CoNLL-U input (default: exact)").choices([
        ...MENTION_MATCHES,
      ]),
    )
    .addOption(
      new Option("--zero-match <mode>", "zero matching for CorefUD CoNLL-U input (default: dependent)").choices([...ZERO_MATCHES]),
    )
    .option("--remove-singletons", "drop singleton entities from key and response before scoring")
    .option("--no-remove-singletons", "keep singleton entities (the default; overrides a preset)")
    .option("--remove-zeros", "drop zeros (mentions headed by an empty node) from key and response before scoring")
    .addOption(
      new Option(
        "--preset <name>",
        `a named setting: crac = --match ${CRAC_PRESET.match} --zero-match ${CRAC_PRESET.zeroMatch} ${CRAC_PRESET.removeSingletons ? "--remove-singletons" : "--no-remove-singletons"} --metrics ${CRAC_PRESET.metrics.join(",")} (the CorefUD scorer's defaults, CRAC's setting); options given explicitly win`,
      ).choices([...PRESET_NAMES]),
    )
    .option("--per-document", "also give each document's scores")
    .addOption(new Option("--bcub-weighting <weighting>", "B³ weighting").choices(["mention", "entity"]).default("mention"))
    .addOption(new Option("--input-format <format>", "input format (default: from the file extension)").choices([...CORPUS_FORMATS]))
    .option(
      "--mapped-cluster-f [threshold]",
      `also compute mapped cluster F ("Mapped F", P95-1038): a response entity maps to a key entity when their F exceeds threshold, a number in [0, 1] (default ${MAPPED_F_THRESHOLD}); put it after KEY and RESPONSE when giving no threshold`,
    )
    .addOption(
      new Option(
        "--threads <n>",
        `read and score on up to this many threads, 1 to ${MAX_SCORING_THREADS} (default 1; inputs under 2 MiB always use 1); the output is the same`,
      ).argParser(parseThreads),
    )
    .action(async (keyPath: string, responsePath: string, options: ScoreOptions) => {
      exitCode = await score(keyPath, responsePath, options, io);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    if (argv.length === 0) {
      io.stderr(program.helpInformation());
      return EXIT_USAGE;
    }
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? EXIT_OK : EXIT_USAGE;
    }
    io.stderr(`corefboard: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * The `evaluate` options that the command-line options ask for: the preset's settings (when
 * `--preset` is given) with every option given explicitly on top, else `evaluate`'s defaults
 * (exact match, dependent zeros, singletons and zeros kept, `METRICS`) with the options given.
 *
 * @param options the options as commander parsed them (absent when not given)
 * @returns the options for `evaluate`; `match`, `zeroMatch`, `removeSingletons`, `removeZeros`
 *   and `metrics` are always set, `bcubWeighting` and `mappedClusterF` as given
 * @throws UsageError (an `Error`) for an unknown metric, an empty `--metrics`, or a bad
 *   `--mapped-cluster-f` threshold
 */
export function evaluateOptionsFrom(options: Omit<ScoreOptions, "format">): EvaluateOptions {
  const explicit: EvaluateOptions = {
    match: options.match,
    zeroMatch: options.zeroMatch,
    removeSingletons: options.removeSingletons,
    removeZeros: options.removeZeros,
    metrics: options.metrics === undefined ? undefined : parseMetrics(options.metrics),
  };
  const base = presetOptions(
    options.preset === undefined
      ? { match: "exact", zeroMatch: "dependent", removeSingletons: false, removeZeros: false, metrics: METRICS }
      : PRESETS[options.preset],
    explicit,
  );
  const out: EvaluateOptions = { ...base, bcubWeighting: options.bcubWeighting };
  const mappedClusterF = parseMappedClusterF(options.mappedClusterF);
  if (mappedClusterF !== undefined) out.mappedClusterF = mappedClusterF;
  return out;
}

async function score(keyPath: string, responsePath: string, options: ScoreOptions, io: Io): Promise<number> {
  let evaluateOptions: EvaluateOptions;
  try {
    evaluateOptions = evaluateOptionsFrom(options);
  } catch (error) {
    io.stderr(`corefboard: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  // Threads start before the files are read, so that their start-up overlaps the reading.
  const format = options.inputFormat ?? detectFormat(keyPath);
  const splittable = format !== "jsonlines" && format === (options.inputFormat ?? detectFormat(responsePath));
  let threads: ScoringThreads | null = null;
  if (splittable) {
    // One thread unless asked for more (see `threadsFor`), and only where the input is worth it.
    let count = 1;
    if (options.threads !== undefined && options.threads > 1) {
      try {
        count = Math.min(options.threads, threadsFor(statSync(keyPath).size + statSync(responsePath).size, format));
      } catch {
        count = 1; // reading below says why
      }
    }
    if (count > 1 && threadsAvailable()) threads = new ScoringThreads(count - 1);
  }
  // The raw bytes: the readers decode them (CoNLL-U line by line, which is faster than
  // decoding the whole file first; see `InputLines`).
  const files: Buffer[] = [];
  for (const path of [keyPath, responsePath]) {
    try {
      files.push(readFileSync(path));
    } catch (error) {
      threads?.close();
      io.stderr(`corefboard: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  try {
    let report: Report | null = null;
    if (threads) {
      const [key, response] = files.map(textOrBytes);
      if (typeof key === "string" && typeof response === "string") {
        const settings = { format: format as SplittableFormat, keyFile: keyPath, responseFile: responsePath, options: evaluateOptions };
        report = await evaluateInParts(key, response, settings, threads);
      }
      threads.close();
    }
    try {
      // The whole files in one thread: always when they do not split, and whenever the parts
      // cannot stand for the whole (a format error, a warning about the whole file, ...).
      // Scoring never reads the words of CoNLL-2012 input: keep only token counts (faster).
      // CorefUD CoNLL-U and CoNLL-2012 are scored document by document as they are read (`evaluateInputs`).
      report ??= evaluateInputs(files[0], files[1], { keyFile: keyPath, responseFile: responsePath, format: options.inputFormat, words: false }, evaluateOptions);
    } catch (error) {
      // evaluate's RangeErrors are settings the input cannot have (head match on CoNLL-2012
      // input, key and response in different formats, ...): usage errors. The engine's own
      // RangeErrors (a stack overflow, an array too long) are internal errors.
      if (error instanceof RangeError && !ENGINE_RANGE_ERROR.test(error.message)) {
        io.stderr(`corefboard: ${error.message}\n`);
        return EXIT_USAGE;
      }
      throw error;
    }
    if (options.format === "json") {
      io.stdout(`${JSON.stringify(reportToJson(report, Boolean(options.perDocument)))}\n`);
    } else {
      for (const w of report.warnings) io.stderr(`warning: ${w.file ? `${w.file}${w.line ? `:${w.line}` : ""}: ` : ""}${w.message}\n`);
      io.stdout(`${settingsLine(report)}\n\n`);
      if (options.perDocument) {
        for (const d of report.perDocument) io.stdout(`${renderTable(d.scores, `Document ${d.id}${d.missingInResponse ? " (missing in response)" : ""}`)}\n`);
      }
      io.stdout(renderTable(report.metrics, `Total over ${report.documents} key document(s)`));
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof FormatError) {
      if (options.format === "json") io.stdout(`${JSON.stringify({ error: error.toJSON() })}\n`);
      io.stderr(`corefboard: format error: ${error.message}\n`);
      return EXIT_FORMAT;
    }
    throw error;
  }
}

/**
 * Parses `--threads`: an integer from 1 to `MAX_SCORING_THREADS`.
 *
 * @throws InvalidArgumentError (commander's; a usage error) for anything else
 */
function parseThreads(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > MAX_SCORING_THREADS) {
    throw new InvalidArgumentError(`an integer from 1 to ${MAX_SCORING_THREADS}`);
  }
  return n;
}

/** Decodes UTF-8, throwing a TypeError at the first malformed byte sequence. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A file's text for scoring in parts (`evaluateInParts` cuts the text at documents) when its
 * bytes are valid UTF-8, else the bytes themselves, so that the reader's `FormatError` gives
 * the line and column of the first bad byte. The reader then treats both alike (one BOM dropped).
 */
function textOrBytes(bytes: Buffer): string | Buffer {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return bytes;
  }
}

/** Messages of the RangeErrors V8 itself throws (not a bad setting). */
const ENGINE_RANGE_ERROR = /^(Maximum call stack size exceeded|Invalid (array|string|typed array) length)/;

/**
 * The line the table starts with: how the files were scored, e.g.
 * `Scored as CorefUD (CorefUD scorer v1.2): head match, dependent zero matching, singletons excluded, zeros kept`
 * or, for CoNLL-2012 and JSON lines input,
 * `Scored as CoNLL-2012 (reference scorer v8.01): exact match, singletons kept`.
 */
export function settingsLine(report: Pick<Report, "scoring">): string {
  const s = report.scoring;
  const singletons = s.removeSingletons ? "singletons excluded" : "singletons kept";
  if (s.mode === "conll2012") return `Scored as CoNLL-2012 (reference scorer v8.01): ${s.match} match, ${singletons}`;
  const zeros = s.removeZeros ? "zeros removed" : `zeros kept, ${s.zeroMatch} zero matching`;
  return `Scored as CorefUD (CorefUD scorer v1.2): ${s.match} match, ${singletons}, ${zeros}`;
}

/**
 * Parses `--metrics muc,bcub,mor`: ids of `SELECTABLE_METRICS`, case-insensitive, in any order,
 * repeats ignored; `conll` expands to the CoNLL F1's metrics (muc, bcub, ceafe).
 *
 * @returns the metrics named, in the order first named
 * @throws UsageError for an unknown name or a list that names none
 */
export function parseMetrics(list: string): SelectableMetric[] {
  const out = new Set<SelectableMetric>();
  for (const raw of list.split(",")) {
    const name = raw.trim().toLowerCase();
    if (name === "") continue;
    if (name === "conll") {
      for (const m of CONLL_METRICS) out.add(m);
    } else if ((SELECTABLE_METRICS as readonly string[]).includes(name)) {
      out.add(name as SelectableMetric);
    } else {
      throw new UsageError(`unknown metric "${raw.trim()}"; choose from ${[...SELECTABLE_METRICS, "conll"].join(", ")}`);
    }
  }
  if (out.size === 0) throw new UsageError("--metrics names no metric");
  return [...out];
}

/**
 * Parses `--mapped-cluster-f [threshold]`: absent → off, alone → the paper's 0.2, else a
 * decimal number in [0, 1] (e.g. `0.5`, `.3`, `1`).
 */
function parseMappedClusterF(value: true | string | undefined): EvaluateOptions["mappedClusterF"] {
  if (value === undefined) return undefined;
  if (value === true) return true;
  const threshold = Number(value);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value.trim()) || !(threshold >= 0 && threshold <= 1)) {
    throw new UsageError(
      `--mapped-cluster-f threshold must be a number in [0, 1], got ${JSON.stringify(value)} (with no threshold, put the option after KEY and RESPONSE)`,
    );
  }
  return { threshold };
}
