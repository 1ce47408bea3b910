import { statSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, request, test } from "@playwright/test";
import { appBaseURL, e2eDataDir, signInThroughForm, testUser } from "./support";

test("the sign-in page is titled and axe-clean", async ({ page }) => {
  await page.goto("/login");

  await expect(page).toHaveTitle("Sign in · Seed Charts");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("a wrong password shows an error and keeps the typed email", async ({ page }) => {
  const startedAt = Date.now() - 1_000;
  const viewer = testUser("viewer");
  await page.goto("/login");

  await signInThroughForm(page, viewer.email, `${viewer.password}-wrong`);

  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(viewer.email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  expect(new URL(page.url()).pathname).toBe("/login");
  // The refusal is audited on the account, once the answer is sent, for admins to read.
  const admin = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const refusedAfter = async () => {
    const answer = await admin.get("/admin/api/audit?action=user.sign-in-refused");
    const body = (await answer.json()) as {
      events: { at: string; actor: { email?: string }; detail: { reason?: string } | null }[];
    };
    return body.events
      .filter((event) => event.actor.email === viewer.email && Date.parse(event.at) >= startedAt)
      .map((event) => event.detail?.reason);
  };
  await expect.poll(refusedAfter).toContain("wrong password");
  await admin.dispose();
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
    expect(new URL(page.url()).host).toBe(new URL(appBaseURL()).host);
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

test("the session cookie is httpOnly and SameSite=Lax", async ({ page }) => {
  const viewer = testUser("viewer");
  await page.goto("/login?next=/admin");

  await signInThroughForm(page, viewer.email, viewer.password);
  await page.waitForURL((url) => url.pathname === "/admin");

  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name.endsWith("better-auth.session_token"));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  // The test server runs on http://localhost, so no Secure flag; BETTER_AUTH_URL=https:// sets it.
  expect(session?.secure).toBe(false);
});

test("without BETTER_AUTH_SECRET a random secret is kept in the data folder, mode 0600", () => {
  const file = path.join(e2eDataDir(), "auth-secret");

  const stats = statSync(file);

  expect(stats.mode & 0o777).toBe(0o600);
  expect(stats.size).toBeGreaterThanOrEqual(32);
});

test("self sign-up through better-auth's HTTP API is disabled", async ({ request }) => {
  const response = await request.post("/api/auth/sign-up/email", {
    headers: { Origin: "http://localhost:3100" },
    data: { email: "intruder@e2e.seed-charts.test", password: "long-enough-password", name: "x" },
  });

  expect(response.status()).toBeGreaterThanOrEqual(400);
  expect(response.status()).toBeLessThan(500);
});

test("signing in works with the keyboard alone", async ({ page }) => {
  const viewer = testUser("viewer");
  await page.goto("/login?next=/admin/charts");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await page.getByLabel("Email").focus();
  await page.keyboard.type(viewer.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(viewer.password);
  await page.keyboard.press("Enter");

  await page.waitForURL((url) => url.pathname === "/admin/charts");
  await expect(page.getByRole("heading", { level: 1, name: "Charts" })).toBeVisible();
});

test("following the Admin link while signed out lands on sign-in with next=/admin", async ({
  page,
}) => {
  await page.goto("/");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Admin" }).click();

  await page.waitForURL((url) => url.pathname === "/login");
  expect(new URL(page.url()).searchParams.get("next")).toBe("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
});
