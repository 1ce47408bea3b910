import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, expect, type FullConfig } from "@playwright/test";
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

/** First admin through the /setup page, editor and viewer through better-auth's admin API. */
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

  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/setup");
    await page.getByLabel("Name").fill(users.admin.name);
    await page.getByLabel("Email").fill(users.admin.email);
    await page.getByLabel("Password", { exact: true }).fill(users.admin.password);
    await page.getByLabel("Repeat the password").fill(users.admin.password);
    await page.getByRole("button", { name: "Create admin" }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === "/admin");
    await context.storageState({ path: users.admin.storageState });

    for (const role of ["editor", "viewer"] as const) {
      const user = users[role];
      const response = await page.request.post("/api/auth/admin/create-user", {
        headers: { Origin: baseURL },
        data: { email: user.email, password: user.password, name: user.name, role },
      });
      expect(response.status(), await response.text()).toBe(200);
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
