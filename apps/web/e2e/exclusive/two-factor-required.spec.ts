import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { appBaseURL, horizontalOverflow, testUser } from "../support";
import { createAccount, passwordStep, setUpTwoFactor } from "../two-factor-support";

// The requirement is one setting for the whole instance, so this spec runs in the "exclusive"
// project, after every other test of the run (playwright.config.ts): requiring it of viewers
// while other tests sign in as the shared viewer would send them to set it up.

async function setRequirement(page: Page, roles: readonly string[]): Promise<void> {
  await page.goto("/admin/users");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const form = page.getByRole("group", { name: "Require two-factor sign-in of" });
  for (const label of ["Admins", "Editors", "Viewers"]) {
    await form.getByLabel(label).setChecked(roles.includes(label));
  }
  await page.getByRole("button", { name: "Save requirement" }).click();
  await expect(
    page.getByText(/Two-factor sign-in is (required of|optional for everyone)/),
  ).toBeVisible();
}

test("when an admin requires two-factor sign-in of a role, its accounts set it up before anything else", async ({
  browser,
}) => {
  const account = await createAccount(browser, "viewer");
  const admin = await (
    await browser.newContext({ storageState: testUser("admin").storageState })
  ).newPage();
  await setRequirement(admin, ["Viewers"]);
  await expect(
    admin.getByText(
      "Two-factor sign-in is required of: viewers. Those without it set it up at their next page.",
    ),
  ).toBeVisible();

  try {
    const page = await passwordStep(browser, account);
    // Any admin page sends the account to set it up first; the nav offers only the account page.
    for (const path of ["/admin", "/admin/datasets", "/admin/tokens"]) {
      await page.goto(path);
      expect(new URL(page.url()).pathname, path).toBe("/admin/account");
      expect(new URL(page.url()).searchParams.get("two-factor")).toBe("required");
    }
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(
      page.getByText(
        "Every viewer must sign in with a second factor here. Set it up below to go on.",
      ),
    ).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link", { name: "Your account" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Datasets" })).toHaveCount(0);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    // Route handlers refuse too, with the reason.
    const api = await page.context().request.get("/admin/api/audit");
    expect(api.status()).toBe(403);
    expect((await api.json()).message).toContain("Set up two-factor sign-in first");

    await setUpTwoFactor(page, account.password);
    await page.goto("/admin/datasets");
    expect(new URL(page.url()).pathname).toBe("/admin/datasets");
    // Required of its role, it cannot be turned off by the account itself.
    await page.goto("/admin/account");
    await expect(
      page.getByText("Your role must use two-factor sign-in here, so it cannot be turned off."),
    ).toBeVisible();
    await expect(page.getByRole("form", { name: "Turn off two-factor sign-in" })).toHaveCount(0);
  } finally {
    await setRequirement(admin, []);
  }
  const client = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const events = await (await client.get("/admin/api/audit?action=settings.update")).json();
  const changes = events.events
    .filter((event: { entityId: string }) => event.entityId === "auth.two-factor-required")
    .map((event: { detail: unknown }) => event.detail);
  expect(changes.slice(0, 2)).toEqual([
    { added: [], removed: ["viewer"] },
    { added: ["viewer"], removed: [] },
  ]);
  await client.dispose();
});
