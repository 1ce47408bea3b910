import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

export type TestRole = "admin" | "editor" | "viewer";

export interface TestUser {
  role: TestRole;
  email: string;
  password: string;
  name: string;
  storageState: string;
}

export const chromiumLaunchOptions = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
  ],
};

/** A fresh password per run: no credentials live in the code. */
export function randomPassword(): string {
  return `${randomBytes(18).toString("base64url")}!9a`;
}

export function e2eDataDir(): string {
  const dir = process.env.SEED_E2E_DATA_DIR;
  if (!dir) throw new Error("SEED_E2E_DATA_DIR is set by playwright.config.ts");
  return dir;
}

export function usersFile(): string {
  return path.join(e2eDataDir(), "e2e-users.json");
}

/** The accounts global-setup made for this run. */
export function testUser(role: TestRole): TestUser {
  const users = JSON.parse(readFileSync(usersFile(), "utf8")) as Record<TestRole, TestUser>;
  return users[role];
}

export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
