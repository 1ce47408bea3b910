import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { randomPassword, signInThroughForm } from "./support";

const run = promisify(execFile);

// One fresh server (port 3101) whose first user is made here, so the steps depend on each other.
test.describe.configure({ mode: "serial" });

async function fillSetup(
  page: Page,
  values: { name: string; email: string; password: string; confirm: string },
) {
  await page.getByLabel("Name").fill(values.name);
  await page.getByLabel("Email").fill(values.email);
  await page.getByLabel("Password", { exact: true }).fill(values.password);
  await page.getByLabel("Repeat the password").fill(values.confirm);
  await page.getByRole("button", { name: "Create admin" }).click();
}

test("before any user exists the admin area sends visitors to sign in", async ({ page }) => {
  const response = await page.goto("/admin/users");

  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/login");
  expect(new URL(page.url()).searchParams.get("next")).toBe("/admin/users");
});

test("the setup page is reachable, titled and axe-clean while no user exists", async ({ page }) => {
  const response = await page.goto("/setup");

  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("First-run setup · Seed Charts");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("setup shows field errors, keeps the typed values and creates nobody", async ({ page }) => {
  await page.goto("/setup");

  await fillSetup(page, {
    name: "Ada",
    email: "not-an-email",
    password: "short",
    confirm: "other",
  });

  await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();
  await expect(page.getByText("Use at least 12 characters.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Ada");
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  expect((await page.request.get("/setup")).status()).toBe(200);
});

test("two racing setup submissions create exactly one admin", async ({ browser }) => {
  const [first, second] = await Promise.all([browser.newContext(), browser.newContext()]);
  const pages = await Promise.all([first.newPage(), second.newPage()]);
  await Promise.all(pages.map((page) => page.goto("/setup")));
  const accounts = pages.map((_, index) => ({
    name: `Racer ${index}`,
    email: `racer${index}@first-run.test`,
    password: randomPassword(),
  }));

  await Promise.all(
    pages.map((page, index) => {
      const account = accounts[index];
      if (!account) throw new Error("one account per page");
      return fillSetup(page, { ...account, confirm: account.password });
    }),
  );

  const outcomes = await Promise.all(
    pages.map(async (page) => {
      const overview = page.getByRole("heading", { level: 1, name: "Overview" });
      const notFound = page.getByText("This page could not be found.");
      await expect(overview.or(notFound)).toBeVisible();
      return (await overview.isVisible()) ? "admin" : "not-found";
    }),
  );
  expect([...outcomes].sort()).toEqual(["admin", "not-found"]);
  const winner = pages[outcomes.indexOf("admin")];
  if (!winner) throw new Error("one page must have created the admin");
  const users = await winner.request.get("/admin/api/users");
  expect(users.status()).toBe(200);
  expect((await users.json()).total).toBe(1);
  await Promise.all([first.close(), second.close()]);
});

test("the setup page is a 404 once a user exists", async ({ request }) => {
  const response = await request.get("/setup");

  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("This page could not be found.");
});

test("the CLI creates an admin who can then sign in", async ({ page }) => {
  const email = "cli-admin@first-run.test";
  const password = randomPassword();
  const webRoot = fileURLToPath(new URL("..", import.meta.url));

  const { stdout } = await run(process.execPath, ["scripts/create-admin.mjs", "--email", email], {
    cwd: webRoot,
    env: {
      ...process.env,
      SEED_DATA_DIR: process.env.SEED_E2E_FRESH_DATA_DIR,
      SEED_ADMIN_PASSWORD: password,
      DATABASE_URL: "",
      BETTER_AUTH_SECRET: "",
    },
  });

  expect(stdout).toContain(`Created admin ${email}.`);
  await page.goto("/login?next=/admin/users");
  await signInThroughForm(page, email, password);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
});
