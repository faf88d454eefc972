/** The pure checks of a gold key upload (checkGoldUpload, checkGoldFile of gold.ts), on contexts built in memory: no database, no upload pool. */
import { describe, expect, it } from "vitest";
import { ConflictError, TooLargeError, ValidationError } from "../errors";
import type { DatasetView } from "./datasets";
import type { PhaseWithTask } from "./phases";
import { checkGoldFile, checkGoldUpload, type GoldUploadContext } from "./gold";

const CONLL2012 = { evaluationProfile: "conll2012", mentionMatching: "exact", keepSingletons: true, zeroMatching: "dependent" };
const CRAC = { ...CONLL2012, evaluationProfile: "crac" };

function phase(task: Record<string, unknown> = {}): PhaseWithTask {
  return { id: "phase-1", taskId: "task-1", name: "Test", task: { status: "PUBLISHED", ...CONLL2012, ...task } } as unknown as PhaseWithTask;
}

function dataset(name: string, format: DatasetView["format"] = "conll2012"): DatasetView {
  return { id: `ds-${name}`, phaseId: "phase-1", name, language: "", fileName: `${name}.${format === "conllu" ? "conllu" : "conll"}`, format, position: 0 };
}

function context(datasets: DatasetView[], over: Partial<GoldUploadContext> = {}): Pick<GoldUploadContext, "phase" | "datasets" | "unsetFormat"> {
  return { phase: phase(), datasets, unsetFormat: new Set(), ...over };
}

/** The error `run` throws (fails when it throws nothing). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("checkGoldUpload", () => {
  it("gives the cleaned file name and the trimmed dataset reference (null when blank)", () => {
    expect(checkGoldUpload({ phase: phase() }, "some/dir/key.conll", 10, { datasetId: "  en_gum " })).toEqual({ name: "key.conll", ref: "en_gum" });
    expect(checkGoldUpload({ phase: phase() }, "key.conll", 10, { datasetId: "  " })).toEqual({ name: "key.conll", ref: null });
    expect(checkGoldUpload({ phase: phase() }, "key.conll", 10, {})).toEqual({ name: "key.conll", ref: null });
  });

  it("refuses an archived task (409) before the size (413)", () => {
    const archived = thrown(() => checkGoldUpload({ phase: phase({ status: "ARCHIVED" }) }, "key.conll", 2 ** 40, {}));
    expect(archived).toBeInstanceOf(ConflictError);
    expect((archived as ConflictError).message).toBe("This task is archived: its gold keys can no longer change. Unarchive the task to upload a new gold key.");
    expect(thrown(() => checkGoldUpload({ phase: phase() }, "key.conll", 2 ** 40, {}))).toBeInstanceOf(TooLargeError);
  });
});

describe("checkGoldFile", () => {
  const en = dataset("en");
  const cs = dataset("cs");

  it("a file of its dataset's format switches nothing", () => {
    expect(checkGoldFile(context([en, cs]), { dataset: en, fileName: "en.conll", bytes: new Uint8Array() })).toBeNull();
  });

  it("the phase's only dataset, and a dataset whose format was never set, adopt the file's format", () => {
    expect(checkGoldFile(context([en]), { dataset: en, fileName: "key.conllu", bytes: new Uint8Array() })).toBe("conllu");
    expect(checkGoldFile(context([en, cs], { unsetFormat: new Set([en.id]) }), { dataset: en, fileName: "key.conllu", bytes: new Uint8Array() })).toBe("conllu");
  });

  it("refuses another format than a set dataset's (422, field file)", () => {
    const error = thrown(() => checkGoldFile(context([en, cs]), { dataset: en, fileName: "en.conllu", bytes: new Uint8Array() })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toEqual([
      { path: "file", message: 'en.conllu is a CorefUD CoNLL-U (.conllu) file, but the dataset "en" takes CoNLL-2012 (.conll) files (expected file name en.conll).' },
    ]);
  });

  it("refuses a file the task's evaluation profile cannot score (head match needs .conllu)", () => {
    const error = thrown(() => checkGoldFile({ ...context([en]), phase: phase(CRAC) }, { dataset: en, fileName: "key.conll", bytes: new Uint8Array() })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors[0].path).toBe("file");
    expect(error.message).toContain("which only CorefUD CoNLL-U (.conllu) files have; key.conll is not one.");
  });
});
