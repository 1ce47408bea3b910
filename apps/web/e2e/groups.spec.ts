import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { openAs, uniqueName } from "./content-support";
import {
  appBaseURL,
  captureServerAction,
  horizontalOverflow,
  replayServerAction,
  testUser,
} from "./support";

// Groups of accounts on the Users page: an admin makes one, chooses its members, renames and
// deletes it, each change audited; names are one group whatever their case; nobody else reaches
// a group's page or its actions.

async function createGroupThroughForm(page: Page, name: string): Promise<void> {
  const card = page.getByRole("region", { name: /^Groups \(\d+\)$/ });
  await card.getByLabel("Group name").fill(name);
  await card.getByRole("button", { name: "Create group" }).click();
}

test("an admin makes a group, chooses its members, renames and deletes it; each change audited", async ({
  browser,
}) => {
  const name = uniqueName("Finance");
  const page = await openAs(browser, "admin", "/admin/users");
  await createGroupThroughForm(page, name);
  await expect(
    page.getByText(`Created the group ${name}. Open it to choose its members.`),
  ).toBeVisible();

  // The same name in another case and spacing is the same group: refused, the text kept.
  await createGroupThroughForm(page, `  ${name.toUpperCase()} `);
  const field = page.getByLabel("Group name");
  await expect(page.getByText(`There is already a group named ${name}.`)).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveValue(`  ${name.toUpperCase()} `);

  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Group ${name}` })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const editor = testUser("editor");
  const viewer = testUser("viewer");
  const members = page.getByRole("group", { name: "Members chosen by an admin" });
  await members.getByRole("checkbox", { name: new RegExp(`\\(${editor.email}\\)`) }).check();
  await members.getByRole("checkbox", { name: new RegExp(`\\(${viewer.email}\\)`) }).check();
  await page.getByRole("button", { name: "Save members" }).click();
  await expect(page.getByText("Members saved: 2 added.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Members (2)" })).toBeVisible();
  await members.getByRole("checkbox", { name: new RegExp(`\\(${viewer.email}\\)`) }).uncheck();
  await page.getByRole("button", { name: "Save members" }).click();
  await expect(page.getByText("Members saved: 1 removed.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Members (1)" })).toBeVisible();

  // On the Users page the editor's row names the group.
  await page.goto("/admin/users");
  await expect(page.locator(`tr[data-user-email="${editor.email}"]`)).toContainText(name);
  await expect(page.locator(`tr[data-user-email="${viewer.email}"]`)).not.toContainText(name);

  // Opened by address, not by a client-side click: the hydration mark is then the group page's
  // own, and "Group name" cannot be the Users page's create field still on screen.
  await page.goto((await page.getByRole("link", { name, exact: true }).getAttribute("href")) ?? "");
  await expect(page.getByRole("heading", { level: 1, name: `Group ${name}` })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const renamed = `${name} team`;
  await page.getByLabel("Group name").fill(renamed);
  await expect(page.getByLabel("Group name")).toHaveValue(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Group ${renamed}` })).toBeVisible();

  await page.getByRole("button", { name: `Delete the group ${renamed}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Delete the group ${renamed}?`);
  await dialog.getByRole("button", { name: `Yes, delete ${renamed}` }).click();
  await page.waitForURL((url) => url.pathname === "/admin/users");
  await expect(page.getByRole("status").filter({ hasText: "The group was deleted" })).toBeFocused();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
  await expect(page.locator(`tr[data-user-email="${editor.email}"]`)).not.toContainText(name);

  const client = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const { events } = (await (await client.get("/admin/api/audit?entityType=group")).json()) as {
    events: { action: string; detail: { name?: string } | null }[];
  };
  const ours = events.filter(
    (event) => event.detail?.name === name || event.detail?.name === renamed,
  );
  expect(ours.map((event) => event.action)).toEqual([
    "group.delete",
    "group.rename",
    "group.update-members",
    "group.update-members",
    "group.create",
  ]);
  await client.dispose();
  await page.context().close();
});

test("the Users page and a group's page are axe-clean and fit a phone", async ({ browser }) => {
  const name = uniqueName("Phones");
  const page = await openAs(browser, "admin", "/admin/users");
  await createGroupThroughForm(page, name);
  await expect(page.getByText(`Created the group ${name}.`, { exact: false })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ["/admin/users", null]) {
    if (path) await page.goto(path);
    else {
      await page.getByRole("link", { name, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Group ${name}` })).toBeVisible();
    }
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  }
  await page.context().close();
});

test("a group's page and its actions are for admins only: others get 403 or sign-in, and nothing changes", async ({
  browser,
}) => {
  const name = uniqueName("Locked");
  const page = await openAs(browser, "admin", "/admin/users");
  await createGroupThroughForm(page, name);
  await page.getByRole("link", { name, exact: true }).click();
  await page.waitForURL(/\/admin\/users\/groups\//);
  const path = new URL(page.url()).pathname;
  await page.context().close();

  for (const who of ["anonymous", "viewer", "editor"] as const) {
    const client = await playwrightRequest.newContext({
      baseURL: appBaseURL(),
      storageState: who === "anonymous" ? undefined : testUser(who).storageState,
      maxRedirects: 0,
    });
    const response = await client.get(path, { headers: { Accept: "text/html" } });
    if (who === "anonymous") {
      expect(response.status()).toBe(307);
      expect(new URL(response.headers().location ?? "", appBaseURL()).pathname).toBe("/login");
    } else {
      expect(response.status()).toBe(403);
      expect(await response.text()).not.toContain(name);
    }
    await client.dispose();
  }

  // Each group action, captured as the admin submits it, then undone by the admin, and replayed
  // by the others: refused, and the group stays as the admin left it.
  const editor = testUser("editor");
  const rename = await captureServerAction(browser, "admin", path, async (admin) => {
    await admin.getByLabel("Group name").fill(`${name} (captured)`);
    await admin.getByRole("button", { name: "Save name" }).click();
    await expect(
      admin.getByRole("heading", { level: 1, name: `Group ${name} (captured)` }),
    ).toBeVisible();
  });
  const members = await captureServerAction(browser, "admin", path, async (admin) => {
    await admin.getByRole("checkbox", { name: new RegExp(`\\(${editor.email}\\)`) }).check();
    await admin.getByRole("button", { name: "Save members" }).click();
    await expect(admin.getByText("Members saved: 1 added.")).toBeVisible();
  });
  const undo = await openAs(browser, "admin", path);
  await undo.getByLabel("Group name").fill(`${name} (final)`);
  await undo.getByRole("button", { name: "Save name" }).click();
  await expect(
    undo.getByRole("heading", { level: 1, name: `Group ${name} (final)` }),
  ).toBeVisible();
  await undo.getByRole("checkbox", { name: new RegExp(`\\(${editor.email}\\)`) }).uncheck();
  await undo.getByRole("button", { name: "Save members" }).click();
  await expect(undo.getByText("Members saved: 1 removed.")).toBeVisible();
  await undo.context().close();

  for (const action of [rename, members]) {
    expect((await replayServerAction(action, "anonymous")).status).toBe(401);
    expect((await replayServerAction(action, "viewer")).status).toBe(403);
    expect((await replayServerAction(action, "editor")).status).toBe(403);
  }
  const client = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const html = await (await client.get(path)).text();
  expect(html).toContain(`value="${name} (final)"`);
  expect(html).toContain("Members (0)");
  await client.dispose();
});
