/**
 * The error-analysis document view (issue 12 §4): key and response entities share one
 * number and colour; only the differences are marked, each with a visible label; the error
 * texts show without hovering; Tab reaches the errors and the marked mentions, with a
 * visible focus ring; no sideways page scroll at 390 px; 0 axe violations (WCAG 2.1 A and
 * AA) at 1280 and 390 px, signed out and signed in; a 10,000-token document comes
 * compressed, says how long its view took, and keeps its DOM smaller than its token count.
 *
 * The run: document "story" of 18 tokens (John 0, Mary 2, He 4, thanked 5, her 6, "The old
 * dog" 8–10, Bill 13, It 15) with one error of each simple kind, and document
 * "long" of 10,000 tokens (500 sentences of 20) that the run gets nearly right. The phase's
 * error analysis is PUBLIC, so the view is open signed out too.
 *
 * Expected numbers of "story" (lib/view-models/document-view.ts: pairs first, in document
 * order of their first mention, then the unpaired entities likewise):
 *   1 John/He (both sides), 2 Mary/her (both sides), 3 "The old dog"/It (key; the run has
 *   "old dog": a boundary error), 4 "thanked" (only in the run: extra), 5 Bill (only in the
 *   key: missing).
 */
import { expect, test, type Page } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { DESKTOP_AND_PHONE, expectAccessibleAtWidths, sidewaysOverflow } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { conll, openPhase, seedScoredRuns } from "./helpers/tasks";

type Users = "organizer" | "alpha";

const STORY_KEY: [string, string[]] = [
  "story",
  ["John\t(1)", "met\t-", "Mary\t(2)", ".\t-", "", "He\t(1)", "thanked\t-", "her\t(2)", ".\t-", "", "The\t(3", "old\t-", "dog\t3)", "barked\t-", "at\t-", "Bill\t(4)", ".\t-", "", "It\t(3)", "ran\t-", ".\t-"],
];
// The run: other cluster ids (the page must not care), "old dog" for "The old dog", "thanked" as an entity of its own, no Bill.
const STORY_RESPONSE: [string, string[]] = [
  "story",
  ["John\t(7)", "met\t-", "Mary\t(5)", ".\t-", "", "He\t(7)", "thanked\t(9)", "her\t(5)", ".\t-", "", "The\t-", "old\t(8", "dog\t8)", "barked\t-", "at\t-", "Bill\t-", ".\t-", "", "It\t(8)", "ran\t-", ".\t-"],
];

const LONG_TOKENS = 10_000;
/** Document ids as the CoNLL reader names them (`<name>/part <n>`). */
const STORY = "story/part 0";
const LONG = "long/part 0";

/** The rows of a 10,000-token document: a one-token mention every 10 tokens, of 50 entities in turn; `miss` tokens left unmarked. */
function longRows(miss: ReadonlySet<number>): string[] {
  const rows: string[] = [];
  for (let t = 0; t < LONG_TOKENS; t++) {
    if (t > 0 && t % 20 === 0) rows.push("");
    const mention = t % 10 === 0 && !miss.has(t);
    rows.push(`tok${t}\t${mention ? `(${((t / 10) % 50) + 1})` : "-"}`);
  }
  return rows;
}

const KEY = conll(STORY_KEY, ["long", longRows(new Set())]);
const RESPONSE = conll(STORY_RESPONSE, ["long", longRows(new Set([500, 4000, 9990]))]);

let scenario: Scenario<Users>;
let runId = "";
const docPath = (doc: string) => `/submissions/${runId}/documents/${encodeURIComponent(doc)}`;

/** The entity number (subscript) and colour class (`e<k>`) of a mention span. */
async function entityOf(page: Page, anchor: string): Promise<{ number: string; colour: string; background: string }> {
  const span = page.locator(`#${anchor}`);
  const number = ((await span.locator(":scope > sub").textContent()) ?? "").trim();
  const colour = /\be\d+\b/.exec((await span.getAttribute("class")) ?? "")?.[0] ?? "";
  const background = await span.evaluate((el) => getComputedStyle(el).backgroundColor);
  return { number, colour, background };
}

test.describe.serial("the document view", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scenario = await setupScenario<Users>({
      users: { organizer: {}, alpha: {} },
      teams: { "Team Alpha": ["alpha"] },
      task: {
        phases: [openPhase("test", { participantAnalysis: "PUBLIC" })],
        organizers: ["organizer"],
        gold: [{ phase: "test", text: KEY, as: "organizer" }],
      },
    });
    [runId] = await seedScoredRuns(scenario.task!.phases.test.id, [{ teamId: scenario.teams["Team Alpha"]!.id, submitterId: scenario.users.alpha.id, systemName: "doc-view-run", fileName: "out.conll", text: RESPONSE }]);
  });

  test("matched entities have one number and colour on both sides; only the differences are marked, with visible labels", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await page.goto(docPath(STORY)))?.status()).toBe(200);
    await expect(page).toHaveTitle("Errors in story/part 0 · doc-view-run · Corefboard");

    // John/He and Mary/her: the same number, colour class and background left and right.
    for (const [anchor, number] of [
      ["0-0", "1"],
      ["4-4", "1"],
      ["2-2", "2"],
      ["6-6", "2"],
      ["15-15", "3"],
    ] as const) {
      const key = await entityOf(page, `k-${anchor}`);
      const response = await entityOf(page, `r-${anchor}`);
      expect(key.number, anchor).toBe(number);
      expect(response, anchor).toEqual(key);
    }
    expect((await entityOf(page, "k-0-0")).colour).not.toBe((await entityOf(page, "k-2-2")).colour);
    // The boundary error keeps the entity's number on both sides.
    expect((await entityOf(page, "k-8-10")).number).toBe("3");
    expect((await entityOf(page, "r-9-10")).number).toBe("3");

    // Marked: exactly the four differing mentions, each with a label in the text.
    const marked = page.locator("[data-testid=doc-text] .m.x");
    await expect(marked).toHaveCount(4);
    await expect(page.locator("#k-8-10 .dl")).toHaveText("boundary");
    await expect(page.locator("#r-9-10 .dl")).toHaveText("boundary");
    await expect(page.locator("#k-13-13 .dl")).toHaveText("missing");
    await expect(page.locator("#r-5-5 .dl")).toHaveText("extra");
    for (const anchor of ["k-0-0", "r-0-0", "k-2-2", "r-6-6", "k-15-15", "r-15-15"]) await expect(page.locator(`#${anchor}`)).not.toHaveClass(/\bx\b/);
    // Entities without a partner come after the pairs.
    expect((await entityOf(page, "r-5-5")).number).toBe("4");
    expect((await entityOf(page, "k-13-13")).number).toBe("5");
    await expect(page.getByTestId("doc-entity-summary")).toContainText("3 entities are in both columns");

    // The error texts are on the page, visible without hovering, in the shared numbers.
    const errors = page.getByTestId("doc-error");
    await expect(errors).toHaveCount(3);
    await expect(errors.filter({ hasText: "Key entity 5 (1 mention: [13, 13]) is missing from the response." })).toBeVisible();
    await expect(errors.filter({ hasText: "Response entity 4 (1 mention: [5, 5]) is not in the key." })).toBeVisible();
    await expect(errors.filter({ hasText: "Response span [9, 10] of entity 3 should be [8, 10] (key entity 3)." })).toBeVisible();

    // A label in the text leads to its error, and the error back to the mention.
    await page.locator("#k-13-13 .dl").click();
    const target = page.locator("li[data-testid=doc-error]:target");
    await expect(target).toContainText("Key entity 5");
    await expect(target).toBeInViewport();
    await target.getByRole("link", { name: "[13, 13]" }).click();
    await expect(page).toHaveURL(/#k-13-13$/);
    await expect(page.locator("#k-13-13")).toBeInViewport();
  });

  test("Tab reaches the error items and the marked mentions, with a visible focus ring", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(docPath(STORY));
    const where = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active || active === document.body) return { in: "", outline: "" };
        const style = getComputedStyle(active);
        const inError = active.closest("[data-testid=doc-error]") !== null;
        const inText = active.closest("[data-testid=doc-text]") !== null && active.classList.contains("dl");
        return { in: inError ? "error" : inText ? "text" : "", outline: `${style.outlineStyle} ${style.outlineWidth}` };
      });
    const reached = new Set<string>();
    for (let i = 0; i < 150 && reached.size < 2; i++) {
      await page.keyboard.press("Tab");
      const now = await where();
      if (now.in && !reached.has(now.in)) {
        reached.add(now.in);
        expect(now.outline, `focus ring in the ${now.in}`).not.toMatch(/^none|\s0px$/);
      }
    }
    expect([...reached].sort()).toEqual(["error", "text"]);
  });

  test("no sideways page scroll at 390 px, and 0 axe violations at 1280 and 390 px, signed out and signed in", async ({ page }) => {
    await expectAccessibleAtWidths(page, docPath(STORY), DESKTOP_AND_PHONE, "the document view, signed out");
    await signInPage(page, scenario.users.organizer);
    await expectAccessibleAtWidths(page, docPath(STORY), DESKTOP_AND_PHONE, "the document view, signed in");
  });

  test("a 10,000-token document comes compressed, says how long its view took, and keeps a small DOM", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const response = await page.goto(docPath(LONG));
    expect(response?.status()).toBe(200);
    expect((await response!.allHeaders())["content-encoding"] ?? "", "the HTML is compressed").toMatch(/gzip|br|deflate|zstd/);
    await expect(page.getByTestId("doc-render-time")).toContainText(/Built the view of 10,000 tokens .* in (< 1|[\d,]+) ms on the server/);
    // 1,000 key and 997 response mentions (a span and its number each) in 500 rows: about 5,500
    // elements, where a wrapper per token would make over 20,000.
    const elements = await page.getByTestId("doc-text").evaluate((el) => el.querySelectorAll("*").length);
    expect(elements).toBeLessThan(LONG_TOKENS);
    await expect(page.getByTestId("doc-key").locator("[id^='k-']")).toHaveCount(1000);
    await expect(page.getByTestId("doc-response").locator("[id^='r-']")).toHaveCount(997);
    // Three missing mentions, one per missing key mention, and the rest the same on both sides.
    await expect(page.locator("[data-testid=doc-key] .m.x")).toHaveCount(3);
    await expect(page.locator("[data-testid=doc-response] .m.x")).toHaveCount(0);
    expect((await entityOf(page, "k-9980-9980")).number).toBe((await entityOf(page, "r-9980-9980")).number);
    // At 390 px it does not scroll sideways either.
    await page.setViewportSize({ width: 390, height: 844 });
    const { pixels, culprits } = await sidewaysOverflow(page);
    expect(pixels, `the long document is ${pixels} px too wide at 390 px: ${culprits.join(" | ")}`).toBe(0);
  });
});
