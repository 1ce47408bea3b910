import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, expect, type FullConfig } from "@playwright/test";
import { createAdminWithCli } from "./server-process";
import {
  chromiumLaunchOptions,
  e2eDataDir,
  randomPassword,
  signInThroughForm,
  type TestRole,
  type TestUser,
  usersFile,
} from "./support";

async function signInAndSave(browser: Browser, baseURL: string, user: TestUser) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/login?next=/admin");
  await signInThroughForm(page, user.email, user.password);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin");
  await context.storageState({ path: user.storageState });
  await context.close();
}

/**
 * The first admin through the CLI (the main server's /setup needs the token from its log; the
 * first-run spec covers that path), editor and viewer through the admin's Users form.
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects.find((project) => project.name === "app")?.use.baseURL;
  if (!baseURL) throw new Error("The app project needs a baseURL");
  const stateDir = path.join(e2eDataDir(), "auth");
  mkdirSync(stateDir, { recursive: true });
  const users = Object.fromEntries(
    (["admin", "editor", "viewer"] as const).map((role): [TestRole, TestUser] => [
      role,
      {
        role,
        email: `${role}@e2e.seed-charts.test`,
        password: randomPassword(),
        name: `E2E ${role}`,
        storageState: path.join(stateDir, `${role}.json`),
      },
    ]),
  ) as Record<TestRole, TestUser>;

  await createAdminWithCli(
    { dataDir: e2eDataDir(), databaseUrl: process.env.SEED_E2E_APP_DATABASE_URL ?? "" },
    users.admin,
  );
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    await signInAndSave(browser, baseURL, users.admin);
    const context = await browser.newContext({ baseURL, storageState: users.admin.storageState });
    const page = await context.newPage();
    await page.goto("/admin/users");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    for (const role of ["editor", "viewer"] as const) {
      const user = users[role];
      const form = page.getByRole("region", { name: "Create a user" });
      await form.getByLabel("Name").fill(user.name);
      await form.getByLabel("Email").fill(user.email);
      await form.getByLabel("Password").fill(user.password);
      await form.getByLabel("Role", { exact: true }).selectOption(role);
      await form.getByRole("button", { name: "Create user" }).click();
      await expect(page.getByText(`Created ${user.email} as ${role}.`)).toBeVisible();
    }
    await context.close();
    for (const role of ["editor", "viewer"] as const) {
      await signInAndSave(browser, baseURL, users[role]);
    }
  } finally {
    await browser.close();
  }
  writeFileSync(usersFile(), JSON.stringify(users, null, 2), { mode: 0o600 });
}
