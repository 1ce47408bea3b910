import AxeBuilder from "@axe-core/playwright";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { appBaseURL, horizontalOverflow, testUser } from "./support";
import {
  createAccount,
  enterCode,
  enterRefusedCode,
  passwordStep,
  setUpTwoFactor,
  totpFor,
  unusedCode,
  wrongCode,
} from "./two-factor-support";

async function signOut(page: import("@playwright/test").Page): Promise<void> {
  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/login");
}

test("a user turns on two-factor sign-in; then a sign-in needs the app's code or a recovery code, each once", async ({
  browser,
}) => {
  const account = await createAccount(browser, "viewer");
  const page = await passwordStep(browser, account);
  expect(new URL(page.url()).pathname).toBe("/admin");

  await page.goto("/admin/account");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  const setup = page.getByRole("form", { name: "Set up two-factor sign-in" });
  await setup.getByLabel("Your password").fill("not the password at all");
  await setup.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(setup.getByText("The password is not right.")).toBeVisible();

  await setup.getByLabel("Your password").fill(account.password);
  await setup.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const key = (await page.getByTestId("two-factor-key").textContent()) ?? "";
  expect(key.replace(/\s/g, "")).toMatch(/^[A-Z2-7]{32,}$/);
  await expect(page.getByRole("img", { name: /QR code of the key/ })).toBeVisible();
  const codes = await page
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
  // The setup screen, with its key and codes shown: labelled, axe-clean, no sideways scroll on a phone.
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  const totp = totpFor(key);
  const confirm = page.getByRole("form", { name: "Confirm two-factor sign-in" });
  await confirm.getByLabel("6-digit code").fill(wrongCode(totp));
  await confirm.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(confirm.getByText(/The code is not right/)).toBeVisible();
  const used = new Set<string>();
  await confirm.getByLabel("6-digit code").fill(await unusedCode(totp, used));
  await confirm.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByRole("status").getByText("Two-factor sign-in is on.")).toBeVisible();
  await signOut(page);

  // The password alone now opens nothing: no session until the code is given.
  const second = await passwordStep(browser, account);
  expect(new URL(second.url()).pathname).toBe("/login/two-factor");
  expect(new URL(second.url()).searchParams.get("next")).toBe("/admin");
  const sessionCookies = (await second.context().cookies()).filter((cookie) =>
    cookie.name.includes("session_token"),
  );
  expect(sessionCookies).toEqual([]);
  const probe = await second.context().request.get("/admin", {
    maxRedirects: 0,
    headers: { Accept: "text/html" },
  });
  expect(probe.status()).toBe(307);
  expect(new URL(probe.headers().location ?? "", appBaseURL()).pathname).toBe("/login");
  await second.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect((await new AxeBuilder({ page: second }).analyze()).violations).toEqual([]);
  await enterRefusedCode(second, wrongCode(totp));
  await expect(
    second.getByText("The code is not right. Enter the newest code from your app."),
  ).toBeVisible();
  const code = await unusedCode(totp, used);
  await enterCode(second, code);
  await second.waitForURL((url) => url.pathname === "/admin");
  await signOut(second);

  // The same code again, while the app may still show it: refused, and no session is left.
  const replay = await passwordStep(browser, account);
  await enterCode(replay, code);
  await expect(
    replay.getByText(
      "That code was already used. Sign in again with your password, then enter the next code from your app.",
    ),
  ).toBeVisible();
  const afterReplay = await replay.context().request.get("/admin", {
    maxRedirects: 0,
    headers: { Accept: "text/html" },
  });
  expect(afterReplay.status()).toBe(307);

  // A recovery code signs in once; the same code again is refused, another one works.
  const [first, next] = codes as [string, string];
  const third = await passwordStep(browser, account);
  await enterCode(third, first);
  await third.waitForURL((url) => url.pathname === "/admin");
  await signOut(third);
  const fourth = await passwordStep(browser, account);
  await enterRefusedCode(fourth, first);
  await expect(
    fourth.getByText("That recovery code is not right, or it was already used."),
  ).toBeVisible();
  await enterCode(fourth, next);
  await fourth.waitForURL((url) => url.pathname === "/admin");

  // Each change is in the audit log under the account itself.
  const admin = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const audit = await (await admin.get("/admin/api/audit?action=user.enable-two-factor")).json();
  const enabled = audit.events.find(
    (event: { actor: { email?: string } | null }) => event.actor?.email === account.email,
  );
  expect(enabled).toBeDefined();
  // Each session is audited once, at the step that began it, with how the account proved who it
  // is; a password waiting for its code, a wrong code and a replayed code begin none. Sign-outs too.
  type SessionEvent = { action: string; detail: { method?: string; userAgent?: string } | null };
  const own = await (
    await admin.get(`/admin/api/audit?entityType=user&actor=${enabled.actor.id}`)
  ).json();
  const sessions = (own.events as SessionEvent[])
    .filter((event) => event.action === "user.sign-in" || event.action === "user.sign-out")
    .reverse();
  expect(
    sessions.map((event) =>
      event.action === "user.sign-out" ? "signed out" : event.detail?.method,
    ),
  ).toEqual([
    "password",
    "signed out",
    "password and app code",
    "signed out",
    "password and recovery code",
    "signed out",
    "password and recovery code",
  ]);
  expect(sessions[0]?.detail?.userAgent).toContain("Chrome");

  // An admin turns it off for someone who lost phone and codes: the password alone works again.
  const users = await (
    await browser.newContext({ storageState: testUser("admin").storageState })
  ).newPage();
  await users.goto("/admin/users");
  await users.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const row = users.locator(`tr[data-user-email="${account.email}"]`);
  await expect(row.getByRole("cell", { name: "On", exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Turn off two-factor for ${account.email}` }).click();
  await users
    .getByRole("dialog")
    .getByRole("button", { name: `Yes, turn it off for ${account.email}` })
    .click();
  await expect(row.getByRole("cell", { name: "Off", exact: true })).toBeVisible();
  const reset = await (await admin.get("/admin/api/audit?action=user.reset-two-factor")).json();
  expect(reset.events.length).toBeGreaterThan(0);
  await admin.dispose();
  const fifth = await passwordStep(browser, account);
  expect(new URL(fifth.url()).pathname).toBe("/admin");
});

test("five wrong codes end a sign-in: even the right code is then refused until the password is given again", async ({
  browser,
}) => {
  const account = await createAccount(browser, "editor");
  const page = await passwordStep(browser, account);
  await page.goto("/admin/account");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const { totp, used } = await setUpTwoFactor(page, account.password);
  await signOut(page);

  const challenge = await passwordStep(browser, account);
  for (let attempt = 0; attempt < 5; attempt++) {
    await enterRefusedCode(challenge, wrongCode(totp));
    await expect(challenge.getByText(/The code is not right/)).toBeVisible();
  }
  const right = await unusedCode(totp, used);
  await enterCode(challenge, right);
  await expect(
    challenge.getByText("Too many wrong codes for this sign-in. Sign in again with your password."),
  ).toBeVisible();
  expect(new URL(challenge.url()).pathname).toBe("/login/two-factor");

  // The refused code was never accepted, so it is not spent: it signs in after the password.
  used.delete(right);
  const again = await passwordStep(browser, account);
  await enterCode(again, await unusedCode(totp, used));
  await again.waitForURL((url) => url.pathname === "/admin");
});

test("better-auth's two-factor endpoints are closed over HTTP: only the app's forms reach them", async () => {
  const client = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("viewer").storageState,
  });
  for (const path of [
    "/api/auth/two-factor/enable",
    "/api/auth/two-factor/disable",
    "/api/auth/two-factor/verify-totp",
    "/api/auth/two-factor/verify-backup-code",
    "/api/auth/two-factor/generate-backup-codes",
    "/api/auth/two-factor/get-totp-uri",
  ]) {
    const response = await client.post(path, { data: { password: "x", code: "123456" } });
    expect(response.status(), path).toBe(404);
  }
  await client.dispose();
});
