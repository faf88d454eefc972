/**
 * The `corefboard` command line.
 *
 *   corefboard score KEY RESPONSE [--format table|json] [--metrics muc,bcub,...]
 *                                 [--per-document] [--remove-singletons]
 *                                 [--bcub-weighting mention|entity]
 *                                 [--input-format conll2012|conllu|jsonlines]
 *                                 [--mapped-cluster-f [threshold]]
 *
 * Exit codes: 0 scored; 2 bad usage (unknown option or metric, unreadable file);
 * 3 a format error in KEY or RESPONSE (printed with file, line and column).
 */
import { readFile } from "node:fs/promises";
import { Command, CommanderError, Option } from "commander";
import { MAPPED_F_THRESHOLD } from "../analysis/mapped-cluster-f.js";
import { evaluate, METRICS, type EvaluateOptions, type MetricName } from "../evaluate.js";
import { CORPUS_FORMATS, readCorpus, type CorpusFormat } from "../formats/index.js";
import { FormatError } from "../types.js";
import { renderTable, reportToJson } from "./format.js";

/** Where the CLI writes; injected so tests can capture output. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit code: scored (warnings, if any, do not change it). */
export const EXIT_OK = 0;
/** Exit code: bad usage (unknown option or metric, unreadable file). */
export const EXIT_USAGE = 2;
/** Exit code: a `FormatError` in KEY or RESPONSE. */
export const EXIT_FORMAT = 3;

class UsageError extends Error {}

interface ScoreOptions {
  format: "table" | "json";
  metrics?: string;
  perDocument?: boolean;
  removeSingletons?: boolean;
  bcubWeighting: "mention" | "entity";
  inputFormat?: CorpusFormat;
  /** `true` for the flag alone, the threshold text when one is given. */
  mappedClusterF?: true | string;
}

/**
 * Runs the CLI with `argv` (without `node` and the script name).
 *
 * @param argv the arguments, e.g. `["score", "key.conll", "response.conll", "--format", "json"]`
 * @param io where the output goes: the table or JSON (percentages in the table, fractions in
 *   [0, 1] in JSON) to `stdout`, warnings, help and errors to `stderr`
 * @returns the exit code (`EXIT_OK`, `EXIT_USAGE`, `EXIT_FORMAT`, or 1 for an internal
 *   error, whose stack is printed); never throws
 */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command("corefboard")
    .description("Corefboard's coreference scorer: the CoNLL reference scorer's metrics, fast.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)");

  program
    .command("score")
    .description("score a response file against a key file")
    .argument("<key>", "key (gold) file")
    .argument("<response>", "response (system output) file")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json"]).default("table"))
    .option("--metrics <list>", `comma-separated metrics to compute (${METRICS.join(",")}); default all`)
    .option("--per-document", "also give each document's scores")
    .option("--remove-singletons", "drop singleton entities from key and response before scoring")
    .addOption(new Option("--bcub-weighting <weighting>", "B³ weighting").choices(["mention", "entity"]).default("mention"))
    .addOption(new Option("--input-format <format>", "input format (default: from the file extension)").choices([...CORPUS_FORMATS]))
    .option(
      "--mapped-cluster-f [threshold]",
      `also compute mapped cluster F ("Mapped F", P95-1038): a response entity maps to a key entity when their F exceeds threshold, a number in [0, 1] (default ${MAPPED_F_THRESHOLD}); put it after KEY and RESPONSE when giving no threshold`,
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

async function score(keyPath: string, responsePath: string, options: ScoreOptions, io: Io): Promise<number> {
  let metrics: MetricName[];
  let mappedClusterF: EvaluateOptions["mappedClusterF"];
  try {
    metrics = parseMetrics(options.metrics);
    mappedClusterF = parseMappedClusterF(options.mappedClusterF);
  } catch (error) {
    io.stderr(`corefboard: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  const files: Buffer[] = [];
  for (const path of [keyPath, responsePath]) {
    try {
      files.push(await readFile(path));
    } catch (error) {
      io.stderr(`corefboard: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  try {
    const key = readCorpus(files[0], keyPath, { format: options.inputFormat });
    const response = readCorpus(files[1], responsePath, { format: options.inputFormat });
    const report = evaluate(key, response, {
      metrics,
      removeSingletons: options.removeSingletons,
      bcubWeighting: options.bcubWeighting,
      mappedClusterF,
    });
    if (options.format === "json") {
      io.stdout(`${JSON.stringify(reportToJson(report, Boolean(options.perDocument)))}\n`);
    } else {
      for (const w of report.warnings) io.stderr(`warning: ${w.file ? `${w.file}${w.line ? `:${w.line}` : ""}: ` : ""}${w.message}\n`);
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

/** Parses `--metrics muc,bcub`; `conll` expands to muc, bcub and ceafe. */
function parseMetrics(list: string | undefined): MetricName[] {
  if (list === undefined) return [...METRICS];
  const out = new Set<MetricName>();
  for (const raw of list.split(",")) {
    const name = raw.trim().toLowerCase();
    if (name === "") continue;
    if (name === "conll") {
      out.add("muc").add("bcub").add("ceafe");
    } else if ((METRICS as readonly string[]).includes(name)) {
      out.add(name as MetricName);
    } else {
      throw new UsageError(`unknown metric "${raw.trim()}"; choose from ${[...METRICS, "conll"].join(", ")}`);
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
