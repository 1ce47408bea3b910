import { expect, test } from "@playwright/test";
import { signedInPage, uniqueName } from "../content-support";
import { importFileLabel } from "../support";

// Issue 10, item 2: number checks are linear and cells are capped, so a small upload of
// pathological cells is refused with a clear message at once instead of holding a CPU.

const pathologicalCells = [
  (n: number) => `${"1".repeat(n)}a`,
  (n: number) => `-${"9".repeat(n)}e`,
  (n: number) => `${"1".repeat(n)}.${"2".repeat(n)}e+x`,
  (n: number) => "+-".repeat(n),
  (n: number) => "1e".repeat(n),
  (n: number) => `.${"0".repeat(n)}E-`,
];

for (const [index, cell] of pathologicalCells.entries()) {
  test(`an upload with pathological number cell ${index + 1} is refused quickly and clearly`, async ({
    browser,
  }) => {
    const { context, page } = await signedInPage(browser, "editor");
    await page.goto("/admin/datasets/new");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    // Enough numbers first that the column is typed as numbers; then one cell of 40,000+ characters.
    const lines = ["name,value", ...Array.from({ length: 30 }, (_, row) => `r${row},${row}`)];
    lines.push(`bad,${cell(40_000)}`);
    await page.getByLabel("Name of the new dataset").fill(uniqueName("Pathological"));
    await page.getByLabel(importFileLabel).setInputFiles({
      name: "numbers.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${lines.join("\n")}\n`),
    });
    const started = Date.now();
    await page.getByRole("button", { name: "Import dataset" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Line 32" });
    await expect(alert).toBeVisible({ timeout: 10_000 });
    await expect(alert).toContainText('column "value"');
    await expect(alert).toContainText(/longer than 4,000 characters|expected a number/);
    // Generous: a quadratic check took seconds on one such cell; this is the whole round trip.
    expect(Date.now() - started).toBeLessThan(5_000);
    await context.close();
  });
}

test("the import endpoint refuses cross-site and unauthenticated uploads", async ({
  browser,
  request,
}) => {
  const anonymous = await request.post("/api/datasets/import?name=x", { data: "a\n1\n" });
  expect(anonymous.status()).toBe(401);
  const { context, page } = await signedInPage(browser, "editor");
  const forged = await page.request.post("/api/datasets/import?name=x", {
    data: "a\n1\n",
    headers: { origin: "https://evil.example", "x-seed-import": "1" },
  });
  expect(forged.status()).toBe(403);
  const viewer = await signedInPage(browser, "viewer");
  const byViewer = await viewer.page.request.post("/api/datasets/import?name=x", {
    data: "a\n1\n",
  });
  expect(byViewer.status()).toBe(403);
  await viewer.context.close();
  await context.close();
});
