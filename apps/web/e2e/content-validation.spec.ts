import { expect, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  expectAxeClean,
  signedInPage,
  uniqueName,
} from "./content-support";

const badCsv = [
  "day,revenue",
  "2026-01-01,10",
  "2026-01-02,11",
  "2026-01-03,12",
  "2026-01-04,13",
  "2026-01-05,14",
  "2026-01-06,abc",
  "2026-01-07,16",
  "2026-01-08,17",
  "2026-01-09,18",
  "2026-01-10,19",
].join("\n");

test("bad CSV names the line and column, and saving it writes nothing", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const name = uniqueName("Broken");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  const form = page.getByRole("region", { name: "Import a file" });
  const pasteField = form.getByLabel("Or paste the rows (CSV, JSON or NDJSON text)");
  await form.getByLabel("Name of the new dataset").fill(name);
  await pasteField.fill(badCsv);

  const message = 'Line 7, column "revenue": expected a number, got "abc".';
  await expect(
    form.getByRole("region", { name: /1 problem in the file/ }).getByRole("listitem"),
  ).toHaveText([message]);
  // The preview marks the cell, and says an import would save nothing.
  await expect(
    form.getByRole("region", { name: "Preview of the rows" }).getByText("“abc” does not fit"),
  ).toBeVisible();
  await expect(form.getByText(/an import of this file would save nothing/)).toBeVisible();
  // The server reads the whole file again on its own: the import is refused there, naming the
  // line and column, and nothing is written.
  await form.getByRole("button", { name: "Import dataset" }).click();
  const refusal = form.getByRole("alert");
  await expect(refusal).toContainText("Line 7");
  await expect(refusal).toContainText('column "revenue"');
  await expect(refusal).toContainText(/nothing was changed/i);
  await expect(pasteField).toHaveValue(badCsv);
  await expect(form.getByLabel("Name of the new dataset")).toHaveValue(name);
  await expectAxeClean(page);
  await page.goto("/admin/datasets");
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await context.close();
});

test("bad chart input shows field errors next to the fields and keeps the form", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const datasetName = uniqueName("Chart input");
  await createDatasetThroughForm(
    page,
    datasetName,
    "day,visits,orders\n2026-01-01,5,1\n2026-01-02,7,2",
  );
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByRole("checkbox", { name: "orders" }).check();
  await page.getByLabel("Number format").selectOption("currency");
  await page.getByLabel("Most decimal places").fill("many");
  await page.getByRole("button", { name: "Create chart" }).click();

  const digits = page.getByLabel("Most decimal places");
  await expect(digits).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#chart-format-digits-error")).toHaveText(
    "Enter a whole number from 0 to 20.",
  );
  await expect(digits).toHaveValue("many");
  await page.getByLabel("Most decimal places").fill("2");
  await page.getByRole("button", { name: "Create chart" }).click();
  const title = page.getByRole("textbox", { name: "Title" });
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#chart-title-error")).toHaveText("Enter a title.");
  // Currency without a code is no mistake: it writes the locale's own currency.
  await expect(page.locator("#chart-format-currency-error")).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "orders" })).toBeChecked();
  await expect(page.getByLabel("Dataset")).toHaveValue(/.+/);
  await expectAxeClean(page);
  await context.close();
});

test("saving rows over a stale version shows a conflict and keeps what was typed", async ({
  browser,
}) => {
  const first = await signedInPage(browser, "editor");
  const second = await signedInPage(browser, "admin");
  const id = await createDatasetThroughForm(
    first.page,
    uniqueName("Conflict"),
    "city,people\nOslo,700000\nBergen,290000",
  );
  await second.page.goto(`/admin/datasets/${id}`);
  await second.page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await first.page.getByLabel("people, row 1").fill("710000");
  await first.page.getByRole("button", { name: "Add row" }).click();
  // An added row is "new 1" until saved; then it has its row number.
  await expect(first.page.getByLabel("city, row new 1")).toBeFocused();
  await first.page.keyboard.type("Trondheim");
  await first.page.getByLabel("people, row new 1").fill("210000");
  await first.page.getByRole("button", { name: "Save rows" }).click();
  await expect(first.page.getByText("Rows saved.")).toBeVisible();
  await expect(first.page.getByLabel("city, row 3")).toHaveValue("Trondheim");

  await second.page.getByLabel("people, row 2").fill("300000");
  await second.page.getByRole("button", { name: "Remove row 1" }).click();
  await second.page.getByRole("button", { name: "Save rows" }).click();

  await expect(second.page.getByText(/changed by someone else/)).toBeVisible();
  // Rows keep their row numbers: row 1 is removed, row 2 keeps what was typed.
  await expect(second.page.getByLabel("people, row 2")).toHaveValue("300000");
  await expect(second.page.getByLabel("city, row 1")).toHaveCount(0);
  await second.page.reload();
  await expect(second.page.getByLabel("people, row 1")).toHaveValue("710000");
  await expect(second.page.getByLabel("city, row 3")).toHaveValue("Trondheim");
  await first.context.close();
  await second.context.close();
});

test("a typed cell that is not a number is refused with its row and column named", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await createDatasetThroughForm(page, uniqueName("Cells"), "item,count\nbolts,4\nnuts,9");

  await page.getByLabel("count, row 2").fill("nine");
  await page.getByRole("button", { name: "Save rows" }).click();

  await expect(
    page.getByText('Row 2, column "count": expected a number, got "nine".'),
  ).toBeVisible();
  await expect(page.getByLabel("count, row 2")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("count, row 2")).toHaveValue("nine");
  // Focus and view moved to the summary, whose entry leads to the bad cell.
  const summary = page.getByRole("region", { name: /1 problem in the rows/ });
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  await summary
    .getByRole("link", { name: 'Row 2, column "count": expected a number, got "nine".' })
    .click();
  await expect(page.getByLabel("count, row 2")).toBeFocused();
  // The edit is still unsaved: reloading asks first.
  const asked = page.waitForEvent("dialog");
  const reloading = page.reload();
  const dialog = await asked;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.accept();
  await reloading;
  await expect(page.getByLabel("count, row 2")).toHaveValue("9");
  await context.close();
});

test("unsaved row edits: a link asks before leaving, and staying keeps them", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const rows = Array.from({ length: 120 }, (_, index) => `item ${index + 1},${index + 1}`);
  await createDatasetThroughForm(page, uniqueName("Paged"), ["item,count", ...rows].join("\n"));
  await expect(page.getByText("120 rows, page 1 of 3")).toBeVisible();

  await page.getByLabel("count, row 1", { exact: true }).fill("1000");
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain("unsaved changes");
    void dialog.dismiss();
  });
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page.getByLabel("count, row 1", { exact: true })).toHaveValue("1000");
  expect(new URL(page.url()).searchParams.get("page")).toBeNull();

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("link", { name: "Last page" }).click();
  await expect(page.getByText("120 rows, page 3 of 3")).toBeVisible();
  await expect(page.getByLabel("count, row 101", { exact: true })).toHaveValue("101");

  // Jump straight to a page; nothing is edited, so nothing asks.
  await page.getByLabel("Page (1 to 3)").fill("2");
  await page.getByRole("button", { name: "Go to page" }).click();
  await expect(page.getByText("120 rows, page 2 of 3")).toBeVisible();
  await expect(page.getByLabel("count, row 51", { exact: true })).toHaveValue("51");
  await expectAxeClean(page);
  await context.close();
});

test("rename, then delete with a confirmation step; a dataset in use says who uses it", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  const name = uniqueName("Disposable");
  await createDatasetThroughForm(page, name, "label,amount\na,1\nb,2");

  const renamed = `${name} renamed`;
  await page.getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

  await page.getByRole("button", { name: `Delete dataset "${renamed}"` }).click();
  await expect(
    page.getByRole("button", { name: `Yes, delete dataset "${renamed}"` }),
  ).toBeFocused();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("button", { name: `Delete dataset "${renamed}"` })).toBeFocused();
  await page.getByRole("button", { name: `Delete dataset "${renamed}"` }).click();
  await page.getByRole("button", { name: `Yes, delete dataset "${renamed}"` }).click();
  await page.waitForURL(/\/admin\/datasets$/);
  await expect(page.getByRole("link", { name: renamed })).toHaveCount(0);

  // The demo dataset is drawn by demo charts, so the store refuses and the page says why.
  await page.getByRole("link", { name: "Monthly sales by channel" }).click();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("button", { name: /^Delete dataset/ }).click();
  await page.getByRole("button", { name: /^Yes, delete dataset/ }).click();
  await expect(page.getByText(/is still used by chart "/)).toBeVisible();
  await context.close();
});
