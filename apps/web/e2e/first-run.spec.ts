import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createAdminWithCli, type ServerProcess, startServer } from "./server-process";
import { randomPassword, signInThroughForm } from "./support";

// One fresh server (SEED_E2E_PORT + 1), started here so its log can be read; its first user is
// made here, so the steps depend on each other.
test.describe.configure({ mode: "serial" });

let server: ServerProcess;
let setupToken = "";

test.beforeAll(async () => {
  server = await startServer(Number(process.env.SEED_E2E_PORT ?? 3100) + 1);
  const printed = await server.waitForOutput(/setup token: (\S+)/);
  setupToken = printed[1] ?? "";
});

test.afterAll(async () => {
  await server?.stop();
});

async function fillSetup(
  page: Page,
  values: { name: string; email: string; password: string; confirm: string; token?: string },
) {
  await page.getByLabel("Setup token").fill(values.token ?? setupToken);
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

test("at first start the server prints a one-time setup token to its log", () => {
  expect(setupToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(server.output()).toContain("Open /setup and enter this one-time setup token");
});

for (const [label, token] of [
  ["no setup token", ""],
  ["a wrong setup token", "wrong-token-0123456789abcdefghij"],
  ["the token with one character changed", "?"],
  ["a 10,000-character token", "x".repeat(10_000)],
] as const) {
  test(`setup with ${label} is refused at the token field and creates nobody`, async ({ page }) => {
    await page.goto("/setup");
    const password = randomPassword();
    const tried =
      token === "?" ? `${setupToken.slice(0, -1)}${setupToken.endsWith("A") ? "B" : "A"}` : token;

    await fillSetup(page, {
      name: "Intruder",
      email: "intruder@first-run.test",
      password,
      confirm: password,
      token: tried,
    });

    const field = page.getByLabel("Setup token");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(
      page.getByText(/Enter the setup token from the server's log\.|This setup token is not valid/),
    ).toBeVisible();
    expect((await page.request.get("/setup")).status()).toBe(200);
  });
}

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
  await expect(page.getByLabel("Setup token")).not.toHaveAttribute("aria-invalid", "true");
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

test("once an admin exists a restart prints no setup token and /setup stays a 404", async ({
  page,
}) => {
  await server.stop();
  server = await startServer(Number(process.env.SEED_E2E_PORT ?? 3100) + 1, {
    dataDir: server.dataDir,
    databaseUrl: server.databaseUrl,
  });
  expect(server.output()).not.toContain("setup token:");
  expect((await page.request.get(`${server.url}/setup`)).status()).toBe(404);
});

test("the CLI creates an admin who can then sign in", async ({ page }) => {
  const email = "cli-admin@first-run.test";
  const password = randomPassword();

  const stdout = await createAdminWithCli(server, { email, name: "CLI admin", password });

  expect(stdout).toContain(`Created admin ${email}.`);
  await page.goto("/login?next=/admin/users");
  await signInThroughForm(page, email, password);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
});
