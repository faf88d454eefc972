/**
 * A participant's path: sign up (confirming the address from the mailed link, then signing
 * in), open a phase's submit page (quota box), have an invalid run rejected with its line number, upload a valid run through the form (progress bar to
 * 100 %), land on the submission page, watch the status go to SCORED without a reload, check
 * every number of the metric table against the scorer library, and find the run on the
 * leaderboard.
 *
 * Setup (task with an open phase and a gold key) goes through e2e/helpers (admin CLI and the
 * e2e seed script against the server's throwaway database).
 *
 * Holding scoring back: to see QUEUED/SCORING on the page deterministically, the test keeps
 * an EXCLUSIVE lock on the `scores` table while it uploads and opens the submission page. The
 * worker marks the run SCORING, scores it, and then waits to write its scores (the status
 * change to SCORED is in the same transaction) until the test releases the lock; the upload
 * and the submission page only read that table, which EXCLUSIVE mode allows. (The upload reads
 * `gold_keys` itself now, for its document check, so that table cannot be the one held.)
 * Without this, a fast worker could finish before the page first renders.
 */
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { evaluate, FormatError, readConll2012, type Report } from "../scoring/index";
import { signInPage, signUpThroughUi, type TestUser } from "./helpers/accounts";
import { serverDatabaseUrl } from "./helpers/server";
import { conll, createTask, openPhase, SMALL_KEY, SMALL_RESPONSE, uploadGold, type TestTask } from "./helpers/tasks";

const DAILY = 5;
const TOTAL = 10;

/** A response whose third line has a broken coreference cell. */
const INVALID_RESPONSE = conll(["alpha", ["John\t(1)", "saw\t-", "Mary\t(x", ".\t-"]]);

/** The scorer's own verdict on the invalid file: where the FormatError points. */
function expectedFormatError(): { line: number; column: number } {
  try {
    readConll2012(INVALID_RESPONSE, "broken.conll");
  } catch (error) {
    if (error instanceof FormatError) return { line: error.line, column: error.column };
    throw error;
  }
  throw new Error("INVALID_RESPONSE parsed without error");
}

/** Percent with 2 decimals as table cells write it (the "%" is in the column header), computed here independently of the app's formatting. */
const pct = (x: number) => (x * 100).toFixed(2);
/** A count as shown under a percentage: whole numbers plainly, others to 10 significant digits. */
const count = (x: number) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(10))));

let task: TestTask;
let phaseId: string;
let user: TestUser;
let submissionUrl: string;
const systemName = `e2e-system-${Date.now().toString(36)}`;

function submitPath(): string {
  return `/tasks/${task.slug}/phases/${phaseId}/submit`;
}

async function chooseFile(page: Page, name: string, text: string) {
  await page.getByLabel("System output file").setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(text) });
}

test.describe.serial("participant", () => {
  // A reader outside UTC, so that "your time" differs from the UTC and AoE times.
  test.use({ timezoneId: "Europe/Prague" });

  test.beforeAll(async () => {
    task = await createTask({ phases: [openPhase("test", { dailyLimit: DAILY, totalLimit: TOTAL, displayTimeZone: "AoE" })] });
    phaseId = task.phases.test.id;
    await uploadGold(phaseId, SMALL_KEY, { fileName: "key.conll" });
  });

  test("sign up, then the submit page shows the window, the quota and the team", async ({ page }) => {
    user = await signUpThroughUi(page, { label: "participant" });
    await page.goto(submitPath());
    await expect(page.getByRole("heading", { level: 1 })).toContainText("test phase");
    await expect(page.getByTestId("phase-closes")).toContainText("AoE");
    const quota = page.getByTestId("quota-box");
    await expect(quota.getByTestId("quota-today")).toHaveText(`${DAILY} of ${DAILY} left`);
    await expect(quota.getByTestId("quota-total")).toHaveText(`${TOTAL} of ${TOTAL} left`);
    await expect(quota.getByTestId("quota-reset")).toContainText("00:00 UTC");
    // The reset time in the reader's zone is filled in by the browser.
    await expect(quota.getByTestId("quota-reset-local")).toContainText("Europe/Prague");
    await expect(page.getByTestId("submitting-team")).toContainText("a one-person team will be created for you");
  });

  test("an invalid run is rejected on the submit page with its line number; no quota is used", async ({ page }) => {
    const { line, column } = expectedFormatError();
    await signInPage(page, user);
    await page.goto(submitPath());
    await chooseFile(page, "broken.conll", INVALID_RESPONSE);
    await page.getByLabel("System name").fill("broken run");
    await page.getByRole("button", { name: "Upload and score" }).click();
    const error = page.getByTestId("upload-error");
    await expect(error).toBeVisible();
    await expect(error.getByTestId("format-error-location").first()).toHaveText(`broken.conll:${line}:${column}`);
    await expect(error).toContainText("expected");
    await expect(error).toContainText("found");
    await expect(page).toHaveURL(new RegExp(`${submitPath()}$`));

    await page.reload();
    await expect(page.getByTestId("quota-today")).toHaveText(`${DAILY} of ${DAILY} left`);
  });

  test("upload a valid run: progress to 100 %, then the status turns SCORED without a reload", async ({ page }) => {
    await signInPage(page, user);
    await page.goto(submitPath());
    await chooseFile(page, "system.conll", SMALL_RESPONSE);
    await page.getByLabel("System name").fill(systemName);
    await page.getByLabel("Description (optional)").fill("An end-to-end test run.");
    await page.getByLabel("Code URL (optional)").fill("https://example.org/code");

    // Record every value the progress bar shows (the page changes client-side, so this survives).
    await page.evaluate(() => {
      const w = window as unknown as { __progress: string[] };
      w.__progress = [];
      new MutationObserver(() => {
        document.querySelectorAll('[role="progressbar"]').forEach((el) => w.__progress.push(el.getAttribute("aria-valuenow") ?? ""));
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
    });

    const lock = new pg.Client({ connectionString: serverDatabaseUrl() });
    await lock.connect();
    let locked = false;
    try {
      await lock.query("BEGIN");
      await lock.query("LOCK TABLE scores IN EXCLUSIVE MODE");
      locked = true;

      await page.getByRole("button", { name: "Upload and score" }).click();
      await expect(page).toHaveURL(/\/submissions\/[0-9a-f-]{36}$/);
      const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
      expect(progress).toContain("100");

      const badge = page.getByTestId("run-status");
      await expect(badge).toHaveText(/^(QUEUED|SCORING)$/);
      submissionUrl = page.url();
      // From here on: no document load and no URL change. (Next's router may re-write the
      // history entry in place on refresh: a same-document event with the same URL.)
      const urls: string[] = [];
      let documentLoads = 0;
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) urls.push(frame.url());
      });
      page.on("domcontentloaded", () => (documentLoads += 1));
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

      await lock.query("COMMIT");
      locked = false;

      await expect(badge).toHaveText("SCORED", { timeout: 30_000 });
      await expect(page.getByTestId("metric-table")).toBeVisible();
      expect(page.url()).toBe(submissionUrl);
      expect(documentLoads).toBe(0);
      expect(urls.every((u) => u === submissionUrl), urls.join(" ")).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    } finally {
      if (locked) await lock.query("ROLLBACK").catch(() => {});
      await lock.end();
    }
  });

  test("the metric table matches the scorer library exactly", async ({ page }) => {
    await signInPage(page, user);
    await page.goto(submissionUrl);
    const report: Report = evaluate(readConll2012(SMALL_KEY, "key.conll"), readConll2012(SMALL_RESPONSE, "system.conll"));
    const m = report.metrics;
    await expect(page.getByTestId("system-name")).toHaveText(systemName);
    await expect(page.getByTestId("gold-version")).toHaveText("1");
    await expect(page.getByTestId("scorer-version")).not.toHaveText(/not scored/);

    for (const name of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"] as const) {
      const s = m[name]!;
      const recall = page.getByTestId(`${name}-recall`);
      const precision = page.getByTestId(`${name}-precision`);
      const f1 = page.getByTestId(`${name}-f1`);
      await expect(recall, `${name} recall`).toHaveText(pct(s.recall));
      await expect(precision, `${name} precision`).toHaveText(pct(s.precision));
      await expect(f1, `${name} F1`).toHaveText(pct(s.f1));
      // The raw fractions, on demand.
      await expect(page.getByTestId(`${name}-recall-fraction`), `${name} recall fraction`).toHaveText(`${count(s.recallNum)}/${count(s.recallDen)}`);
      await expect(page.getByTestId(`${name}-precision-fraction`), `${name} precision fraction`).toHaveText(`${count(s.precisionNum)}/${count(s.precisionDen)}`);
      // The exact fraction and value on hover.
      await expect(recall.locator("[title]")).toHaveAttribute("title", `${count(s.recallNum)}/${count(s.recallDen)} = ${s.recall}`);
      await expect(f1.locator("[title]")).toHaveAttribute("title", new RegExp(`= ${String(s.f1).replace(".", "\\.")} \\(R = `));
    }
    const b = m.blanc!;
    await expect(page.getByTestId("blanc-recall")).toContainText(pct(b.recall));
    await expect(page.getByTestId("blanc-recall-fraction")).toHaveText(`${b.coref.recallNum}/${b.coref.recallDen} · ${b.noncoref.recallNum}/${b.noncoref.recallDen}`);
    await expect(page.getByTestId("blanc-precision")).toContainText(pct(b.precision));
    await expect(page.getByTestId("blanc-f1")).toHaveText(pct(b.f1));
    await expect(page.getByTestId("conll-f1")).toHaveText(pct(m.conll!.f1));
    await expect(page.getByTestId("conll-f1").locator("[title]")).toHaveAttribute("title", new RegExp(`${String(m.conll!.f1).replace(".", "\\.")}$`));
  });

  test("the run is on the phase leaderboard, and the quota box counts it", async ({ page }) => {
    await signInPage(page, user);
    await page.goto(`/tasks/${task.slug}/phases/${phaseId}/leaderboard`);
    const row = page.getByTestId("board-row").filter({ hasText: systemName });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("board-rank")).toHaveText("1");
    await expect(row.getByTestId("board-team")).not.toBeEmpty();
    await row.getByRole("link", { name: systemName }).click();
    await expect(page).toHaveURL(submissionUrl);

    await page.goto(submitPath());
    await expect(page.getByTestId("quota-today")).toHaveText(`${DAILY - 1} of ${DAILY} left`);
    await expect(page.getByTestId("quota-total")).toHaveText(`${TOTAL - 1} of ${TOTAL} left`);
    await expect(page.getByTestId("submitting-team")).toContainText("Submitting as team");
    // The first run fixed the team for the task: no other team is offered.
    await expect(page.getByTestId("submitting-team")).toContainText("you submit for this team in every phase of this task");
  });
});
