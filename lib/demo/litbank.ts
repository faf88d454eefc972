/**
 * The demo task's data: the 10 LitBank documents of the LREC 2020 fold-0 test list
 * (Bamman, Lewke & Mansoor 2020, CC BY 4.0), pinned by commit and sha256.
 *
 * Where the files come from, in order: `DEMO_DATA_DIR` when set; the gzip-compressed copy
 * shipped in the repository (`lib/demo/data/litbank/`, with its licence and attribution), so
 * that a machine without network access gets the demo; `../shared/data/litbank-demo/conll`
 * next to the checkout when it exists; else a download from the LitBank repository at the
 * pinned commit (to regenerate the shipped copy). Every file's sha256 (of the uncompressed
 * text) is checked in every case, so every machine gets exactly the same task.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pinnedSource, readPinnedFiles, type PinnedSource } from "./pinned";

/** The LitBank commit the demo files are pinned to. */
export const LITBANK_COMMIT = "3e50db0ffc033d7ccbb94f4d88f6b99210328ed8";

/** The demo documents in file-name order, with their sha256. */
export const LITBANK_DEMO_FILES: readonly { name: string; sha256: string }[] = [
  { name: "1023_bleak_house_brat.conll", sha256: "2771286534c8886eabc5cbddbe3f1906b7a6e62f0495a5017a705bf4429c963a" },
  { name: "1155_the_secret_adversary_brat.conll", sha256: "a8a6d0d06ec7d0850825df8776c65bc0f508e5777adbb3793698fab9e3a0808b" },
  { name: "16357_mary_a_fiction_brat.conll", sha256: "c4d2eda60b050cb164c5c3a037615587a58b2c1dea1eedf49c395c89bb0cd13f" },
  { name: "1661_the_adventures_of_sherlock_holmes_brat.conll", sha256: "66ba70ee858e685078b47e3c01c036b3a9410a27a9219057c881ca502e9ace59" },
  { name: "238_dear_enemy_brat.conll", sha256: "a6b8292f200f90fe96a99133697320475222dd139cbaa80e1160cbe3550699ec" },
  { name: "271_black_beauty_brat.conll", sha256: "87d4dc7469517ed37d772fe66f8eaf3b43d1e088757d1dc4aacdbebe479845f0" },
  { name: "2807_to_have_and_to_hold_brat.conll", sha256: "88f41fd60b11eb578bb09ab68fa6b24e422e157fbe9a7b898ebd978675502990" },
  { name: "6593_history_of_tom_jones_a_foundling_brat.conll", sha256: "dbb1d20d9946ae1046a21f3af07b13d27f08c8b07308380a176565d80d9d9498" },
  { name: "711_allan_quatermain_brat.conll", sha256: "b09b044183397f0b6352326a38286849fb3501880ef7572af9fcbc771c302034" },
  { name: "730_oliver_twist_brat.conll", sha256: "f81bf99f86a3354a62208ca01015816d28a87acc171332d50cbcf784304c364c" },
];

/** Licence and source, shown on the demo task's page. */
export const LITBANK_ATTRIBUTION = {
  license: "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
  source:
    "LitBank (https://github.com/dbamman/litbank, commit 3e50db0f, coref/conll/): David Bamman, Olivia Lewke and Anya Mansoor (2020), " +
    '"An Annotated Dataset of Coreference in English Literature", LREC 2020. Documents: the fold-0 test list of the LREC 2020 ten-fold split.',
} as const;

/** The URL a demo file is downloaded from when no local copy exists. */
export function litbankUrl(name: string): string {
  return `https://raw.githubusercontent.com/dbamman/litbank/${LITBANK_COMMIT}/coref/conll/${name}`;
}

/** Where the files were found. */
export type DemoSource = PinnedSource;

export interface DemoFiles {
  source: DemoSource;
  /** where (folder or URL prefix) */
  location: string;
  files: { name: string; bytes: Buffer }[];
}

/** The repository root. */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The default shared-data folder: `../shared/data/litbank-demo/conll` next to the checkout. */
export function sharedDemoDir(): string {
  return path.resolve(REPO, "../shared/data/litbank-demo/conll");
}

/** The copy shipped in the repository: `lib/demo/data/litbank/<name>.gz`. */
export function shippedDemoDir(): string {
  return path.join(REPO, "lib", "demo", "data", "litbank");
}

/**
 * Finds and verifies the 10 demo files.
 *
 * @param options.dataDir overrides `process.env.DEMO_DATA_DIR`
 * @param options.shippedDir overrides the shipped copy's folder (tests)
 * @param options.sharedDir overrides the shared-data folder (tests)
 * @param options.fetch the function used to download (defaults to the global `fetch`)
 * @returns the files in file-name order, with where they came from
 * @throws Error naming the file when one is missing, cannot be downloaded, or has the
 *   wrong sha256
 */
export async function loadLitbankDemo(
  options: { dataDir?: string; shippedDir?: string; sharedDir?: string; fetch?: typeof fetch } = {},
): Promise<DemoFiles> {
  const dataDir = options.dataDir ?? process.env.DEMO_DATA_DIR;
  const shipped = options.shippedDir ?? shippedDemoDir();
  const shared = options.sharedDir ?? sharedDemoDir();
  const { source, location, read } = pinnedSource({ dataDir, shipped, shared, urlOf: litbankUrl, get: options.fetch ?? fetch });
  const files = await readPinnedFiles(LITBANK_DEMO_FILES, source, location, read);
  return { source, location, files };
}

/** The gold key of the demo task: the files concatenated in file-name order. */
export function concatenateKey(files: readonly { bytes: Buffer }[]): Buffer {
  return Buffer.concat(files.map((f) => f.bytes));
}
