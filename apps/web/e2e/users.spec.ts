import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { openAs } from "./content-support";
import { randomPassword, signInThroughForm, testUser } from "./support";

async function createUserThroughForm(page: Page, email: string, password: string, role: string) {
  const form = page.getByRole("region", { name: "Create a user" });
  await form.getByLabel("Name", { exact: true }).fill("Managed user");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByLabel("Role", { exact: true }).selectOption(role);
  await form.getByRole("button", { name: "Create user" }).click();
}

test("creating a user with bad input shows field errors and keeps what was typed", async ({
  browser,
}) => {
  const page = await openAs(browser, "admin", "/admin/users");

  await createUserThroughForm(page, "not-an-email", "short", "editor");

  const form = page.getByRole("region", { name: "Create a user" });
  await expect(form.getByText("Enter an email address like name@example.com.")).toBeVisible();
  await expect(form.getByText("Use at least 12 characters.")).toBeVisible();
  await expect(form.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");
  await expect(form.getByLabel("Role", { exact: true })).toHaveValue("editor");
  await expect(page.locator('tr[data-user-email="not-an-email"]')).toHaveCount(0);
  await page.context().close();
});

// Common passwords of 12 characters or more, in the case they are listed in and in others.
for (const password of [
  "qwerty123456",
  "1q2w3e4r5t6y",
  "LeaveMeAlone",
  "123QWEASDZXC",
  "aaaaaaaaaaaaaaaa",
]) {
  test(`a common or one-note password (${password}) is refused with a field message`, async ({
    browser,
  }) => {
    const page = await openAs(browser, "admin", "/admin/users");
    const email = `common-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;

    await createUserThroughForm(page, email, password, "viewer");

    const form = page.getByRole("region", { name: "Create a user" });
    await expect(
      form.getByText(
        /This password is on a list of common passwords; choose another\.|Use more different characters\./,
      ),
    ).toBeVisible();
    await expect(form.getByLabel("Password", { exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.locator(`tr[data-user-email="${email}"]`)).toHaveCount(0);
    await page.context().close();
  });
}

test("an admin creates a user, changes the role, blocks, unblocks and signs them out", async ({
  browser,
}) => {
  const email = `managed-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;
  const password = randomPassword();
  const page = await openAs(browser, "admin", "/admin/users");
  const row = page.locator(`tr[data-user-email="${email}"]`);

  await createUserThroughForm(page, email, password, "editor");
  await expect(page.getByText(`Created ${email} as editor.`)).toBeVisible();
  await expect(row.getByRole("cell").nth(2)).toHaveText("editor");

  await row.getByLabel(`Role for ${email}`).selectOption("viewer");
  await row.getByRole("button", { name: "Set role" }).click();
  await expect(row.getByText("Role set to viewer.")).toBeVisible();
  await expect(row.getByRole("cell").nth(2)).toHaveText("viewer");

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/login?next=/admin/datasets");
  await signInThroughForm(otherPage, email, password);
  await otherPage.waitForURL((url) => url.pathname === "/admin/datasets");

  await row.getByRole("button", { name: `Sign out ${email}` }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: `Yes, sign out ${email}` })
    .click();
  await expect(row.getByText("Signed out everywhere.")).toBeVisible();
  await otherPage.goto("/admin/datasets");
  expect(new URL(otherPage.url()).pathname).toBe("/login");

  await row.getByRole("button", { name: `Block ${email}` }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: `Yes, block ${email}` })
    .click();
  await expect(row.getByRole("cell").nth(3)).toHaveText("Blocked");
  await signInThroughForm(otherPage, email, password);
  await expect(
    otherPage.getByText("This account is blocked. Ask an admin to unblock it."),
  ).toBeVisible();

  await row.getByRole("button", { name: `Unblock ${email}` }).click();
  await expect(row.getByRole("cell").nth(3)).toHaveText("Active");
  await signInThroughForm(otherPage, email, password);
  await otherPage.waitForURL((url) => url.pathname === "/admin/datasets");
  await other.close();
  await page.context().close();
});

test("an admin cannot change their own role", async ({ browser }) => {
  const page = await openAs(browser, "admin", "/admin/users");

  const ownRow = page.locator(`tr[data-user-email="${testUser("admin").email}"]`);

  await expect(ownRow.getByText("This is you")).toBeVisible();
  await expect(ownRow.getByRole("button")).toHaveCount(0);
  await page.context().close();
});

test("the audit log records user changes and filters by entity type and action", async ({
  browser,
}) => {
  const email = `audited-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;
  const page = await openAs(browser, "admin", "/admin/users");
  await createUserThroughForm(page, email, randomPassword(), "viewer");
  await expect(page.getByText(`Created ${email} as viewer.`)).toBeVisible();

  await page.goto("/admin/audit");
  await page.getByLabel("Entity type").selectOption("user");
  await page.getByLabel("Action").selectOption("user.create");
  await page.getByRole("button", { name: "Apply" }).click();

  await page.waitForURL((url) => url.searchParams.get("action") === "user.create");
  const rows = page.getByRole("region", { name: "Audit events" }).locator("tbody tr");
  await expect(rows.filter({ hasText: email })).toHaveCount(1);
  for (const action of await rows.locator("td:nth-child(3)").allTextContents()) {
    expect(action).toBe("user.create");
  }
  await page.context().close();
});

test("the audit log rejects a malformed date filter with a field message", async ({ browser }) => {
  const page = await openAs(browser, "admin", "/admin/audit?from=2026-13-45&entityType=planet");

  await expect(page.getByText("from: Use a real calendar date.")).toBeVisible();
  await expect(page.getByText("entityType: Pick one of the listed types.")).toBeVisible();
  await expect(page.getByText("Fix the filter to see events.")).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
  await page.context().close();
});

for (const [from, to] of [
  ["2026-03-02", "2026-03-01"],
  ["2027-01-01", "2026-12-31"],
] as const) {
  test(`an audit range from ${from} to ${to} is refused at the To field, not shown as empty`, async ({
    browser,
  }) => {
    const page = await openAs(browser, "admin", `/admin/audit?from=${from}&to=${to}`);

    await expect(
      page.getByText("to: The To date must be on or after the From date."),
    ).toBeVisible();
    await expect(page.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("No events match")).toHaveCount(0);
    const api = await page.request.get(`/admin/api/audit?from=${from}&to=${to}`);
    expect(api.status()).toBe(400);
    await page.context().close();
  });
}

test("after Set role the menu shows the saved role, and focus is on the result", async ({
  browser,
}) => {
  const email = `role-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;
  const page = await openAs(browser, "admin", "/admin/users");
  await createUserThroughForm(page, email, randomPassword(), "viewer");
  const created = page.getByText(`Created ${email} as viewer.`);
  await expect(created).toBeVisible();
  // Focus moved from the submit button to the form's result message.
  await expect(
    page.getByRole("region", { name: "Create a user" }).getByRole("status"),
  ).toBeFocused();
  const row = page.locator(`tr[data-user-email="${email}"]`);

  for (const role of ["editor", "admin", "viewer"]) {
    await row.getByLabel(`Role for ${email}`).selectOption(role);
    await row.getByRole("button", { name: "Set role" }).click();
    await expect(row.getByText(`Role set to ${role}.`)).toBeVisible();
    await expect(row.getByRole("cell").nth(2)).toHaveText(role);
    await expect(row.getByLabel(`Role for ${email}`)).toHaveValue(role);
    await expect(row.getByRole("status").first()).toBeFocused();
  }
  await page.context().close();
});

test("blocking and signing out everywhere ask first in a dialog; Cancel and Escape change nothing", async ({
  browser,
}) => {
  const email = `confirm-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;
  const page = await openAs(browser, "admin", "/admin/users");
  await createUserThroughForm(page, email, randomPassword(), "viewer");
  const row = page.locator(`tr[data-user-email="${email}"]`);
  await expect(row).toBeVisible();
  const block = row.getByRole("button", { name: `Block ${email}` });

  await block.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Block ${email}?`);
  const axe = await new AxeBuilder({ page }).include("dialog[open]").analyze();
  expect(axe.violations).toEqual([]);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(block).toBeFocused();

  await row.getByRole("button", { name: `Sign out ${email}` }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await expect(row.getByRole("cell").nth(3)).toHaveText("Active");
  await expect(row.getByRole("status")).toHaveText(["", "", "", ""]);
  await page.context().close();
});

test("deleting a user asks first, ends their session, keeps their audit trail, and is logged", async ({
  browser,
}) => {
  const email = `delete-${randomBytes(4).toString("hex")}@e2e.seed-charts.test`;
  const password = randomPassword();
  const page = await openAs(browser, "admin", "/admin/users");
  await createUserThroughForm(page, email, password, "editor");
  const row = page.locator(`tr[data-user-email="${email}"]`);
  await expect(row).toBeVisible();

  // The user is signed in somewhere.
  const theirs = await browser.newContext();
  const theirPage = await theirs.newPage();
  await theirPage.goto("/login");
  await signInThroughForm(theirPage, email, password);
  await theirPage.waitForURL(/\/admin(?:$|[/?])/);

  const remove = row.getByRole("button", { name: `Delete ${email}` });
  await remove.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Delete ${email}?`);
  const axe = await new AxeBuilder({ page }).include("dialog[open]").analyze();
  expect(axe.violations).toEqual([]);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();

  await remove.click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: `Yes, delete ${email}` })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "The user was deleted" })).toBeFocused();
  await expect(page.locator(`tr[data-user-email="${email}"]`)).toHaveCount(0);

  // Their session is gone, and so is their sign-in.
  await theirPage.goto("/admin");
  await expect(theirPage).toHaveURL(/\/login/);
  await signInThroughForm(theirPage, email, password);
  await expect(theirPage.getByText("The email or password is not right.")).toBeVisible();
  await theirs.close();

  await page.goto("/admin/audit?action=user.delete");
  await expect(page.getByRole("table").getByText("user.delete").first()).toBeVisible();
  await page.context().close();
});
