import { expect, type Page, test } from "@playwright/test";
import { textLimits } from "@seed/model";
import fc from "fast-check";
import { expectAxeClean, signedInPage, uniqueName } from "./content-support";
import { importFileLabel } from "./support";

// No text is cut without a word: a name or description over its limit stays as typed, the field
// counts and says how much is over, the server refuses it with the field's message and nothing is
// saved; a text exactly at the limit is saved whole. Lengths and characters are generated (accents,
// CJK, emoji of two UTF-16 units but one character, spaces inside words), the seed printed.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`[e2e no-silent-cut] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);

const pieces = ["a", "Z", "é", "ß", "ü", "中", "😀", " ", "-", "7"];

/** A text of exactly `length` characters (code points, as the store counts), "x" at both ends. */
function textOf(length: number, picks: number[]): string {
  const text = ["x"];
  for (let index = 0; text.length < length - 1; index++) {
    text.push(pieces[(picks[index % picks.length] ?? 0) % pieces.length] ?? "a");
  }
  text.push("x");
  return text.join("");
}

/** Characters as the store counts them. */
const lengthOf = (text: string) => Array.from(text).length;

const samples = fc.sample(
  fc.record({
    over: fc.integer({ min: 1, max: 300 }),
    picks: fc.array(fc.nat(), { minLength: 5, maxLength: 40 }),
  }),
  { seed, numRuns: 2 },
);

interface FieldCase {
  form: string;
  path: string;
  label: string;
  /** What the refusal calls the field. */
  field: string;
  limit: number;
  submit: string;
  /** Fills what else the form needs to save. */
  fillRest: (page: Page, text: string) => Promise<void>;
  /** Where the saved record's text shows. */
  savedList: string;
}

const cases: FieldCase[] = [
  {
    form: "new dataset",
    path: "/admin/datasets/new",
    label: "Name of the new dataset",
    field: "name",
    limit: textLimits.name,
    submit: "Import dataset",
    fillRest: async (page) => {
      await page
        .getByLabel("Or paste the rows (CSV, JSON or NDJSON text)")
        .fill("day,revenue\n2026-01-01,10\n");
      await expect(page.getByRole("region", { name: "Preview of the rows" })).toBeVisible();
    },
    savedList: "/admin/datasets",
  },
  {
    form: "new dashboard",
    path: "/admin/dashboards/new",
    label: "Title",
    field: "title",
    limit: textLimits.title,
    submit: "Create dashboard",
    fillRest: async () => {},
    savedList: "/admin/dashboards",
  },
];

for (const field of cases) {
  test(`${field.form}: a ${field.field} over its limit is kept, counted and refused; at the limit it is saved whole`, async ({
    browser,
  }) => {
    const { context, page } = await signedInPage(browser, "editor");
    for (const sample of samples) {
      const tooLong = textOf(field.limit + sample.over, sample.picks);
      await page.goto(field.path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const input = page.getByLabel(field.label, { exact: true });
      await input.fill(tooLong);
      await field.fillRest(page, tooLong);
      await expect(input).toHaveValue(tooLong);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(
        page.getByText(
          `${lengthOf(tooLong).toLocaleString("en-US")} characters: keep it under ${(field.limit + 1).toLocaleString("en-US")}.`,
        ),
      ).toBeVisible();
      await page.getByRole("button", { name: field.submit }).click();
      await expect(
        page.getByText(`Keep the ${field.field} under ${field.limit + 1} characters.`),
      ).toBeVisible();
      await expect(input).toHaveValue(tooLong);
      await expectAxeClean(page);
    }

    const prefix = `${uniqueName("Whole")} `;
    const whole = prefix + textOf(field.limit - lengthOf(prefix), samples[0]?.picks ?? [1]);
    await page.goto(field.path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const input = page.getByLabel(field.label, { exact: true });
    await input.fill(whole);
    await field.fillRest(page, whole);
    await expect(page.getByText(`${lengthOf(whole)} of ${field.limit} characters`)).toBeVisible();
    await page.getByRole("button", { name: field.submit }).click();
    await page.waitForURL((url) => url.pathname !== field.path);
    await page.goto(field.savedList);
    await expect(page.getByText(whole, { exact: true }).first()).toBeVisible();
    await context.close();
  });
}

test("an empty file is named as empty, and nothing is imported", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const empty = { name: "empty.csv", mimeType: "text/csv", buffer: Buffer.alloc(0) };

  await page.getByLabel("Name of the new dataset").fill(uniqueName("Empty"));
  await page.getByLabel(importFileLabel).setInputFiles(empty);
  const fileField = page.getByLabel(importFileLabel);
  await expect(
    page.getByText("This file is empty (0 bytes): a CSV file needs a header row and rows."),
  ).toBeVisible();
  await expect(fileField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Import dataset" })).toBeDisabled();
  // The file is chosen: nothing asks for one.
  await expect(page.getByText("Choose a file.")).toHaveCount(0);
  await expectAxeClean(page);
  await context.close();
});

test("a file that is not UTF-8 is read in its own encoding, never garbled", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // "café" in Windows-1252 (0xE9): not UTF-8; read as UTF-8 it would come out as "caf\uFFFD".
  const latin1 = {
    name: "latin1.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,city\ncafé,München\nJosé,Zürich\n", "latin1"),
  };
  const name = uniqueName("Latin");
  await page.getByLabel("Name of the new dataset").fill(name);
  await page.getByLabel(importFileLabel).setInputFiles(latin1);
  const preview = page.getByRole("region", { name: "Preview of the rows" });
  await expect(preview.getByRole("cell", { name: "café", exact: true })).toBeVisible();
  await expect(page.getByText(/Read as (windows-1252|ISO-8859-1)/)).toBeVisible();
  await expect(page.getByText("caf\uFFFD")).toHaveCount(0);
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Import dataset" }).click();
  await page.waitForURL(/saved=import/);
  await expect(page.getByLabel("city, row 1")).toHaveValue("München");
  await expect(page.getByLabel("name, row 2")).toHaveValue("José");
  await context.close();
});
