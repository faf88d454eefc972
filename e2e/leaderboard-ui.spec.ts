/**
 * The leaderboard page as readers use it (issue 12 §2, §3, §7), on a board of 60 scored runs
 * from 60 teams:
 *
 * - rank, team and system stay in place when the table scrolls sideways (its scroll region
 *   is reachable with the keyboard), and the ranking column comes right after them;
 * - a click on a column header ranks the board by it: the URL gets `?metric=`, `aria-sort`
 *   moves to that header, the rows follow, and the page starts again at page 1; each metric
 *   keeps a small link to its explanation page;
 * - 50 rows a page: "Next" shows rows 51–60 with their board ranks, "First page" goes back;
 * - the team search keeps the matching teams (any case) with their ranks on the whole board;
 * - "Show 95 % intervals" puts the intervals next to the ranking column, on screen at 1280 px;
 * - signed in, the viewer's team's row is highlighted and says "(your team)";
 * - no sideways page scroll at 390 px, and 0 axe violations (WCAG 2.0/2.1 A and AA) at 1280
 *   and 390 px, signed out (first and second page, widest table, a search) and signed in
 *   (the page with the team's highlighted row); the page has a specific title.
 *
 * And a board of three datasets (issue 24 §1), its runs uploaded as archives and scored by the
 * site's worker: at 1280 px its macro view shows the macro-average and every dataset's column
 * on screen, each headed by its dataset's name, with the best of each column marked (a tie
 * both); "All metrics" brings the other columns back and links keep it; "Skip to results"
 * moves the focus to the table; no sideways page scroll at 390 px, and 0 axe violations.
 *
 * The data: one key document of 64 two-mention entities (128 one-word mentions). Run i
 * (team i, i = 0…59) splits the first s = ⌊i/6⌋ entities into singletons and merges m = i mod 6
 * pairs of the entities 32… into one entity each. Splits cost MUC recall and merges cost less
 * MUC precision than B³/CEAF precision, so MUC orders the runs differently from CoNLL. Every
 * expected order and rank is computed here with the scorer library (ties share a rank; the
 * earlier submission first). The runs are written scored through the database by the worker's own
 * job (`seedScoredRuns`), not uploaded: the upload pipeline has its own smoke tests.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { makeZip } from "../lib/uploads/archive.fixtures";
import { evaluate, readConll2012, type MetricScores } from "../scoring/index";
import { bearer, signInPage } from "./helpers/accounts";
import { DESKTOP_AND_PHONE, expectAccessibleAtWidths, type ColourScheme } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { addDataset, conll, listDatasets, openPhase, postRun, seedScoredRuns, uploadDatasetGold, waitScored } from "./helpers/tasks";

const RUNS = 60;
const PAGE_SIZE = 50;
const ENTITIES = 64;

/** A one-document file: mention k (word k) gets the cell `(<ids[k]>)`; a sentence break every 16 words. */
function file(ids: number[]): string {
  const rows: string[] = [];
  ids.forEach((id, k) => {
    if (k > 0 && k % 16 === 0) rows.push("");
    rows.push(`w${k}\t(${id})`);
  });
  return conll(["d1", rows]);
}

/** Entity ids of the key: words 2e and 2e+1 are entity e. */
const KEY = file(Array.from({ length: 2 * ENTITIES }, (_, k) => Math.floor(k / 2)));

/** Run i's design: s split entities, m merged pairs. */
const design = (i: number) => ({ s: Math.floor(i / 6), m: i % 6 });

/** Run i's response. */
function response(i: number): string {
  const { s, m } = design(i);
  const ids = Array.from({ length: 2 * ENTITIES }, (_, k) => Math.floor(k / 2));
  for (let e = 0; e < s; e++) {
    ids[2 * e] = 1000 + 2 * e;
    ids[2 * e + 1] = 1001 + 2 * e;
  }
  // Merge entity 32+2j+1 into entity 32+2j.
  for (let j = 0; j < m; j++) {
    const keep = 32 + 2 * j;
    ids[2 * (keep + 1)] = keep;
    ids[2 * (keep + 1) + 1] = keep;
  }
  return file(ids);
}

const systemName = (i: number) => `sys-s${design(i).s}-m${design(i).m}`;
const pad = (i: number) => String(i).padStart(2, "0");
const userKey = (i: number) => `u${pad(i)}`;
const teamLabel = (i: number) => `Team ${pad(i)}`;

const key = readConll2012(KEY, "key.conll");
const scores: MetricScores[] = Array.from({ length: RUNS }, (_, i) => evaluate(key, readConll2012(response(i), `r${i}.conll`)).metrics);
type Ranked = "conll" | "muc";
const f1 = (i: number, metric: Ranked) => (metric === "conll" ? scores[i].conll!.f1 : scores[i].muc!.f1);

/** The expected board: run indices in board order (F1 descending, earlier run first) and each one's competition rank. */
function expected(metric: Ranked): { order: number[]; rank: (i: number) => number } {
  const order = Array.from({ length: RUNS }, (_, i) => i).sort((a, b) => f1(b, metric) - f1(a, metric) || a - b);
  return { order, rank: (i) => 1 + order.filter((o) => f1(o, metric) > f1(i, metric)).length };
}

let scenario: Scenario<string>;
let boardPath = "";
/** submission ids by run index */
const ids: string[] = [];

/** The x position of an element's left edge. */
async function left(locator: Locator): Promise<number> {
  return (await locator.boundingBox())!.x;
}

/** The test ids of the table's first header row, in order. */
async function headerIds(page: Page): Promise<(string | null)[]> {
  return page.getByTestId("leaderboard-table").locator("thead tr").first().locator("th").evaluateAll((ths) => ths.map((th) => th.getAttribute("data-testid")));
}

/** The systems of board rows, in order, as expected for run indices. */
const systems = (indices: number[]) => indices.map(systemName);

test.describe.serial("the leaderboard page: sticky columns, sorting, paging, team search", () => {
  test.beforeAll(async () => {
    test.setTimeout(600_000);
    // The design: MUC and CoNLL order the runs differently, also on the first page.
    expect(systems(expected("muc").order.slice(0, PAGE_SIZE))).not.toEqual(systems(expected("conll").order.slice(0, PAGE_SIZE)));

    const users: Record<string, object> = {};
    const teams: Record<string, string[]> = {};
    for (let i = 0; i < RUNS; i++) {
      users[userKey(i)] = {};
      teams[teamLabel(i)] = [userKey(i)];
    }
    scenario = await setupScenario<string>({ users, teams, task: { phases: [openPhase("test")], gold: [{ phase: "test", text: KEY }] } });
    boardPath = `/tasks/${scenario.task!.slug}/phases/${scenario.task!.phases.test.id}/leaderboard`;
    // What is under test is the page, not the upload: the runs are written scored through the
    // database by the worker's own job, one after the other (the submission times order ties).
    const runs = Array.from({ length: RUNS }, (_, i) => ({
      teamId: scenario.teams[teamLabel(i)]!.id,
      submitterId: scenario.users[userKey(i)].id,
      systemName: systemName(i),
      fileName: `r${i}.conll`,
      text: response(i),
    }));
    ids.push(...(await seedScoredRuns(scenario.task!.phases.test.id, runs)));
  });

  test("the page has a specific title, and the ranking column comes right after rank, team and system", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(boardPath);
    await expect(page).toHaveTitle(`Leaderboard · test phase · E2E task ${scenario.task!.slug} · Corefboard`);
    expect((await headerIds(page)).slice(0, 4)).toEqual(["col-rank", "col-team", "col-system", "col-conll"]);
    // At 1280 px the ranking column is on screen.
    const conll = (await page.getByTestId("col-conll").boundingBox())!;
    expect(conll.x + conll.width).toBeLessThanOrEqual(1280);
  });

  test("rank, team and system stay in place when the table scrolls sideways; the region takes the keyboard", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${boardPath}?rp=1`);
    const region = page.getByTestId("leaderboard-scroll");
    await expect(region).toHaveAttribute("role", "region");
    await expect(region).toHaveAttribute("tabindex", "0");
    await expect(region).toHaveAttribute("aria-label", /.+/);
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

    const row = page.getByTestId("board-row").first();
    const fixed = [row.locator("td").first(), row.getByTestId("board-team"), row.getByTestId("board-system"), page.getByTestId("col-rank"), page.getByTestId("col-system")];
    const far = row.getByTestId("cell-blanc-f1");
    const before = await Promise.all(fixed.map(left));
    const farBefore = await left(far);
    // Opaque, so the cells scrolled under them do not show through.
    for (const cell of fixed.slice(0, 3)) expect(await cell.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);

    // The keyboard scrolls the focused region.
    await region.focus();
    await expect(region).toBeFocused();
    for (let k = 0; k < 5; k++) await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await region.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await expect.poll(async () => farBefore - (await left(far))).toBeGreaterThan(100);
    const after = await Promise.all(fixed.map(left));
    for (const [i, x] of after.entries()) expect(Math.abs(x - before[i]), `fixed cell ${i} moved`).toBeLessThanOrEqual(1);
  });

  test("a click on a column header ranks the board by it; aria-sort follows; the metric keeps its explanation link", async ({ page }) => {
    await page.goto(`${boardPath}?rp=1`);
    await expect(page.getByTestId("col-conll")).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByTestId("col-muc")).not.toHaveAttribute("aria-sort", /./);
    await expect(page.getByTestId("board-system")).toHaveText(systems(expected("conll").order.slice(0, PAGE_SIZE)));
    await expect(page.getByTestId("metric-link-muc")).toHaveAttribute("href", "/metrics/muc");

    // From page 2: sorting starts again at page 1 and keeps the other parameters.
    await page.getByTestId("board-next").click();
    await expect(page).toHaveURL(/[?&]cursor=/);
    await page.getByTestId("sort-muc").click();
    await expect(page).toHaveURL(/[?&]metric=muc(&|$)/);
    await expect(page).toHaveURL(/[?&]rp=1(&|$)/);
    await expect(page).not.toHaveURL(/cursor=/);
    await expect(page.getByTestId("col-muc")).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByTestId("col-conll")).not.toHaveAttribute("aria-sort", /./);
    expect((await headerIds(page)).slice(0, 4)).toEqual(["col-rank", "col-team", "col-system", "col-muc"]);
    await expect(page.getByTestId("ranked-by")).toHaveText("MUC F1");
    const muc = expected("muc");
    await expect(page.getByTestId("board-system")).toHaveText(systems(muc.order.slice(0, PAGE_SIZE)));
    await expect(page.getByTestId("board-rank")).toHaveText(muc.order.slice(0, PAGE_SIZE).map((i) => String(muc.rank(i))));
    // The MUC F1 column reads downwards from the best.
    const values = (await page.getByTestId("cell-muc-f1").locator("[data-exact]").evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-exact")))));
    expect(values).toEqual([...values].sort((a, b) => b - a));

    // The explanation link is separate from the sorting link.
    await page.getByTestId("metric-link-bcub").click();
    await expect(page).toHaveURL(/\/metrics\/bcub$/);
  });

  test("50 rows a page: Next shows rows 51–60 with their board ranks, First page goes back", async ({ page }) => {
    const conll = expected("conll");
    await page.goto(boardPath);
    await expect(page.getByTestId("board-row")).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId("board-page-summary")).toHaveText(`Rows 1–${PAGE_SIZE} of ${RUNS}`);
    await expect(page.getByTestId("board-first")).toHaveCount(0);

    await page.getByTestId("board-next").click();
    await expect(page).toHaveURL(/[?&]cursor=/);
    await expect(page.getByTestId("board-row")).toHaveCount(RUNS - PAGE_SIZE);
    await expect(page.getByTestId("board-page-summary")).toHaveText(`Rows ${PAGE_SIZE + 1}–${RUNS} of ${RUNS}`);
    const rest = conll.order.slice(PAGE_SIZE);
    await expect(page.getByTestId("board-system")).toHaveText(systems(rest));
    await expect(page.getByTestId("board-rank")).toHaveText(rest.map((i) => String(conll.rank(i))));
    await expect(page.getByTestId("board-next")).toHaveCount(0);

    await page.getByTestId("board-first").click();
    await expect(page).not.toHaveURL(/cursor=/);
    await expect(page.getByTestId("board-row")).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId("board-system").first()).toHaveText(systemName(conll.order[0]));

    // Back and forward redraw each page's table from what the browser kept: the first page's
    // document sent its table once, as HTML (not in its RSC payload, which the router reuses).
    await page.goBack();
    await expect(page).toHaveURL(/[?&]cursor=/);
    await expect(page.getByTestId("board-system")).toHaveText(systems(rest));
    await page.goBack();
    await expect(page).not.toHaveURL(/cursor=/);
    await expect(page.getByTestId("board-row")).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId("board-system").first()).toHaveText(systemName(conll.order[0]));
    await page.goForward();
    await expect(page.getByTestId("board-system")).toHaveText(systems(rest));
  });

  test("a page load carries its table once: as HTML, not again in the RSC payload; client-side navigation brings it in the payload", async ({ request }) => {
    const html = await (await request.get(boardPath, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } })).text();
    const rows = html.split('data-testid="board-row"').length - 1;
    expect(rows).toBe(PAGE_SIZE);
    // The payload's inline scripts escape "<" as \u003c: the table's row marker is not among them.
    const payload = [...html.matchAll(/self\.__next_f\.push\((.*?)\)<\/script>/g)].map((m) => m[1]).join("");
    expect(payload).not.toContain("board-row");
    const rsc = await (await request.get(boardPath, { headers: { RSC: "1" } })).text();
    expect(rsc).toContain("board-row");
  });

  test("the team search keeps the matching teams, in any case, with their ranks on the whole board", async ({ page }) => {
    const conll = expected("conll");
    const target = conll.order[PAGE_SIZE + 3]; // on page 2
    await page.goto(`${boardPath}?rp=1`);
    await page.getByLabel("Team", { exact: true }).fill(teamLabel(target).toLowerCase());
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await expect(page).toHaveURL(/[?&]team=/);
    await expect(page).toHaveURL(/[?&]rp=1(&|$)/);
    await expect(page.getByTestId("board-row")).toHaveCount(1);
    await expect(page.getByTestId("board-team")).toContainText(scenario.teams[teamLabel(target)].name);
    await expect(page.getByTestId("board-rank")).toHaveText(String(conll.rank(target)));
    await expect(page.getByTestId("board-page-summary")).toContainText("Rows 1–1 of 1");

    // Sorting keeps the filter.
    await page.getByTestId("sort-muc").click();
    await expect(page).toHaveURL(/[?&]team=/);
    await expect(page.getByTestId("board-rank")).toHaveText(String(expected("muc").rank(target)));

    await page.getByTestId("board-team-clear").click();
    await expect(page).not.toHaveURL(/team=/);
    await expect(page.getByTestId("board-row")).toHaveCount(PAGE_SIZE);
  });

  test("Show 95 % intervals puts them next to the ranking column, on screen", async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(boardPath);
    await page.getByTestId("toggle-ci").click();
    await expect(page).toHaveURL(/[?&]ci=1/);
    // Significance is stored off the request path (computed after scoring): reload until it is there.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("significance-pending").count();
        },
        { timeout: 150_000, intervals: [2_000, 5_000] },
      )
      .toBe(0);
    expect((await headerIds(page)).slice(3, 5)).toEqual(["col-conll", "col-ci"]);
    const ci = (await page.getByTestId("col-ci").boundingBox())!;
    expect(ci.x + ci.width).toBeLessThanOrEqual(1280);
    await expect(page.getByTestId("cell-ci")).toHaveCount(PAGE_SIZE);
    await expect(page.getByTestId("cell-ci").first()).toHaveText(/^\d+\.\d\d – \d+\.\d\d$/);
  });

  test("signed in, the viewer's team's row is highlighted and says so in words", async ({ page }) => {
    const conll = expected("conll");
    const own = conll.order[2];
    await signInPage(page, scenario.users[userKey(own)]);
    await page.goto(boardPath);
    const row = page.locator(`[data-testid="board-row"][data-submission-id="${ids[own]}"]`);
    await expect(row).toHaveAttribute("data-own", "true");
    await expect(row.getByTestId("board-team")).toContainText("(your team)");
    await expect(page.locator('[data-testid="board-row"][data-own="true"]')).toHaveCount(1);
    const [ownBg, otherBg] = await Promise.all([row, page.getByTestId("board-row").first()].map((r) => r.evaluate((el) => getComputedStyle(el).backgroundColor)));
    expect(ownBg).not.toBe(otherBg);
  });

  test("no sideways page scroll at 390 px, and axe finds nothing at 1280 and 390 px, signed out and in", async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Signed out: the first page, the widest table (recall, precision and intervals), the
    // second page and a search. Signed in, what differs is the header and the team's
    // highlighted row, which is on the first page: that page, plain and widest.
    // The widest table has every cell of the plain one, with columns added: its colours are
    // checked in both schemes, the plain table's layout by every other rule (colour contrast
    // takes about 85 % of axe's time on these 50-row tables). The dark scheme changes colours
    // only; the second page and the search show the same cells with other rows, in the light
    // scheme.
    await expectAccessibleAtWidths(page, boardPath, DESKTOP_AND_PHONE, `${boardPath}, signed out`, []);
    // The second page's address, from the first page's "Next" link (the page just checked).
    const second = (await page.getByTestId("board-next").getAttribute("href"))!;
    const views: { out: [string, ColourScheme[]][]; in: [string, ColourScheme[]][] } = {
      out: [
        [`${boardPath}?rp=1&ci=1`, ["light", "dark"]],
        [second, ["light"]],
        [`${boardPath}?metric=muc&team=team+1`, ["light"]],
      ],
      in: [
        [boardPath, []],
        [`${boardPath}?rp=1&ci=1`, ["light", "dark"]],
      ],
    };
    for (const [path, schemes] of views.out) await expectAccessibleAtWidths(page, path, DESKTOP_AND_PHONE, `${path}, signed out`, schemes);
    await signInPage(page, scenario.users[userKey(expected("conll").order[0])]);
    for (const [path, schemes] of views.in) {
      await expectAccessibleAtWidths(page, path, DESKTOP_AND_PHONE, `${path}, signed in`, schemes);
      await expect(page.locator('[data-testid="board-row"][data-own="true"]'), `${path}: the highlighted row was checked`).toHaveCount(1);
    }
  });
});

/** The three datasets: the phase's first one renamed, then two of one language (one column group each). */
const DATASETS = ["cs_pdt", "en_gum_news", "en_gum_bio"] as const;
type DatasetName = (typeof DATASETS)[number];
/** Entities of each dataset's key (one document, two one-word mentions each). */
const SMALL = 8;
/** A response to a dataset's key with its first `s` entities split into singletons (0: the key itself). */
const split = (s: number) => file(Array.from({ length: 2 * SMALL }, (_, k) => (Math.floor(k / 2) < s ? 1000 + k : Math.floor(k / 2))));
/** Each run: its team's user and the entities it splits per dataset (absent: the dataset left out, 0). */
const MULTI_RUNS: Record<string, { user: "alpha" | "beta" | "gamma"; splits: Partial<Record<DatasetName, number>> }> = {
  "sys-a": { user: "alpha", splits: { cs_pdt: 0, en_gum_news: 2, en_gum_bio: 4 } },
  "sys-b": { user: "beta", splits: { cs_pdt: 0, en_gum_news: 0, en_gum_bio: 6 } },
  "sys-c": { user: "gamma", splits: { cs_pdt: 1, en_gum_bio: 0 } },
};
/** A run's CoNLL F1 on a dataset, by the scorer (0 for a dataset it left out). */
const multiF1 = (system: string, d: DatasetName) => {
  const s = MULTI_RUNS[system].splits[d];
  return s === undefined ? 0 : evaluate(readConll2012(split(0), "key.conll"), readConll2012(split(s), "r.conll")).metrics.conll!.f1;
};
/** The systems with the best value of a column (every one of a tie). */
function bestOf(value: (system: string) => number): string[] {
  const systems = Object.keys(MULTI_RUNS);
  const max = Math.max(...systems.map(value));
  return systems.filter((s) => max - value(s) <= 1e-12);
}
const macro = (system: string) => DATASETS.reduce((sum, d) => sum + multiF1(system, d), 0) / DATASETS.length;

test.describe.serial("a board of several datasets, as CRAC papers print it", () => {
  let multi: Scenario<"organizer" | "alpha" | "beta" | "gamma">;
  let multiPath = "";

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    // The design: a tie on one dataset, another best on each of the others.
    expect(bestOf((s) => multiF1(s, "cs_pdt"))).toEqual(["sys-a", "sys-b"]);
    expect(bestOf((s) => multiF1(s, "en_gum_news"))).toEqual(["sys-b"]);
    expect(bestOf((s) => multiF1(s, "en_gum_bio"))).toEqual(["sys-c"]);
    multi = await setupScenario({
      users: { organizer: { token: true }, alpha: { token: true }, beta: { token: true }, gamma: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"], "Team Gamma": ["gamma"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"] },
    });
    const phaseId = multi.task!.phases.test.id;
    multiPath = `/tasks/${multi.task!.slug}/phases/${phaseId}/leaderboard`;
    const organizer = multi.users.organizer.token!;
    // The phase's first dataset gets a name and a language; two more are added.
    const [first] = await listDatasets(request, phaseId);
    const renamed = await request.patch(`/api/v1/phases/${phaseId}/datasets/${first.id}`, { headers: bearer(organizer), data: { name: "cs_pdt", language: "cs", fileName: "cs_pdt.conll" } });
    expect(renamed.status(), await renamed.text()).toBe(200);
    for (const d of DATASETS.slice(1)) await addDataset(request, phaseId, organizer, { name: d, language: "en", fileName: `${d}.conll` });
    for (const d of DATASETS) await uploadDatasetGold(request, phaseId, organizer, d, `${d}.conll`, split(0));
    for (const [system, run] of Object.entries(MULTI_RUNS)) {
      const entries = Object.entries(run.splits).map(([d, s]) => ({ path: `${d}.conll`, text: split(s) }));
      const token = multi.users[run.user].token!;
      // A run that leaves a dataset out is confirmed, as the form's "Submit anyway" does.
      await waitScored(request, await postRun(request, phaseId, token, await makeZip(entries), system, "run.zip", { acknowledgeWarnings: true }), token);
    }
  });

  test("at 1280 px the macro view shows every dataset's column on screen under its name, the best of each column marked; All metrics brings the rest back", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(multiPath);
    await expect(page.getByTestId("board-headline")).toHaveText("Macro-average CoNLL F1 over 3 datasets · best run per team");
    // Rank, team, system, the macro-average, then the datasets under their languages.
    expect(await headerIds(page)).toEqual(["col-rank", "col-team", "col-system", "col-conll", "col-group-cs", "col-group-en"]);
    // Ranked by the macro-average (a stable sort: ties in submission order, as the board lists them).
    await expect(page.getByTestId("board-system")).toHaveText(Object.keys(MULTI_RUNS).sort((a, b) => macro(b) - macro(a)));
    // Nothing to scroll: every column is inside the viewport.
    expect(await page.getByTestId("leaderboard-scroll").evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    for (const d of DATASETS) {
      const header = page.getByTestId(`col-dataset-${d}`);
      await expect(header).toBeVisible();
      await expect(header).toContainText(d);
      const box = (await header.boundingBox())!;
      expect(box.x, d).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, d).toBeLessThanOrEqual(1280);
    }
    // The best of each column: bold, said in words, every run of a tie.
    const columns: [string, string[]][] = [["cell-conll-f1", bestOf(macro)], ...DATASETS.map((d): [string, string[]] => [`cell-dataset-${d}`, bestOf((s) => multiF1(s, d))])];
    for (const [testId, expected] of columns) {
      const marked = page.locator(`[data-testid="${testId}"][data-best="true"]`);
      const systems = await marked.evaluateAll((cells) => cells.map((cell) => cell.closest("tr")!.querySelector('[data-testid="board-system"] a')!.textContent));
      expect(systems.sort(), testId).toEqual([...expected].sort());
      for (const cell of await marked.all()) {
        await expect(cell).toContainText("(best in this column)");
        expect(Number(await cell.evaluate((el) => getComputedStyle(el).fontWeight)), testId).toBeGreaterThanOrEqual(700);
      }
    }
    // A dataset left out shows 0, not marked.
    const left = page.locator('[data-testid="board-row"]', { hasText: "sys-c" }).getByTestId("cell-dataset-en_gum_news");
    await expect(left.getByTestId("dataset-missing")).toBeVisible();
    // LaTeX and Markdown exports: the CSV link's selection, another format.
    const selection = async (name: string) => {
      const url = new URL((await page.getByTestId("board-exports").getByRole("link", { name, exact: true }).getAttribute("href"))!, "http://x");
      const format = url.searchParams.get("format");
      url.searchParams.delete("format");
      return [url.pathname + url.search, format];
    };
    const [csv] = await selection("CSV");
    expect(await selection("LaTeX")).toEqual([csv, "latex"]);
    expect(await selection("Markdown")).toEqual([csv, "markdown"]);

    // "Skip to results": shown once focused, it moves the focus to the results.
    const skip = page.getByRole("link", { name: "Skip to results" });
    await skip.focus();
    expect((await skip.boundingBox())!.width).toBeGreaterThan(40);
    await page.keyboard.press("Enter");
    await expect(page.locator("#board-results")).toBeFocused();

    // All metrics: the other columns, kept by the column links.
    await page.getByRole("navigation", { name: "Columns shown" }).getByRole("link", { name: "All metrics" }).click();
    await expect(page).toHaveURL(/[?&]columns=all(&|$)/);
    await expect(page.getByTestId("col-muc")).toBeVisible();
    await page.getByTestId("sort-muc").click();
    await expect(page).toHaveURL(/[?&]metric=muc(&|$)/);
    await expect(page).toHaveURL(/[?&]columns=all(&|$)/);
    await expect(page.getByTestId("col-muc")).toHaveAttribute("aria-sort", "descending");
  });

  test("at 390 px the page does not scroll sideways and the board starts on the first screen; axe finds nothing at 1280 and 390 px", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 844 });
    await expectAccessibleAtWidths(page, multiPath, DESKTOP_AND_PHONE, "the macro view of three datasets");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect((await page.getByTestId("leaderboard-table").boundingBox())!.y).toBeLessThan(844 - 100);
  });
});
