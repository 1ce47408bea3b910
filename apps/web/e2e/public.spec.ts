import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { testUser } from "./support";

test("home lists published dashboards and draws all four chart types", async ({ page }) => {
  await page.goto("/");

  await expect(page.getByRole("link", { name: "Store performance" })).toHaveAttribute(
    "href",
    "/d/demo",
  );
  await expect(page.getByRole("link", { name: /Marketing funnel/i })).toHaveCount(0);
  const charts = page.getByRole("region", { name: "The four chart types" }).getByRole("figure");
  await expect(charts).toHaveCount(4);
  await expect(charts.locator("svg.recharts-surface").first()).toBeVisible();
});

test("a published dashboard shows its stat tiles and charts, axe-clean", async ({ page }) => {
  const response = await page.goto("/d/demo");

  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Store performance · Seed Charts");
  await expect(page.getByRole("heading", { level: 1, name: "Store performance" })).toBeVisible();
  await expect(page.getByText("Revenue in 2025")).toBeVisible();
  await expect(page.getByText("Customer satisfaction")).toBeVisible();
  await expect(page.getByRole("figure").first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("public pages load with no console errors or warnings", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });

  for (const path of ["/", "/d/demo"]) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.locator("svg.recharts-surface").first()).toBeVisible();
  }

  expect(problems).toEqual([]);
});

test("a draft dashboard is a 404 for anonymous visitors", async ({ request }) => {
  const response = await request.get("/d/marketing-funnel");

  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("This page could not be found.");
});

test("a signed-in viewer previews a draft in the admin area; the public page stays a 404", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: testUser("viewer").storageState });
  const page = await context.newPage();

  const response = await page.goto("/admin/preview/marketing-funnel");

  expect(response?.status()).toBe(200);
  await expect(page.getByText("Draft preview:")).toBeVisible();
  // Signed in or not, /d/<slug> is the cached public page: drafts are not on it.
  expect((await page.goto("/d/marketing-funnel"))?.status()).toBe(404);
  await context.close();
});

test("an unknown dashboard slug is a 404", async ({ request }) => {
  const response = await request.get("/d/no-such-dashboard");

  expect(response.status()).toBe(404);
});

test.describe("dark colour scheme", () => {
  test.use({ colorScheme: "dark" });

  for (const path of ["/", "/d/demo"]) {
    test(`${path} is axe-clean in dark mode`, async ({ page }) => {
      await page.goto(path);

      await expect(page.getByRole("figure").first()).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);
    });
  }
});
