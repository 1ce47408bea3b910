import { randomBytes } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { randomPassword, signInThroughForm, testUser } from "./support";

/**
 * Two-factor sign-in in the browser: accounts made through the admin's Users form, codes computed
 * by an independent TOTP implementation (otpauth, RFC 6238) from the key the page shows.
 */

export interface Account {
  email: string;
  password: string;
}

/** A new account of `role`, made by the admin through the Users form. */
export async function createAccount(browser: Browser, role: string): Promise<Account> {
  const account = {
    email: `two-factor-${randomBytes(5).toString("hex")}@e2e.seed-charts.test`,
    password: randomPassword(),
  };
  const context = await browser.newContext({ storageState: testUser("admin").storageState });
  const page = await context.newPage();
  await page.goto("/admin/users");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("region", { name: "Create a user" });
  await form.getByLabel("Name", { exact: true }).fill("Two-factor user");
  await form.getByLabel("Email", { exact: true }).fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByLabel("Role", { exact: true }).selectOption(role);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText(`Created ${account.email} as ${role}.`)).toBeVisible();
  await context.close();
  return account;
}

/** A fresh browser that has given the password; it stands wherever the app sent it next. */
export async function passwordStep(browser: Browser, account: Account): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/login?next=/admin");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await signInThroughForm(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname !== "/login");
  return page;
}

export function totpFor(key: string): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(key.replace(/\s+/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
}

/** A 6-digit code no window the server accepts (now, and one step either side) would take. */
export function wrongCode(totp: TOTP): string {
  const now = Date.now();
  const accepted = new Set(
    [-30_000, 0, 30_000].map((shift) => totp.generate({ timestamp: now + shift })),
  );
  for (let n = 0; ; n++) {
    const code = String((Number(totp.generate({ timestamp: now })) + 1 + n) % 1_000_000).padStart(
      6,
      "0",
    );
    if (!accepted.has(code)) return code;
  }
}

/**
 * The app's current code once it is one not in `used` (each code counts once, so a test that
 * signs in twice within 30 s waits for the app's next code, as a person would), marked used.
 */
export async function unusedCode(totp: TOTP, used: Set<string>): Promise<string> {
  let code = totp.generate();
  await expect
    .poll(
      () => {
        code = totp.generate();
        return used.has(code);
      },
      { timeout: 35_000, intervals: [500] },
    )
    .toBe(false);
  used.add(code);
  return code;
}

/**
 * On the account page: sets up the second factor; returns the app's key, the recovery codes and
 * the codes used so far (the confirming one).
 */
export async function setUpTwoFactor(
  page: Page,
  password: string,
): Promise<{ totp: TOTP; recoveryCodes: string[]; used: Set<string> }> {
  const setup = page.getByRole("form", { name: "Set up two-factor sign-in" });
  await setup.getByLabel("Your password").fill(password);
  await setup.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const key = (await page.getByTestId("two-factor-key").textContent()) ?? "";
  const totp = totpFor(key);
  const recoveryCodes = await page
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  const confirm = page.getByRole("form", { name: "Confirm two-factor sign-in" });
  const used = new Set<string>();
  await confirm.getByLabel("6-digit code").fill(await unusedCode(totp, used));
  await confirm.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await page.waitForURL((url) => url.searchParams.get("two-factor") === "on");
  return { totp, recoveryCodes, used };
}

/** On the code step: enters a code and presses Sign in. */
export async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * On the code step: enters a code the app will refuse, and returns once the refusal is on the
 * page and the form is ready again. A message from the attempt before may still be showing, so
 * this waits for the answer to this press, then for the form to leave "Checking…" (React clears
 * the field in that same render, so a code typed earlier would be wiped before it is sent).
 */
export async function enterRefusedCode(page: Page, code: string): Promise<void> {
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      response.request().headers()["next-action"] !== undefined,
  );
  await enterCode(page, code);
  await answered;
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await expect(page.getByLabel("Code", { exact: true })).toHaveValue("");
}
