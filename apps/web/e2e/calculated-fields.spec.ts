import { expect, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  previewValues,
  signedInPage,
  uniqueName,
} from "./content-support";
import { horizontalOverflow, testUser } from "./support";

// Calculated fields (issue 26): an editor writes an expression on the dataset's page, is told
// where it is wrong as they type and again by the server, saves it, and charts it like a column.

const csv = [
  "month,region,revenue,orders",
  "2025-01-01,North,100,4",
  "2025-02-01,South,150,6",
  "2025-03-01,North,120,5",
  "2025-04-01,North,80,0",
].join("\n");

test("an editor adds a price field, is told what is wrong, saves it and charts the average price", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Orders with prices");
  const datasetId = await createDatasetThroughForm(page, datasetName, csv);

  const card = page.getByRole("form", { name: "Calculated fields" });
  await expect(card.getByText("No calculated fields yet.")).toBeVisible();
  await card.getByRole("button", { name: "Add a field" }).click();
  const field = card.getByRole("group", { name: "Field 1" });
  await field.getByLabel("Name").fill("price");
  const expression = field.getByLabel("Expression");
  await expression.fill("[revenue] / [order]");
  // Checked as it is typed: the place of the mistake and the nearest column.
  await expect(expression).toHaveAccessibleDescription(/Unknown column "order" at 13–19/);
  // The server checks again and keeps the old list: nothing is saved.
  await card.getByRole("button", { name: "Save fields" }).click();
  await expect(expression).toHaveAttribute("aria-invalid", "true");
  await expect(field.locator(".field-error")).toContainText('Unknown column "order" at 13–19');
  await page.reload();
  await expect(card.getByText("No calculated fields yet.")).toBeVisible();

  await card.getByRole("button", { name: "Add a field" }).click();
  await field.getByLabel("Name").fill("price");
  await expression.fill("[revenue] / [orders]");
  await expect(expression).toHaveAccessibleDescription("Gives a number.");
  await expectAxeClean(page);
  await card.getByRole("button", { name: "Save fields" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Calculated fields saved." }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/datasets/${datasetId}\\?saved=fields$`));
  await expect(field.getByLabel("Expression")).toHaveValue("[revenue] / [orders]");

  // The field is offered like a column; a division by zero is empty, so it leaves the average.
  const title = uniqueName("Average price");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByRole("checkbox", { name: "revenue" }).uncheck();
  await page.getByRole("checkbox", { name: "price" }).check();
  await page.getByLabel("Combine rows with").selectOption("avg");
  await expect(
    page.getByTestId("chart-preview").getByRole("figure", { name: title }),
  ).toBeVisible();
  await expect
    .poll(async () => (await previewValues(page)).sort(([a], [b]) => a.localeCompare(b)))
    .toEqual([
      ["North", 24.5],
      ["South", 25],
    ]);
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);

  // Removing the field the chart draws is refused, naming the chart; the field stays.
  await page.goto(`/admin/datasets/${datasetId}`);
  await card.getByRole("button", { name: "Remove price" }).click();
  await card.getByRole("button", { name: "Save fields" }).click();
  await expect(card.getByText(`Chart "${title}" would break`)).toBeVisible();
  await page.reload();
  await expect(field.getByLabel("Name")).toHaveValue("price");
  await context.close();
});

test("an editor charts the average price per order as a formula of sums, told where it is wrong as they type", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Orders for a formula");
  await createDatasetThroughForm(page, datasetName, csv);
  const title = uniqueName("Price per order");
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByLabel("Combine rows with").selectOption("sum");
  await page.getByLabel("Combine rows with").selectOption("formula");
  const formula = page.getByLabel("Formula");
  // It starts from what was drawn: the sum of the first series column.
  await expect(formula).toHaveValue("sum([revenue])");
  await formula.fill("sum([revenue]) / [orders]");
  await expect(formula).toHaveAccessibleDescription(
    "A formula combines rows: put [orders] inside an aggregate, such as sum([orders]), at 18–25.",
  );
  await formula.fill("sum([revenue]) / sum([orders])");
  await expect(formula).toHaveAccessibleDescription("Gives a number.");
  // The ratio of the sums, not an average of ratios; a zero order count adds nothing.
  await expect
    .poll(async () => (await previewValues(page)).sort(([a], [b]) => a.localeCompare(b)))
    .toEqual([
      ["North", 300 / 9],
      ["South", 25],
    ]);
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  await expect(page.getByLabel("Combine rows with")).toHaveValue("formula");
  await expect(page.getByLabel("Formula")).toHaveValue("sum([revenue]) / sum([orders])");
  await context.close();
});

test("the calculated fields card fits a phone and names every control", async ({ browser }) => {
  const context = await browser.newContext({
    storageState: testUser("editor").storageState,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const datasetId = await createDatasetThroughForm(page, uniqueName("Phone fields"), csv);
  await page.goto(`/admin/datasets/${datasetId}`);
  const card = page.getByRole("form", { name: "Calculated fields" });
  await card.getByRole("button", { name: "Add a field" }).click();
  await card
    .getByRole("group", { name: "Field 1" })
    .getByLabel("Expression")
    .fill(`if([revenue] > 100, "${"a very long label ".repeat(6)}", "small")`);
  await card.getByText("Columns and functions").click();
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  await expectAxeClean(page);
  await context.close();
});
