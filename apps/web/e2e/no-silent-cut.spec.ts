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
    label: "Name",
    limit: textLimits.name,
    submit: "Save dataset",
    fillRest: async (page) => {
      await page.getByLabel("CSV text").fill("day,revenue\n2026-01-01,10\n");
    },
    savedList: "/admin/datasets",
  },
  {
    form: "new dashboard",
    path: "/admin/dashboards/new",
    label: "Title",
    limit: textLimits.title,
    submit: "Create dashboard",
    fillRest: async () => {},
    savedList: "/admin/dashboards",
  },
];

for (const field of cases) {
  test(`${field.form}: a ${field.label.toLowerCase()} over its limit is kept, counted and refused; at the limit it is saved whole`, async ({
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
        page.getByText(
          `Keep the ${field.label.toLowerCase()} under ${field.limit + 1} characters.`,
        ),
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

test("an empty file is named as empty on both import forms, and neither saves", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const empty = { name: "empty.csv", mimeType: "text/csv", buffer: Buffer.alloc(0) };

  await page.getByLabel("Name", { exact: true }).fill(uniqueName("Empty"));
  await page.getByLabel("CSV file").setInputFiles(empty);
  await expect(
    page.getByText('"empty.csv" is empty (0 bytes): a CSV file needs a header row and rows.'),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Save dataset" })).toBeDisabled();

  await page.getByLabel(importFileLabel).setInputFiles(empty);
  await expect(
    page.getByText("This file is empty (0 bytes): a CSV file needs a header row and rows."),
  ).toBeVisible();
  await expect(page.getByText("Choose a CSV file.")).toHaveCount(0);
  await expectAxeClean(page);
  await context.close();
});

test("a file that is not UTF-8 is refused by name on the small form, never read garbled", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // "café" in Latin-1 (0xE9): not UTF-8; read as UTF-8 it would come out as "caf\uFFFD".
  const latin1 = {
    name: "latin1.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,value\ncaf\xe9,1\n", "latin1"),
  };
  await page.getByLabel("Name", { exact: true }).fill(uniqueName("Latin"));
  await page.getByLabel("CSV file").setInputFiles(latin1);
  await expect(page.getByText('"latin1.csv" is not UTF-8 text; nothing was read.')).toBeVisible();
  await expect(page.getByText("caf\uFFFD")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save dataset" })).toBeDisabled();
  await expectAxeClean(page);
  await context.close();
});
