import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

test("home page renders with a title and no axe violations", async ({ page }) => {
  const response = await page.goto("/");

  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Seed Charts");
  await expect(page.getByRole("heading", { level: 1, name: "Seed Charts" })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("home page sends the security headers", async ({ request }) => {
  const response = await request.get("/");

  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-powered-by"]).toBeUndefined();
});

test("an unknown path answers 404 with the not-found text", async ({ page }) => {
  const response = await page.goto("/no-such-page/here");

  expect(response?.status()).toBe(404);
  await expect(page.getByText("This page could not be found.", { exact: true })).toBeVisible();
});

test("a server-side failure shows the error page with a digest", async ({ page }) => {
  const response = await page.goto("/e2e-error");

  expect(response?.status()).toBe(500);
  await expect(
    page.getByRole("heading", {
      name: "Application error: a server-side exception has occurred",
    }),
  ).toBeVisible();
  await expect(page.getByText("See the server logs for more information.")).toBeVisible();
  await expect(page.getByTestId("error-digest")).toHaveText(/^\S+$/);
});

test("route handlers answer unsupported methods with 405 and its name", async ({ request }) => {
  const response = await request.post("/api/health");

  expect(response.status()).toBe(405);
  expect(response.headers().allow).toBe("GET, HEAD");
  expect(await response.json()).toEqual({ status: 405, error: "Method Not Allowed" });
});
