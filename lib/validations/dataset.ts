/**
 * A phase's datasets (issue 10 §1) as organizers enter them: the rules of a dataset's name,
 * language, expected file name, format and position, shared by the manage page's forms and
 * the service (`lib/tasks/datasets.ts`).
 *
 * Written without zod, so that the client-side datasets form can import it: zod in a browser
 * bundle probes for `eval`, which the site's CSP forbids (see `track-form.ts`).
 *
 * The rules (the migration's CHECK constraints back up the first three):
 * - name: `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$` (e.g. `cs_pdt`, `en_gum`);
 * - language: "" (not given) or 1–35 letters, digits, `-` and `_` (e.g. `cs`, `en`, `grc`);
 * - fileName: 1–255 characters without `/`, `\` or control characters, not `.` or `..`,
 *   ending as the format requires ({@link DATASET_FILE_ENDINGS}): `.conllu` for `conllu`;
 *   `.conll`, `.gold_conll` / `_gold_conll` (e.g. `english.v4_gold_conll`) or `.txt` for
 *   `conll2012`;
 * - format: `conll2012` or `conllu` (on creation, absent = read from the file name:
 *   `.conllu` is `conllu`, anything else `conll2012`);
 * - position: a whole number 0–10000 (form strings of digits accepted); absent on creation =
 *   after the phase's last dataset.
 */
import type { FieldError } from "../errors";

/** A dataset's file format: CoNLL-2012 (`.conll`) or CorefUD CoNLL-U (`.conllu`). Same as `DatasetFormat` of `lib/tasks/datasets.ts`. */
export type DatasetFormatName = "conll2012" | "conllu";

/** The pattern of a dataset name (the migration's CHECK `datasets_name_check`). */
export const DATASET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The pattern of a non-empty language (a language code, e.g. `cs`, `en`, `pt-BR`). */
export const DATASET_LANGUAGE_PATTERN = /^[A-Za-z0-9_-]{1,35}$/;

/** Longest dataset file name (the migration's CHECK `datasets_file_name_check`). */
export const MAX_DATASET_FILE_NAME = 255;

/** Highest dataset position. */
export const MAX_DATASET_POSITION = 10_000;

/** Most datasets in one phase (CRAC 2025 had 22 CorefUD datasets). */
export const MAX_DATASETS = 100;

/** How a file name of each format may end (lower case; the check ignores case). */
export const DATASET_FILE_ENDINGS: Readonly<Record<DatasetFormatName, readonly string[]>> = {
  conllu: [".conllu"],
  conll2012: [".conll", ".gold_conll", "_gold_conll", ".txt"],
};

/** What forms call each format. */
export const DATASET_FORMAT_LABELS: Readonly<Record<DatasetFormatName, string>> = {
  conll2012: "CoNLL-2012 (.conll)",
  conllu: "CorefUD CoNLL-U (.conllu)",
};

/** The format of a coreference file by its name: `conllu` for `.conllu`, else `conll2012` (CoNLL-2012, or JSON lines, whose mentions are spans too). */
export function fileFormatOf(fileName: string): DatasetFormatName {
  return fileName.toLowerCase().endsWith(".conllu") ? "conllu" : "conll2012";
}

/** Whether a file name ends as `format` requires ({@link DATASET_FILE_ENDINGS}). */
export function fileNameFitsFormat(fileName: string, format: DatasetFormatName): boolean {
  const lower = fileName.toLowerCase();
  return DATASET_FILE_ENDINGS[format].some((ending) => lower.endsWith(ending) && lower.length > ending.length);
}

/**
 * `fileName` with the usual ending of `format` in place of its own coreference-file ending
 * (`main.conll` → `main.conllu`; `key.v4_gold_conll` → `key.v4.conllu`); unchanged when it
 * already fits.
 */
export function fileNameForFormat(fileName: string, format: DatasetFormatName): string {
  if (fileNameFitsFormat(fileName, format)) return fileName;
  const stem = fileName.replace(/(\.conllu|\.conll|[._]gold_conll|\.txt|\.jsonl|\.jsonlines|\.json)$/i, "") || "dataset";
  return `${stem}${format === "conllu" ? ".conllu" : ".conll"}`;
}

/** A validated new dataset. */
export interface DatasetInput {
  name: string;
  language: string;
  fileName: string;
  format: DatasetFormatName;
  /** null: after the phase's last dataset */
  position: number | null;
}

/** A validated change to a dataset: the fields given (absent = unchanged). */
export type DatasetPatch = Partial<Omit<DatasetInput, "position"> & { position: number }>;

/** What a dataset's form shows: its fields as text. */
export interface DatasetFormValues {
  name: string;
  language: string;
  fileName: string;
  format: string;
  position: string;
}

/** The form values of a stored dataset. */
export function datasetFormValues(dataset: { name: string; language: string; fileName: string; format: string; position: number }): DatasetFormValues {
  return { name: dataset.name, language: dataset.language, fileName: dataset.fileName, format: dataset.format, position: String(dataset.position) };
}

const FIELDS = ["name", "language", "fileName", "format", "position"] as const;

/** The problem of a name, or null. */
function nameProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return "required";
  if (!DATASET_NAME_PATTERN.test(value.trim())) {
    return "letters, digits, _ . and - only, starting with a letter or digit, at most 64 characters (e.g. en_gum)";
  }
  return null;
}

function languageProblem(value: unknown): string | null {
  if (typeof value !== "string") return "expected text (or empty when not given)";
  const v = value.trim();
  return v === "" || DATASET_LANGUAGE_PATTERN.test(v) ? null : "a language code of letters, digits, - and _ (e.g. en, cs, pt-BR), at most 35 characters, or empty";
}

function fileNameShapeProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return "required";
  const v = value.trim();
  if (/[/\\]/.test(v)) return "a file name without folders (no / or \\)";
  if (/[\p{Cc}\p{Cf}]/u.test(v)) return "must not contain control characters";
  if (v === "." || v === "..") return "not a file name";
  if (v.length > MAX_DATASET_FILE_NAME) return `at most ${MAX_DATASET_FILE_NAME} characters`;
  return null;
}

function formatProblem(value: unknown): string | null {
  return value === "conll2012" || value === "conllu" ? null : 'expected "conll2012" or "conllu"';
}

/** The position as a number, or NaN when it is not a whole number in range. */
function positionValue(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 0 && n <= MAX_DATASET_POSITION ? n : Number.NaN;
}

/** The message of a file name that does not end as its format requires. */
export function fileNameFormatProblem(fileName: string, format: DatasetFormatName): string {
  const endings = DATASET_FILE_ENDINGS[format].join(", ");
  return `${fileName} does not fit the ${DATASET_FORMAT_LABELS[format]} format: the file name must end in ${endings}`;
}

/** Field errors of an object that is not a plain object or has unknown fields. */
function shapeProblems(input: unknown): FieldError[] | null {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return [{ path: "", message: "expected an object with the dataset's fields" }];
  const unknown = Object.keys(input).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) return [{ path: "", message: `unknown field${unknown.length === 1 ? "" : "s"} ${unknown.map((k) => JSON.stringify(k)).join(", ")}; expected ${FIELDS.join(", ")}` }];
  return null;
}

/**
 * Checks a new dataset's fields (see the module comment).
 *
 * @param input `{name, language?, fileName, format?, position?}` as JSON or form strings
 * @returns the trimmed fields, or the field errors (one per bad field; `""` for the object itself)
 */
export function checkDatasetInput(input: unknown): { data: DatasetInput; errors: [] } | { data: null; errors: FieldError[] } {
  const shape = shapeProblems(input);
  if (shape) return { data: null, errors: shape };
  const raw = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const add = (path: string, message: string | null) => {
    if (message) errors.push({ path, message });
  };
  add("name", nameProblem(raw.name));
  add("language", raw.language === undefined || raw.language === null ? null : languageProblem(raw.language));
  add("fileName", fileNameShapeProblem(raw.fileName));
  const formatGiven = raw.format !== undefined && raw.format !== null && raw.format !== "";
  add("format", formatGiven ? formatProblem(raw.format) : null);
  const positionGiven = raw.position !== undefined && raw.position !== null && raw.position !== "";
  const position = positionGiven ? positionValue(raw.position) : null;
  if (position !== null && Number.isNaN(position)) add("position", `a whole number from 0 to ${MAX_DATASET_POSITION} (or empty: after the last dataset)`);
  if (errors.length > 0) return { data: null, errors };
  const fileName = (raw.fileName as string).trim();
  const format = formatGiven ? (raw.format as DatasetFormatName) : fileFormatOf(fileName);
  if (!fileNameFitsFormat(fileName, format)) return { data: null, errors: [{ path: "fileName", message: fileNameFormatProblem(fileName, format) }] };
  return {
    data: { name: (raw.name as string).trim(), language: typeof raw.language === "string" ? raw.language.trim() : "", fileName, format, position },
    errors: [],
  };
}

/**
 * Checks a change to a dataset: any subset of its fields. Whether the file name fits the
 * format is checked on the merged dataset by the service ({@link fileNameFitsFormat}).
 *
 * @param input any subset of `{name, language, fileName, format, position}`
 * @returns the trimmed fields given, or the field errors
 */
export function checkDatasetPatch(input: unknown): { data: DatasetPatch; errors: [] } | { data: null; errors: FieldError[] } {
  const shape = shapeProblems(input);
  if (shape) return { data: null, errors: shape };
  const raw = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const data: DatasetPatch = {};
  /** Records the field's problem, or its trimmed value when it has none. */
  const take = (path: "name" | "language" | "fileName", value: unknown, problem: string | null) => {
    if (problem) errors.push({ path, message: problem });
    else data[path] = (value as string).trim();
  };
  if (raw.name !== undefined) take("name", raw.name, nameProblem(raw.name));
  if (raw.language !== undefined) {
    const language = raw.language === null ? "" : raw.language;
    take("language", language, languageProblem(language));
  }
  if (raw.fileName !== undefined) take("fileName", raw.fileName, fileNameShapeProblem(raw.fileName));
  if (raw.format !== undefined) {
    const problem = formatProblem(raw.format);
    if (problem) errors.push({ path: "format", message: problem });
    else data.format = raw.format as DatasetFormatName;
  }
  if (raw.position !== undefined) {
    const position = positionValue(raw.position);
    if (Number.isNaN(position)) errors.push({ path: "position", message: `a whole number from 0 to ${MAX_DATASET_POSITION}` });
    else data.position = position;
  }
  return errors.length > 0 ? { data: null, errors } : { data, errors: [] };
}
