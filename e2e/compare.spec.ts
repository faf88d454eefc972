/**
 * The compare page (issue 12 §2, §3) and the leaderboard charts of the same runs (§2):
 *
 * - with no runs chosen, the page offers pickers (a phase, then two of its runs), not id fields;
 * - choosing two runs shows the comparison, and the "significant" badge names the better run
 *   (on both orders: A, then B after swapping);
 * - with one run given (`?a=`), it offers the runs to compare it with;
 * - no sideways page scroll at 390 px on any step; the tables scroll in focusable regions;
 *   0 axe violations (WCAG 2.1 A and AA) at 1280 and 390 px;
 * - the leaderboard's charts: a run has the same colour in the bar chart, the scatter and the
 *   legend; runs at the same recall and precision are drawn apart; the scatter's legend sits
 *   below its drawing, clear of the axis title.
 *
 * The data: a key of 30 small documents (each: two people, mentioned twice); team Alpha
 * submits the key itself (perfect), team Beta a run that merges the two people in every
 * document, and team Gamma the very same file as Beta (same scores, same point in the
 * scatter). Perfect against merged differs on all 30 documents the same way, so the paired
 * bootstrap's p-value is its smallest (1/1,001) on CoNLL F1: significant, A better.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { expectAccessibleAtWidths, expectNoAxeViolations, expectNoSidewaysScroll } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { conll, openPhase, seedScoredRuns } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta" | "gamma";

const DOCS = 30;

/** One document's rows: Anna and Ben, each mentioned twice; `merged` puts all four mentions in one entity. */
function rows(merged: boolean): string[] {
  const ben = merged ? 1 : 2;
  return ["Anna\t(1)", "met\t-", `Ben\t(${ben})`, ".\t-", "", "She\t(1)", "thanked\t-", `him\t(${ben})`, ".\t-"];
}

/** A file of DOCS documents. */
function file(merged: boolean): string {
  return conll(...Array.from({ length: DOCS }, (_, i) => [`d${String(i).padStart(2, "0")}`, rows(merged)] as [string, string[]]));
}

const KEY = file(false);
const MERGED = file(true);

const PERFECT_NAME = "alpha-perfect";
const MERGED_NAME = "beta-merged";
const TWIN_NAME = "gamma-same-file";

let scenario: Scenario<Users>;
let slug = "";
let phaseId = "";
let perfectId = "";
let mergedId = "";
let twinId = "";

const comparePath = (a: string, b: string) => `/compare?a=${a}&b=${b}`;

test.describe.serial("the compare page", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scenario = await setupScenario<Users>({
      users: { organizer: {}, alpha: {}, beta: {}, gamma: {} },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"], "Team Gamma": ["gamma"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: KEY, as: "organizer" }] },
    });
    slug = scenario.task!.slug;
    phaseId = scenario.task!.phases.test.id;
    const run = (user: "alpha" | "beta" | "gamma", team: string, text: string, systemName: string) => ({ teamId: scenario.teams[team]!.id, submitterId: scenario.users[user].id, systemName, fileName: "out.conll", text });
    [perfectId, mergedId, twinId] = await seedScoredRuns(phaseId, [run("alpha", "Team Alpha", KEY, PERFECT_NAME), run("beta", "Team Beta", MERGED, MERGED_NAME), run("gamma", "Team Gamma", MERGED, TWIN_NAME)]);
  });

  test("with no runs chosen, the page offers a phase, then two of its runs, and no id fields", async ({ page }) => {
    expect((await page.goto("/compare"))?.status()).toBe(200);
    await expect(page).toHaveTitle(/^Compare runs · /);
    await expect(page.locator('main input:not([type="hidden"])')).toHaveCount(0);
    const phase = page.getByLabel("Phase", { exact: true });
    await expect(phase).toBeVisible();
    await expect(phase.locator(`option[value="${phaseId}"]`)).toHaveText("test (3 runs)");
    await phase.selectOption(phaseId);
    await page.getByRole("button", { name: "Choose runs" }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?phase=${phaseId}$`));
    await expect(page).toHaveTitle(/^Compare runs of .*: test · /);

    const a = page.getByLabel("Run A", { exact: true });
    const b = page.getByLabel("Run B", { exact: true });
    await expect(a.locator("option")).toHaveCount(3);
    await expect(b.locator("option")).toHaveCount(3);
    // Best first by CoNLL F1: the perfect run leads, with its score.
    await expect(a.locator("option").first()).toHaveText(new RegExp(`${PERFECT_NAME} · 100\\.00 % CoNLL F1$`));
    await expect(page.locator('main input:not([type="hidden"])')).toHaveCount(0);
  });

  test("choosing two runs shows the comparison, and the badge names the better run", async ({ page }) => {
    await page.goto(`/compare?phase=${phaseId}`);
    await page.getByLabel("Run A", { exact: true }).selectOption(perfectId);
    await page.getByLabel("Run B", { exact: true }).selectOption(mergedId);
    await page.getByRole("button", { name: "Compare", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?a=${perfectId}&b=${mergedId}$`));
    await expect(page).toHaveTitle(`Compare ${PERFECT_NAME} and ${MERGED_NAME} · Corefboard`);

    const conllRow = page.getByTestId("compare-metrics").getByTestId("compare-metric-conll");
    await expect(conllRow).toHaveAttribute("data-significant", "true");
    await expect(conllRow.getByTestId("compare-p")).toHaveText("< 0.001");
    const badge = conllRow.getByTestId("compare-significant");
    await expect(badge).toHaveText(`Run A (${PERFECT_NAME}) is better (p < 0.001)`);
    await expect(badge).toHaveAttribute("data-better", "A");
    await expect(page.getByTestId("compare-headline")).toContainText(`On CoNLL F1, run A (${PERFECT_NAME}) is better by`);

    // Swapped, the same run is better: now it is B.
    await page.getByTestId("compare-swap").click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?a=${mergedId}&b=${perfectId}$`));
    const swapped = page.getByTestId("compare-metric-conll").getByTestId("compare-significant");
    await expect(swapped).toHaveText(`Run B (${PERFECT_NAME}) is better (p < 0.001)`);
    await expect(swapped).toHaveAttribute("data-better", "B");

    // Runs with the same documents' scores: no metric differs significantly.
    await page.goto(comparePath(mergedId, twinId));
    await expect(page.getByTestId("compare-significant")).toHaveCount(0);
    await expect(page.getByTestId("compare-metric-conll").getByTestId("compare-not-significant")).toHaveText("No significant difference (p = 1.000)");
  });

  test("with one run given, the page offers the runs to compare it with; the same run twice says why", async ({ page }) => {
    await page.goto(`/compare?a=${perfectId}`);
    await expect(page.getByTestId("compare-first-run")).toContainText(PERFECT_NAME);
    const b = page.getByLabel("Run B", { exact: true });
    await expect(b.locator("option")).toHaveCount(2);
    await b.selectOption(mergedId);
    await page.getByRole("button", { name: "Compare", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?a=${perfectId}&b=${mergedId}$`));
    await expect(page.getByTestId("compare-metric-conll").getByTestId("compare-significant")).toHaveAttribute("data-better", "A");

    await page.goto(comparePath(perfectId, perfectId));
    await expect(page.getByTestId("compare-error")).toContainText("Choose two different runs to compare.");
    await expect(page.getByLabel("Run B", { exact: true })).toBeVisible();
  });

  test("no step scrolls sideways at 390 px, the tables scroll in focusable regions, and axe finds nothing", async ({ page }) => {
    const paths = ["/compare", `/compare?phase=${phaseId}`, `/compare?a=${perfectId}`, comparePath(perfectId, mergedId)];
    // Signed in as an organizer the comparison also has the per-document table.
    await signInPage(page, scenario.users.organizer);
    for (const path of paths) await expectAccessibleAtWidths(page, path);
    await page.goto(comparePath(perfectId, mergedId));
    for (const name of ["Paired bootstrap comparison per metric", "CoNLL F1 (mean of MUC, B³ and CEAFe F1) per document, largest difference first"]) {
      const region = page.getByRole("region", { name });
      await expect(region).toHaveAttribute("tabindex", "0");
      await region.focus();
      await expect(region).toBeFocused();
    }
    // Signed out, at 390 px, the comparison (without per-document scores) stays inside the screen too.
    await page.context().clearCookies();
    await page.goto(comparePath(perfectId, mergedId));
    await expect(page.getByTestId("compare-documents-hidden")).toBeVisible();
    await expectNoSidewaysScroll(page, "the comparison, signed out");
    await expectNoAxeViolations(page, "the comparison, signed out, at 390 px");
  });

  test("the leaderboard's charts give a run one colour, draw identical runs apart, and keep the legend off the axis title", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/tasks/${slug}/phases/${phaseId}/leaderboard`);
    const bars = page.getByTestId("leaderboard-f1-chart-drawing");
    const scatter = page.getByTestId("leaderboard-pr-chart-drawing");
    await expect(bars.locator("svg path[data-run]")).toHaveCount(3);
    await expect(scatter.locator("svg path[data-run]")).toHaveCount(3);

    const fills = async (scope: Locator, selector: string): Promise<Record<string, string | null>> =>
      Object.fromEntries(await scope.locator(selector).evaluateAll((els) => els.map((el) => [el.getAttribute("data-run") ?? el.closest("[data-run]")?.getAttribute("data-run"), el.getAttribute("fill")])));
    const barFills = await fills(bars, "svg path[data-run]");
    const markerFills = await fills(scatter, "svg path[data-run]");
    const legendFills = await fills(page.getByTestId("leaderboard-pr-legend"), "li[data-run] path");
    for (const id of [perfectId, mergedId, twinId]) {
      expect(barFills[id], `bar of ${id}`).toMatch(/^var\(--run-colour-\d\)$/);
      expect(markerFills[id], `marker of ${id}`).toBe(barFills[id]);
      expect(legendFills[id], `legend of ${id}`).toBe(barFills[id]);
    }
    expect(new Set(Object.values(barFills)).size).toBe(3);

    // Beta and Gamma sent the same file: their markers are both visible, apart.
    const centre = async (id: string) => {
      const box = (await scatter.locator(`svg path[data-run="${id}"]`).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const [m, t] = [await centre(mergedId), await centre(twinId)];
    expect(Math.hypot(m.x - t.x, m.y - t.y)).toBeGreaterThanOrEqual(8);

    // The legend is below the drawing, so it cannot cover the "Recall (%)" axis title.
    const drawing = (await scatter.boundingBox())!;
    const legend = (await page.getByTestId("leaderboard-pr-legend").boundingBox())!;
    expect(legend.y).toBeGreaterThanOrEqual(drawing.y + drawing.height);
    const axisTitle = (await scatter.locator("text", { hasText: "Recall (%)" }).boundingBox())!;
    expect(axisTitle.y + axisTitle.height).toBeLessThanOrEqual(drawing.y + drawing.height + 0.5);
  });
});
