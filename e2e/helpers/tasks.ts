/**
 * Tasks, gold keys, runs and coreference files for end-to-end tests. Tasks are created by a
 * site admin and gold keys uploaded by an organizer through the e2e-only
 * `e2e/helpers/seed.ts` (the same services the app uses), against the server's database;
 * runs are uploaded through the API, as participants' scripts do, or, where the upload
 * itself is not under test, written scored through the database ({@link seedScoredRuns}).
 */
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import type { GoldKeyMeta } from "../../lib/tasks/gold";
import type { ScoredRunsPlan } from "./seed";
import { bearer, createUser, type TestUser } from "./accounts";
import { runScript, uniqueTag } from "./server";
import { openPhase, type TestPhaseInput } from "./fixtures";

export { closedPhase, conll, openPhase, SMALL_KEY, SMALL_RESPONSE, type TestPhaseInput } from "./fixtures";

/** A task created for a test. */
export interface TestTask {
  id: string;
  slug: string;
  /** phases by name */
  phases: Record<string, { id: string; name: string }>;
}

/** Creates a site admin once per worker process and re-uses it. */
let sharedAdmin: Promise<TestUser> | undefined;

/** A site admin for setup (created on first use, shared by the tests of one worker). */
function setupAdmin(): Promise<TestUser> {
  sharedAdmin ??= createUser({ admin: true, label: "admin" });
  return sharedAdmin;
}

/**
 * Creates a task as a site admin (who becomes its organizer).
 *
 * @param options `slug` (default unique "e2e-<tag>"), `title`, `phases` (default one open
 *   phase "test"), `admin` (default {@link setupAdmin}), `primaryMetric`
 * @returns the task's id, slug and phases by name
 */
export async function createTask(
  options: { slug?: string; title?: string; phases?: TestPhaseInput[]; admin?: TestUser; primaryMetric?: string } = {},
): Promise<TestTask> {
  const admin = options.admin ?? (await setupAdmin());
  const slug = options.slug ?? `e2e-${uniqueTag()}`;
  const input = {
    slug,
    title: options.title ?? `E2E task ${slug}`,
    description: "A task created by an end-to-end test.",
    ...(options.primaryMetric ? { primaryMetric: options.primaryMetric } : {}),
    phases: (options.phases ?? [openPhase()]).map((p) => ({
      ...p,
      opensAt: new Date(p.opensAt).toISOString(),
      closesAt: new Date(p.closesAt).toISOString(),
    })),
  };
  const { stdout } = await runScript("e2e/helpers/seed.ts", ["create-task", "--as", admin.email], { stdin: JSON.stringify(input) });
  const created = JSON.parse(stdout.trim().split("\n").pop()!) as { id: string; slug: string; phases: { id: string; name: string }[] };
  return { id: created.id, slug: created.slug, phases: Object.fromEntries(created.phases.map((p) => [p.name, p])) };
}

/**
 * Makes a user an organizer of a task (as the admin by default, through `addOrganizer`).
 */
export async function addOrganizer(task: Pick<TestTask, "id">, user: Pick<TestUser, "email">, options: { as?: TestUser } = {}): Promise<void> {
  const as = options.as ?? (await setupAdmin());
  await runScript("e2e/helpers/seed.ts", ["add-organizer", "--as", as.email, "--task", task.id, "--email", user.email]);
}

/** Gold key metadata as the seed commands print it (the service's `GoldKeyMeta`, in part). */
export type TestGoldMeta = Pick<GoldKeyMeta, "id" | "version" | "fileName" | "sha256" | "size" | "documents" | "stats">;

/**
 * Uploads a gold key to a phase as an organizer of its task (the admin by default).
 *
 * @param text the key file; `fileName`'s extension picks the format (default "key.conll")
 * @returns the new version's metadata
 */
export async function uploadGold(phaseId: string, text: string, options: { fileName?: string; as?: TestUser } = {}): Promise<TestGoldMeta> {
  const as = options.as ?? (await setupAdmin());
  const { stdout } = await runScript(
    "e2e/helpers/seed.ts",
    ["upload-gold", "--as", as.email, "--phase", phaseId, "--file-name", options.fileName ?? "key.conll"],
    { stdin: text },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as TestGoldMeta;
}

/**
 * Uploads a run with `POST /api/v1/phases/{phaseId}/submissions` and a bearer token, and
 * expects 202.
 *
 * @param text the file: text, or bytes (an archive)
 * @param fileName the uploaded file's name (default "out.conll")
 * @param options `acknowledgeWarnings`: confirm the document-name warnings (a run whose documents
 *   differ from the gold key's is otherwise refused with 409 on a phase whose check is "warn");
 *   `track`: the run's track, by id or name (required on a phase with tracks)
 * @returns the new submission's id
 */
export async function postRun(
  request: APIRequestContext,
  phaseId: string,
  token: string,
  text: string | Uint8Array,
  systemName: string,
  fileName = "out.conll",
  options: { acknowledgeWarnings?: boolean; track?: string } = {},
): Promise<string> {
  const response = await request.post(`/api/v1/phases/${phaseId}/submissions`, {
    headers: bearer(token),
    multipart: {
      file: { name: fileName, mimeType: typeof text === "string" ? "text/plain" : "application/octet-stream", buffer: Buffer.from(text) },
      systemName,
      ...(options.acknowledgeWarnings ? { acknowledgeWarnings: "true" } : {}),
      ...(options.track ? { track: options.track } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Stores runs in a one-dataset phase and scores them with the worker's own job, in this
 * process (`scored-runs` of ./seed.ts): the board gets the rows the worker writes, without an
 * upload, the queue or the site's worker. Runs are made in order, a millisecond apart (the
 * earlier run first on ties). For tests of the pages that show runs; the upload → queue →
 * worker → board pipeline has its own smoke tests (whole-task.spec.ts, datasets.spec.ts).
 *
 * @returns the submissions' ids, in order
 */
export async function seedScoredRuns(phaseId: string, runs: ScoredRunsPlan["runs"]): Promise<string[]> {
  const { stdout } = await runScript("e2e/helpers/seed.ts", ["scored-runs"], { stdin: JSON.stringify({ phaseId, runs } satisfies ScoredRunsPlan) });
  return JSON.parse(stdout.trim().split("\n").pop()!) as string[];
}

/**
 * Polls `GET /api/v1/submissions/{id}` as `token` until the worker has scored the run; fails
 * when it is not SCORED within 60 s.
 */
export async function waitScored(request: APIRequestContext, id: string, token: string): Promise<void> {
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/submissions/${id}`, { headers: bearer(token) })).json()) as { status: string }).status, {
      timeout: 60_000,
      intervals: [250, 500, 1000],
    })
    .toBe("SCORED");
}

/**
 * Reloads a leaderboard page until its significance markers are no longer being computed (the
 * worker computes and stores them after runs are scored; a page view never does), for up to
 * `timeoutMs`.
 *
 * @throws Error when they are still pending at the deadline
 */
export async function waitForSignificance(page: Page, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await page.getByTestId("significance-pending").count()) > 0) {
    if (Date.now() > deadline) throw new Error(`the board's significance was still being computed after ${timeoutMs} ms`);
    await page.waitForTimeout(1000);
    await page.reload();
  }
}

/** A dataset as the datasets API answers it (in part). */
export interface TestDataset {
  id: string;
  name: string;
  language: string;
  /** the name a run's archive holds the dataset's file under */
  fileName: string;
}

/**
 * Adds a dataset to a phase with `POST /api/v1/phases/{phaseId}/datasets` as an organizer's
 * token, and expects 201.
 *
 * @param dataset its name, language ("" or absent: none) and expected file name (its ending
 *   sets the format: `.conll` for CoNLL-2012, `.conllu` for CorefUD)
 * @returns the new dataset
 */
export async function addDataset(request: APIRequestContext, phaseId: string, token: string, dataset: { name: string; language?: string; fileName: string }): Promise<TestDataset> {
  const response = await request.post(`/api/v1/phases/${phaseId}/datasets`, { headers: bearer(token), data: dataset });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { dataset: TestDataset }).dataset;
}

/** A phase's datasets in its order, as `GET /api/v1/phases/{phaseId}/datasets` lists them. */
export async function listDatasets(request: APIRequestContext, phaseId: string): Promise<TestDataset[]> {
  const response = await request.get(`/api/v1/phases/${phaseId}/datasets`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { datasets: TestDataset[] }).datasets;
}

/**
 * Uploads a gold key for one dataset of a phase with `POST /api/v1/phases/{phaseId}/gold`
 * (`dataset` named) as an organizer's token, and expects 201 (a new version).
 *
 * @param fileName the uploaded file's name (its ending must fit the dataset's format)
 */
export async function uploadDatasetGold(request: APIRequestContext, phaseId: string, token: string, dataset: string, fileName: string, text: string): Promise<void> {
  const response = await request.post(`/api/v1/phases/${phaseId}/gold`, {
    headers: bearer(token),
    multipart: { file: { name: fileName, mimeType: "text/plain", buffer: Buffer.from(text) }, dataset },
  });
  expect(response.status(), await response.text()).toBe(201);
}
