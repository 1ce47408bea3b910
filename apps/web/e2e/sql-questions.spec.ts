import { expect, type Page, test } from "@playwright/test";
import { sqlTableNames } from "@seed/model";
import {
  createDatasetThroughForm,
  expectAxeClean,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";

// SQL questions (issue 26): an editor writes a question by keyboard with the datasets' names
// completed, runs it with Ctrl+Enter and reads the answer; a question that reaches for an app
// table is told why it cannot; an admin can turn SQL questions off for everyone.

const csv = [
  "month,region,revenue",
  "2025-01-01,North,100",
  "2025-02-01,South,150",
  "2025-03-01,North,120",
].join("\n");

async function openSqlPage(page: Page) {
  await page.goto("/admin/sql");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Replaces the editor's text by typing, as a person would. */
async function typeQuestion(page: Page, text: string) {
  const editor = page.getByRole("textbox", { name: /^SQL question/ });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.type(text);
  await page.keyboard.press("Escape");
  return editor;
}

test("an editor completes a dataset's name, runs a question by keyboard and reads the answer", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const name = uniqueName("Regional sales");
  await createDatasetThroughForm(page, name, csv);
  const table = sqlTableNames([{ id: "new", name }]).get("new") ?? "";

  await openSqlPage(page);
  await expect(page.getByRole("heading", { level: 1, name: "SQL questions" })).toBeVisible();
  const editor = page.getByRole("textbox", { name: /^SQL question/ });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.type("select region, sum(revenue) as total from regional_sa");
  // The table is offered as it is typed. (Enter takes it too, once the list has been open 75 ms:
  // CodeMirror's guard against taking one by accident, which no test should wait out.)
  const option = page.getByRole("option", { name: table });
  await expect(option).toBeVisible();
  await option.click();
  await expect(editor).toContainText(`from ${table}`);
  await page.keyboard.type(" group by region order by region");
  await page.keyboard.press("Escape");
  await page.keyboard.press("ControlOrMeta+Enter");

  const answer = page.getByRole("region", { name: "Answer" });
  await expect(answer.getByRole("columnheader")).toHaveText(["region", "total"]);
  await expect(answer.getByRole("row")).toHaveText([
    /region\s*total/,
    /North\s*220/,
    /South\s*150/,
  ]);
  await expect(page.getByRole("status").filter({ hasText: /2 rows in \d/ })).toBeVisible();
  await expectAxeClean(page);

  // An app table is not there to read: the reason is on the editor, and nothing is answered.
  await typeQuestion(page, "select * from store_meta");
  await page.getByRole("button", { name: "Run question" }).click();
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(editor).toHaveAccessibleDescription(/store_meta/);
  await expect(answer).toHaveCount(0);
  // Writing is refused by the engine before anything runs, and nothing is deleted.
  await typeQuestion(page, `delete from ${table}`);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(editor).toHaveAccessibleDescription(/SELECT|syntax error/);
  await typeQuestion(page, `select count(*) as n from ${table}`);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByRole("region", { name: "Answer" }).getByRole("cell")).toHaveText(["3"]);
  await expect(editor).not.toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);
  await context.close();
});

test("an admin turns SQL questions off for everyone, and on again", async ({ browser }) => {
  const admin = await signedInPage(browser, "admin");
  const editor = await signedInPage(browser, "editor");
  await openSqlPage(admin.page);
  const setting = admin.page.getByRole("form", { name: "SQL questions setting" });
  try {
    await setting.getByRole("button", { name: "Turn SQL questions off" }).click();
    await expect(setting.getByText("SQL questions are off.", { exact: true })).toBeVisible();
    await openSqlPage(editor.page);
    await expect(
      editor.page.getByRole("alert").filter({ hasText: "An admin has turned SQL questions off." }),
    ).toBeVisible();
    await expect(editor.page.getByRole("textbox", { name: /^SQL question/ })).toHaveCount(0);
    // An editor has no switch.
    await expect(editor.page.getByRole("form", { name: "SQL questions setting" })).toHaveCount(0);
    const refused = await editor.page.request.post("/admin/api/sql", {
      data: { sql: "select 1" },
    });
    expect(refused.status()).toBe(422);
    expect(await refused.json()).toMatchObject({
      formError: "An admin has turned SQL questions off.",
    });
  } finally {
    await openSqlPage(admin.page);
    const on = setting.getByRole("button", { name: "Turn SQL questions on" });
    if (await on.isVisible()) await on.click();
    await expect(setting.getByRole("button", { name: "Turn SQL questions off" })).toBeVisible();
  }
  await openSqlPage(editor.page);
  await expect(editor.page.getByRole("textbox", { name: /^SQL question/ })).toBeVisible();
  await admin.context.close();
  await editor.context.close();
});

const orders = [
  "month,region,revenue",
  "2025-01-01,North,100",
  "2025-02-01,South,150",
  "2025-03-01,North,120",
  "2025-04-01,South,90",
].join("\n");

test("a SQL question with a date range, saved as a dataset, charted, and bound to a dashboard's date filter", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { context, page } = await signedInPage(browser, "editor");
  const ordersName = uniqueName("Orders by month");
  await createDatasetThroughForm(page, ordersName, orders);
  const table = sqlTableNames([{ id: "new", name: ordersName }]).get("new") ?? "";

  await openSqlPage(page);
  await typeQuestion(
    page,
    `select region, sum(revenue) as revenue, min(month) as month from ${table} where month between {{from}} and {{to}} group by region order by region`,
  );
  await page.getByLabel("First day ({{from}})").fill("2025-02-01");
  await page.getByLabel("Last day ({{to}})").fill("2025-03-31");
  await page.getByRole("button", { name: "Run question" }).click();
  const answer = page.getByRole("region", { name: "Answer" });
  await expect(answer.getByRole("row")).toHaveText([
    /region\s*revenue\s*month/,
    /North\s*120\s*2025-03-01/,
    /South\s*150\s*2025-02-01/,
  ]);

  const questionName = uniqueName("Revenue by region from SQL");
  await page.getByLabel("Name of the question's dataset").fill(questionName);
  await page.getByRole("button", { name: "Save as a dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/[^/?]+\?saved=question$/);
  await expect(page.getByRole("heading", { level: 2, name: "SQL question" })).toBeVisible();
  await expect(
    page.getByText("Columns: region (string), revenue (number), month (date)"),
  ).toBeVisible();
  // Like any dataset, it says where it lives and can move from here.
  const place = page.getByRole("region", { name: "Collection" });
  await expect(place.getByRole("link", { name: "Shared" })).toBeVisible();
  await expectAxeClean(page);

  // Charted like any dataset, on a dashboard whose date range is bound to {{from}} and {{to}}.
  const { slug, chartTitle } = await publishSummedBarChart(page, {
    datasetName: questionName,
    x: "region",
    measure: "revenue",
  });
  const filtersForm = page.getByRole("form", { name: "Dashboard filters" });
  await filtersForm.getByLabel("Date range filter").selectOption("month");
  await filtersForm.getByRole("button", { name: "Save filters" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Filters saved." })).toBeVisible();

  // The question can change while its chart still finds its columns; dropping one is refused.
  await page.goto("/admin/datasets");
  await page.getByRole("link", { name: questionName }).click();
  await page.getByRole("link", { name: "Change the question" }).click();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const editor = page.getByRole("textbox", { name: /^SQL question/ });
  await expect(editor).toContainText("{{from}}");
  await typeQuestion(page, `select region, count(*) as orders from ${table} group by region`);
  const changes = page.getByRole("form", { name: `Save changes to ${questionName}` });
  await changes.getByRole("button", { name: "Save changes to the question" }).click();
  await expect(editor).toHaveAccessibleDescription(/revenue/);
  await typeQuestion(
    page,
    `select region, sum(revenue) as revenue, max(month) as month from ${table} where month between {{from}} and {{to}} group by region`,
  );
  await changes.getByRole("button", { name: "Save changes to the question" }).click();
  await page.waitForURL(/\?saved=question-changed$/);
  await expect(
    page.getByRole("status").filter({ hasText: "The question was changed." }),
  ).toBeVisible();
  await context.close();

  const visitor = await browser.newContext();
  const board = await visitor.newPage();
  const bars = () =>
    board.getByRole("figure", { name: chartTitle }).getByTestId("seed-chart-table");
  await board.goto(`/d/${slug}`);
  await expect(bars()).toContainText("North");
  await expect(bars()).toContainText("220");
  await expect(bars()).toContainText("240");
  // The visitor's range reaches the question itself, before it sums.
  await board.goto(`/d/${slug}?from=2025-02-01&to=2025-03-31`);
  await board.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(bars()).toContainText("120");
  await expect(bars()).toContainText("150");
  await expect(bars()).not.toContainText("220");
  await expect(bars()).not.toContainText("240");
  await expectAxeClean(board);
  await visitor.close();
});
