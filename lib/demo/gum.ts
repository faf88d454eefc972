/**
 * The data of the demo task "GUM multi-genre (CorefUD demo)": the 12 documents of the official
 * GUM test split in the six genres whose texts are openly licensed (academic, bio, court,
 * interview, news, voyage; 2 documents each), as CorefUD CoNLL-U with GUM's native
 * coreference (`Entity=` in MISC), pinned by commit and sha256.
 *
 * Source: `amir-zeldes/gum` at `GUM_COMMIT`, folder `dep/` (the source of CorefUD's `en_gum`);
 * Zeldes (2017), "The GUM Corpus: Creating Multilayer Resources in the Classroom", LRE 51(3).
 * Annotations CC BY 4.0; texts CC BY 4.0 (academic, court), CC BY 2.5 (interview, news:
 * Wikinews), CC BY-SA 3.0 (bio: Wikipedia; voyage: Wikivoyage) — see `GUM_GENRES` and
 * `lib/demo/data/gum/README.md`.
 *
 * Where the files come from, in order: the gzip-compressed copy shipped in the repository
 * (`lib/demo/data/gum/`, one file per document, with the licence and attribution), so that a
 * machine without network access gets the demo; `../shared/data/gum/corefud-conllu` next to
 * the checkout when it exists; else a download from the GUM repository at the pinned commit
 * (to regenerate the shipped copy). Every file's sha256 (of the uncompressed text) is checked.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pinnedSource, readPinnedFiles, type PinnedFile, type PinnedSource } from "./pinned";

/** The GUM commit the demo files are pinned to (2025-05-12, the GUM v11 line). */
export const GUM_COMMIT = "72ce5ac14978a324c2fd18d49484e65292cbe316";

/** A genre of the demo: its text licence and its documents (newdoc ids), in the official test split. */
export interface GumGenre {
  genre: "academic" | "bio" | "court" | "interview" | "news" | "voyage";
  /** The licence of the texts (the annotations are CC BY 4.0 throughout). */
  textLicense: string;
  /** Where the texts come from. */
  textSource: string;
  documents: readonly string[];
}

/** The six genres, in this order; their documents are the official GUM test split of each. */
export const GUM_GENRES: readonly GumGenre[] = [
  { genre: "academic", textLicense: "CC BY 4.0", textSource: "DH2017 proceedings, LSA proceedings, PLOS", documents: ["GUM_academic_discrimination", "GUM_academic_eegimaa"] },
  { genre: "bio", textLicense: "CC BY-SA 3.0", textSource: "Wikipedia", documents: ["GUM_bio_dvorak", "GUM_bio_jespersen"] },
  { genre: "court", textLicense: "CC BY 4.0", textSource: "public court documents (see each document's metadata)", documents: ["GUM_court_insanity", "GUM_court_mitigation"] },
  { genre: "interview", textLicense: "CC BY 2.5", textSource: "Wikinews", documents: ["GUM_interview_hill", "GUM_interview_libertarian"] },
  { genre: "news", textLicense: "CC BY 2.5", textSource: "Wikinews", documents: ["GUM_news_nasa", "GUM_news_sensitive"] },
  { genre: "voyage", textLicense: "CC BY-SA 3.0", textSource: "Wikivoyage", documents: ["GUM_voyage_oakland", "GUM_voyage_vavau"] },
];

/** The sha256 of each document's file (`<newdoc id>.conllu`), identical to `dep/` at `GUM_COMMIT`. */
const SHA256: Readonly<Record<string, string>> = {
  GUM_academic_discrimination: "df29f72ae5125a3d2537c786b8e39533d65a52ddebad656df612e932a93f2122",
  GUM_academic_eegimaa: "441b54d0d24310797e54e47ad72d8cd168af17b7f7b323a8812b664120563558",
  GUM_bio_dvorak: "db476c03ead404ca2aba519bc6e0725885bd039675eecbe3f3dd76ab471e9720",
  GUM_bio_jespersen: "2407cf21caab43fb1f2827feafbef898418ec5667fdfdc6ba96b133a0d0c93da",
  GUM_court_insanity: "417abc45c15556266694cdb01f12f35b920caed280e96e007c0c13d8404b3739",
  GUM_court_mitigation: "78eff7dc888e64e3590d59bc25aa03b5e712146f4e700ac3d5fe757179c73535",
  GUM_interview_hill: "9721b032aabdc813dbfd50f20e3f7d15448da804d5d6b8266e09a733865c95fb",
  GUM_interview_libertarian: "b2ba54ecade03d10d74b0f03d66fa53086c498196eb15a261a6fe932e3fe484d",
  GUM_news_nasa: "696310b38c0914695702ad3042cd6c982bd5fe345b0532898bcfc58e40c05ebb",
  GUM_news_sensitive: "01b215d758cbc0cd99b8f76dd798b2c34ac59a49d18366bd85c73ad872943beb",
  GUM_voyage_oakland: "a2a4728ba93559a241d3d7085de71c22df7861d639c898a621236c5ce392513a",
  GUM_voyage_vavau: "ae8b7c2bc1e342a4e7282b68a4129d19a110f342fedb0dadcdee7769729c1ce5",
};

/** A demo file: its name, sha256, the document it holds and its genre. */
export interface GumDemoFile extends PinnedFile {
  /** The newdoc id of its one document. */
  document: string;
  genre: GumGenre["genre"];
}

/** The 12 demo files in genre order, then document order (the order of the gold key). */
export const GUM_DEMO_FILES: readonly GumDemoFile[] = GUM_GENRES.flatMap((g) =>
  g.documents.map((document) => ({ name: `${document}.conllu`, sha256: SHA256[document], document, genre: g.genre })),
);

/** Licence and source, shown on the demo task's page. */
export const GUM_ATTRIBUTION = {
  license:
    "Annotations CC BY 4.0; texts CC BY 4.0 (academic, court), CC BY 2.5 (interview, news: Wikinews) and CC BY-SA 3.0 " +
    "(bio: Wikipedia; voyage: Wikivoyage; ShareAlike: redistributions of these texts keep CC BY-SA). See https://creativecommons.org/licenses/.",
  source:
    `GUM (https://github.com/amir-zeldes/gum, commit ${GUM_COMMIT.slice(0, 8)}, dep/; https://gucorpling.org/gum/): Amir Zeldes (2017), ` +
    '"The GUM Corpus: Creating Multilayer Resources in the Classroom", Language Resources and Evaluation 51(3), 581–612. ' +
    "Documents: the official test split of the genres academic, bio, court, interview, news and voyage (2 each), unchanged.",
} as const;

/** The URL a demo file is downloaded from when no local copy exists. */
export function gumUrl(name: string): string {
  return `https://raw.githubusercontent.com/amir-zeldes/gum/${GUM_COMMIT}/dep/${name}`;
}

/** The repository root. */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The copy shipped in the repository: `lib/demo/data/gum/<name>.gz`. */
export function shippedGumDir(): string {
  return path.join(REPO, "lib", "demo", "data", "gum");
}

/** The default shared-data folder: `../shared/data/gum/corefud-conllu` next to the checkout. */
export function sharedGumDir(): string {
  return path.resolve(REPO, "../shared/data/gum/corefud-conllu");
}

/** Where the GUM files were found. */
export type GumSource = Exclude<PinnedSource, "DEMO_DATA_DIR">;

/** The demo's files with their document and genre. */
export interface GumDemoData {
  source: GumSource;
  /** where (folder or URL prefix) */
  location: string;
  files: (GumDemoFile & { bytes: Buffer })[];
}

/**
 * Finds and verifies the 12 GUM demo files.
 *
 * @param options.shippedDir overrides the shipped copy's folder (tests)
 * @param options.sharedDir overrides the shared-data folder (tests)
 * @param options.fetch the function used to download (defaults to the global `fetch`)
 * @returns the files in the order of `GUM_DEMO_FILES`, with where they came from
 * @throws Error naming the file when one is missing, cannot be downloaded, or has the wrong sha256
 */
export async function loadGumDemo(options: { shippedDir?: string; sharedDir?: string; fetch?: typeof fetch } = {}): Promise<GumDemoData> {
  const shipped = options.shippedDir ?? shippedGumDir();
  const shared = options.sharedDir ?? sharedGumDir();
  const { source, location, read } = pinnedSource({ shipped, shared, urlOf: gumUrl, get: options.fetch ?? fetch });
  const files = await readPinnedFiles(GUM_DEMO_FILES, source, location, read);
  return { source: source as GumSource, location, files: files.map((f, i) => ({ ...GUM_DEMO_FILES[i], bytes: f.bytes })) };
}

/**
 * The gold key of the demo's one phase: the documents concatenated in `GUM_DEMO_FILES` order
 * (each file is one `# newdoc id` document ending with a blank line).
 */
export function gumDemoKey(files: readonly { bytes: Buffer }[]): Buffer {
  return Buffer.concat(files.map((f) => f.bytes));
}

/** One dataset of the GUM demo phase: a genre, with its gold key. */
export interface GumDemoDataset {
  /** e.g. "en_gum_bio" */
  name: string;
  language: "en";
  /** the file name a run's archive holds it under, e.g. "en_gum_bio-corefud-test.conllu" */
  fileName: string;
  genre: GumGenre["genre"];
  /** the genre's documents concatenated in `GUM_DEMO_FILES` order */
  key: Buffer;
}

/**
 * The datasets of the GUM demo phase, one per genre in `GUM_GENRES` order (CRAC names its
 * datasets `<language>_<corpus>`; here the corpus is split by genre), each with the gold key of
 * its two documents.
 *
 * @param files the 12 demo files with their bytes (`loadGumDemo`)
 * @returns six datasets
 */
export function gumDemoDatasets(files: readonly (GumDemoFile & { bytes: Buffer })[]): GumDemoDataset[] {
  return GUM_GENRES.map((g) => {
    const name = `en_gum_${g.genre}`;
    return { name, language: "en", fileName: `${name}-corefud-test.conllu`, genre: g.genre, key: gumDemoKey(files.filter((f) => f.genre === g.genre)) };
  });
}

