import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signInThroughForm, testUser } from "./support";

test("the sign-in page is titled and axe-clean", async ({ page }) => {
  await page.goto("/login");

  await expect(page).toHaveTitle("Sign in · Seed Charts");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("a wrong password shows an error and keeps the typed email", async ({ page }) => {
  const viewer = testUser("viewer");
  await page.goto("/login");

  await signInThroughForm(page, viewer.email, `${viewer.password}-wrong`);

  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(viewer.email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  expect(new URL(page.url()).pathname).toBe("/login");
});

test("an invalid email gets a field error", async ({ page }) => {
  await page.goto("/login");

  await signInThroughForm(page, "nobody", "whatever-password");

  await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email")).toHaveValue("nobody");
});

test("signing in returns to the admin page that was asked for", async ({ page }) => {
  const viewer = testUser("viewer");
  await page.goto("/admin/audit?entityType=dashboard");
  expect(new URL(page.url()).pathname).toBe("/login");

  await signInThroughForm(page, viewer.email, viewer.password);

  await page.waitForURL(
    (url) => `${url.pathname}${url.search}` === "/admin/audit?entityType=dashboard",
  );
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
});

for (const next of [
  "//evil.example/admin",
  "https://evil.example/",
  "/\\evil.example",
  "javascript:alert(1)",
]) {
  test(`next=${next} cannot send the user off-site`, async ({ page }) => {
    const editor = testUser("editor");
    await page.goto(`/login?next=${encodeURIComponent(next)}`);

    await signInThroughForm(page, editor.email, editor.password);

    await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin");
    expect(new URL(page.url()).host).toBe("localhost:3100");
    expect(new URL(page.url()).pathname).toBe("/admin");
  });
}

test("signing out ends the session and closes the admin area", async ({ page }) => {
  const editor = testUser("editor");
  await page.goto("/login?next=/admin");
  await signInThroughForm(page, editor.email, editor.password);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin");

  await page.getByRole("button", { name: "Sign out" }).click();

  await page.waitForURL((url) => `${url.pathname}${url.search}` === "/login");
  await page.goto("/admin");
  expect(new URL(page.url()).pathname).toBe("/login");
});
