import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page } from "@playwright/test";
import { type TestRole, testUser } from "./support";

/** A name no other test or run uses, so tests never share records. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export async function signedInPage(browser: Browser, role: TestRole) {
  const context = await browser.newContext({ storageState: testUser(role).storageState });
  const page = await context.newPage();
  return { context, page };
}

export async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

/** Creates a dataset through the paste form and returns its id. */
export async function createDatasetThroughForm(
  page: Page,
  name: string,
  csv: string,
): Promise<string> {
  await page.goto("/admin/datasets/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("CSV text").fill(csv);
  await expect(page.getByRole("region", { name: "Preview" })).toBeVisible();
  await page.getByRole("button", { name: "Save dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+$/);
  const id = new URL(page.url()).pathname.split("/").pop();
  if (!id) throw new Error(`No dataset id in ${page.url()}`);
  return id;
}
