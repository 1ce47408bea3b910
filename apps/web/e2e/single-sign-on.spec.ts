import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { expectAxeClean } from "./content-support";
import { startTestProvider, type Tamper, type TestProvider } from "./oidc-provider";
import { createAdminWithCli, type ServerProcess, startServerWithAdmin } from "./server-process";
import { horizontalOverflow, randomPassword, signInThroughForm, specPort } from "./support";

// Single sign-on against a real OpenID provider (oidc-provider, on loopback) and the real
// `next start`: accounts made at the first sign-in with the role a group claim maps to, roles
// following the claim, password accounts joined only through a verified email, and every
// tampered answer (nonce, issuer, audience, expiry, signature, replayed codes) refused with a
// message, signing nobody in and making nothing.

const basePort = specPort("singleSignOn");
const providerName = "Team ID";

let provider: TestProvider;
let server: ServerProcess;
let admin: { email: string; name: string; password: string };

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const appUrl = `http://localhost:${basePort}`;
  provider = await startTestProvider({
    port: basePort + 1,
    redirectUri: `${appUrl}/api/auth/callback/oidc`,
  });
  const started = await startServerWithAdmin(basePort, {
    env: {
      SEED_OIDC_ISSUER: provider.issuer,
      SEED_OIDC_CLIENT_ID: provider.clientId,
      SEED_OIDC_CLIENT_SECRET: provider.clientSecret,
      SEED_OIDC_NAME: providerName,
      SEED_OIDC_SCOPES: "openid email profile groups",
      SEED_OIDC_ROLE_CLAIM: "groups",
      SEED_OIDC_ROLE_MAP: "seed-admins=admin,seed-editors=editor",
      SEED_OIDC_GROUPS_CLAIM: "groups",
      SEED_OIDC_ATTRIBUTE_CLAIMS: "region",
    },
  });
  server = started.server;
  admin = started.admin;
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

test.afterEach(() => {
  provider.tamper = { kind: "none" };
});

/** A new person at the provider, with a unique login and email. */
function newPerson(
  account: { groups?: string[]; email_verified?: boolean; email?: string; region?: string } = {},
) {
  const login = `person-${randomUUID().slice(0, 8)}`;
  provider.accounts.set(login, {
    email: `${login}@team.example`,
    email_verified: true,
    name: `Person ${login}`,
    ...account,
  });
  return { login, email: provider.accounts.get(login)?.email ?? "" };
}

/** From the app's sign-in page through the provider's sign-in and consent, back to the app. */
async function signOn(page: Page, login: string, next = "/admin") {
  await page.goto(`${server.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: `Sign in with ${providerName}` }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  const consent = page.getByRole("button", { name: "Continue" });
  await page.waitForURL(
    (url) => url.origin === server.url || url.pathname.includes("/interaction/"),
  );
  if (new URL(page.url()).origin !== server.url) await consent.click();
  await page.waitForURL((url) => url.origin === server.url);
}

/** Signs on again in a browser the provider already signed in: it answers the app at once. */
async function signOnKnownPerson(page: Page, next = "/admin") {
  await page.goto(`${server.url}/login?next=${encodeURIComponent(next)}`);
  const callback = page.waitForResponse((response) =>
    response.url().startsWith(`${server.url}/api/auth/callback/oidc`),
  );
  await page.getByRole("button", { name: `Sign in with ${providerName}` }).click();
  await callback;
  await page.waitForLoadState("load");
}

async function signedInEmail(page: Page): Promise<string | null> {
  const answer = await page.request.get(`${server.url}/api/auth/get-session`);
  const body = (await answer.json()) as { user?: { email?: string } } | null;
  return body?.user?.email ?? null;
}

async function asAdmin(browser: Browser, work: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await signInThroughForm(page, admin.email, admin.password);
  await page.waitForURL(/\/admin/);
  await work(page);
  await context.close();
}

async function userRow(page: Page, email: string) {
  await page.goto(`${server.url}/admin/users`);
  return page.getByRole("row").filter({ hasText: email });
}

test("a first sign-in makes an account with the role its group maps to, audited, and goes where it was going", async ({
  page,
  browser,
}) => {
  const person = newPerson({ groups: ["seed-editors", "others"] });
  await signOn(page, person.login, "/admin/datasets");
  await expect(page).toHaveURL(`${server.url}/admin/datasets`);
  expect(await signedInEmail(page)).toBe(person.email);
  await page.goto(`${server.url}/admin/account`);
  await expect(page.getByRole("definition").filter({ hasText: /^editor$/ })).toBeVisible();
  await expect(page.getByText("You sign in through your identity provider")).toBeVisible();

  await asAdmin(browser, async (adminPage) => {
    await expect(await userRow(adminPage, person.email)).toContainText("editor");
    await adminPage.goto(`${server.url}/admin/audit?action=user.create-by-sign-on`);
    await expect(adminPage.getByRole("row").filter({ hasText: person.email })).toHaveCount(1);
    // The sign-in itself is audited on the account, as a sign-on.
    const signIns = (await (
      await adminPage.request.get(`${server.url}/admin/api/audit?action=user.sign-in`)
    ).json()) as { events: { actor: { email?: string }; detail: { method?: string } | null }[] };
    expect(
      signIns.events
        .filter((event) => event.actor.email === person.email)
        .map((event) => event.detail?.method),
    ).toEqual(["single sign-on"]);
  });
});

test("the role follows the provider's groups at every sign-in; no mapped group gives the default role", async ({
  browser,
}) => {
  const person = newPerson({ groups: ["seed-admins"] });
  for (const [groups, role] of [
    [["seed-admins"], "admin"],
    [[], "viewer"],
    [["seed-editors", "seed-admins"], "admin"],
    [["seed-editors"], "editor"],
  ] as const) {
    const account = provider.accounts.get(person.login);
    if (account) account.groups = [...groups];
    const context = await browser.newContext();
    const page = await context.newPage();
    await signOn(page, person.login);
    await page.goto(`${server.url}/admin/account`);
    await expect(
      page.getByRole("definition").filter({ hasText: new RegExp(`^${role}$`) }),
    ).toBeVisible();
    await context.close();
  }
  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/audit?action=user.role-from-sign-on`);
    await expect(adminPage.getByRole("row").filter({ hasText: person.email })).toHaveCount(3);
  });
});

test("the groups claim puts the account in its groups at every sign-in; an admin's group of the same name is the one joined, and an admin's members stay", async ({
  browser,
}) => {
  const suffix = randomUUID().slice(0, 6);
  const finance = `Finance ${suffix}`;
  const fieldOps = `Field Ops ${suffix}`;
  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await adminPage.getByLabel("Group name").fill(finance);
    await adminPage.getByRole("button", { name: "Create group" }).click();
    await expect(
      adminPage.getByText(`Created the group ${finance}.`, { exact: false }),
    ).toBeVisible();
  });

  // The claim names the admin's group in another case, and a group nobody made yet.
  const person = newPerson({ groups: [finance.toUpperCase(), ` ${fieldOps} `] });
  const first = await browser.newContext();
  const theirs = await first.newPage();
  await signOn(theirs, person.login);
  // They see their groups on their account page, by the names the app keeps.
  await theirs.goto(`${server.url}/admin/account`);
  await expect(
    theirs.locator("dt", { hasText: "Groups" }).locator("xpath=following-sibling::dd"),
  ).toHaveText(`${fieldOps}, ${finance}`);
  await first.close();

  await asAdmin(browser, async (adminPage) => {
    const row = await userRow(adminPage, person.email);
    await expect(row).toContainText(`${fieldOps}, ${finance}`);
    const groups = adminPage.getByRole("region", { name: /^Groups \(\d+\)$/ });
    await expect(groups.getByRole("row").filter({ hasText: fieldOps })).toContainText(
      "a sign-in's claim",
    );
    await expect(groups.getByRole("row").filter({ hasText: finance })).toContainText("an admin");
    // The admin also puts them in Field Ops by hand: that stays when the claim drops it.
    await groups.getByRole("link", { name: fieldOps, exact: true }).click();
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const choice = adminPage.getByRole("listitem").filter({ hasText: person.email });
    await expect(choice).toContainText(`Also a member through ${providerName}.`);
    await choice.getByRole("checkbox").check();
    await adminPage.getByRole("button", { name: "Save members" }).click();
    await expect(adminPage.getByText("Members saved: 1 added.")).toBeVisible();
  });

  // The next sign-in's claim names neither group: out of Finance, still in Field Ops by the admin.
  const account = provider.accounts.get(person.login);
  if (account) account.groups = [];
  const second = await browser.newContext();
  await signOn(await second.newPage(), person.login);
  await second.close();

  await asAdmin(browser, async (adminPage) => {
    const row = await userRow(adminPage, person.email);
    await expect(row.getByRole("cell", { name: fieldOps, exact: true })).toBeVisible();
    await adminPage.goto(`${server.url}/admin/audit?action=user.groups-from-sign-on`);
    await expect(adminPage.getByRole("row").filter({ hasText: person.email })).toHaveCount(2);
    // The Users page with the provider set up, its settings and groups: axe-clean, fits a phone.
    await adminPage.setViewportSize({ width: 375, height: 800 });
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(
      adminPage.locator("dt", { hasText: "Groups claim" }).locator("xpath=following-sibling::dd"),
    ).toHaveText("groups");
    await expectAxeClean(adminPage);
    expect(await horizontalOverflow(adminPage)).toBeLessThanOrEqual(0);
  });
});

test("a password account is joined only through an email the provider says is verified", async ({
  browser,
}) => {
  const email = `owner-${randomUUID().slice(0, 8)}@team.example`;
  const password = randomPassword();
  await createAdminWithCli(server, { email, name: "Owner", password });
  const person = newPerson({ email, email_verified: false, groups: ["seed-admins"] });

  const refused = await browser.newContext();
  const refusedPage = await refused.newPage();
  await signOn(refusedPage, person.login);
  await expect(refusedPage).toHaveURL(/\/login\?.*error=account_not_linked/);
  await expect(
    refusedPage.getByRole("alert").filter({ hasText: "does not say the email is verified" }),
  ).toBeVisible();
  expect(await signedInEmail(refusedPage)).toBeNull();
  await refused.close();

  const account = provider.accounts.get(person.login);
  if (account) account.email_verified = true;
  const joined = await browser.newContext();
  const joinedPage = await joined.newPage();
  await signOn(joinedPage, person.login);
  await expect(joinedPage).toHaveURL(`${server.url}/admin`);
  expect(await signedInEmail(joinedPage)).toBe(email);
  await joined.close();

  // The password still signs in to the same account.
  const byPassword = await browser.newContext();
  const passwordPage = await byPassword.newPage();
  await passwordPage.goto(`${server.url}/login`);
  await signInThroughForm(passwordPage, email, password);
  await passwordPage.waitForURL(`${server.url}/admin`);
  await byPassword.close();
  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/audit?action=user.link-sign-on`);
    await expect(adminPage.getByRole("row").filter({ hasText: email })).toHaveCount(1);
  });
});

test("a blocked account is refused through the provider too, and keeps its role", async ({
  browser,
  page,
}) => {
  const person = newPerson({ groups: ["seed-editors"] });
  const first = await browser.newContext();
  await signOn(await first.newPage(), person.login);
  await first.close();
  await asAdmin(browser, async (adminPage) => {
    const row = await userRow(adminPage, person.email);
    await row.getByRole("button", { name: `Block ${person.email}` }).click();
    await adminPage
      .getByRole("dialog")
      .getByRole("button", { name: `Yes, block ${person.email}` })
      .click();
    await expect(row.getByRole("cell").nth(3)).toHaveText("Blocked");
  });
  const account = provider.accounts.get(person.login);
  if (account) account.groups = ["seed-admins"];
  await signOn(page, person.login);
  await expect(page).toHaveURL(/\/login\?.*error=/);
  await expect(
    page.getByRole("alert").filter({ hasText: "This account is blocked" }),
  ).toBeVisible();
  expect(await signedInEmail(page)).toBeNull();
  await asAdmin(browser, async (adminPage) => {
    await expect(await userRow(adminPage, person.email)).toContainText("editor");
  });
});

const now = () => Math.floor(Date.now() / 1000);
const tampering: Array<[string, Tamper]> = [
  ["no nonce in the authorization request", { kind: "drop-nonce" }],
  ["another nonce", { kind: "claims", change: (c) => ({ ...c, nonce: randomUUID() }) }],
  ["no nonce in the ID token", { kind: "claims", change: ({ nonce: _n, ...c }) => c }],
  ["another issuer", { kind: "claims", change: (c) => ({ ...c, iss: "http://127.0.0.1:1" }) }],
  ["another audience", { kind: "claims", change: (c) => ({ ...c, aud: "someone-else" }) }],
  [
    "an expired ID token",
    { kind: "claims", change: (c) => ({ ...c, iat: now() - 7200, exp: now() - 3600 }) },
  ],
  [
    "a token not valid before tomorrow",
    { kind: "claims", change: (c) => ({ ...c, nbf: now() + 86_400 }) },
  ],
  ["no signature at all (alg none)", { kind: "unsigned" }],
  ["a changed signature", { kind: "broken-signature" }],
  ["a key the provider never published", { kind: "foreign-key" }],
];

for (const [what, tamper] of tampering) {
  test(`an answer with ${what} is refused: nobody is signed in and nothing is made`, async ({
    page,
    browser,
  }) => {
    const person = newPerson({ groups: ["seed-admins"] });
    provider.tamper = tamper;
    await signOn(page, person.login);
    await expect(page).toHaveURL(/\/login\?.*error=/);
    await expect(
      page.getByRole("alert").filter({ hasText: /did not complete|identity provider/ }),
    ).toBeVisible();
    expect(await signedInEmail(page)).toBeNull();
    await asAdmin(browser, async (adminPage) => {
      await expect(await userRow(adminPage, person.email)).toHaveCount(0);
    });
  });
}

test("a replayed callback signs nobody in, in another browser or after signing out", async ({
  browser,
}) => {
  const person = newPerson();
  const first = await browser.newContext();
  const page = await first.newPage();
  const callbacks: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/callback/oidc")) callbacks.push(request.url());
  });
  await signOn(page, person.login);
  expect(await signedInEmail(page)).toBe(person.email);
  const callback = callbacks[0] ?? "";
  expect(callback).toContain("code=");

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(callback);
  await expect(otherPage).toHaveURL(/\/login\?.*error=/);
  expect(await signedInEmail(otherPage)).toBeNull();
  await other.close();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
  await page.goto(callback);
  await expect(page).toHaveURL(/\/login\?.*error=/);
  expect(await signedInEmail(page)).toBeNull();
  await first.close();
});

test("admins see the provider's settings, never its client secret; the sign-in page is axe-clean and fits a phone", async ({
  browser,
  page,
}) => {
  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/users`);
    const card = adminPage
      .getByRole("region", { name: "Single sign-on" })
      .or(adminPage.locator("section").filter({ hasText: "Single sign-on" }));
    await expect(card.first()).toContainText(provider.issuer);
    await expect(card.first()).toContainText(provider.clientId);
    const html = await adminPage.content();
    expect(html).not.toContain(provider.clientSecret);
  });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${server.url}/login?error=${encodeURIComponent("<script>x</script>")}`);
  await expect(page.getByRole("alert").filter({ hasText: "did not complete" })).toBeVisible();
  expect(await page.content()).not.toContain("<script>x</script>");
  await expect(page.getByRole("button", { name: `Sign in with ${providerName}` })).toBeVisible();
  await expectAxeClean(page);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});

test("an admin limits password sign-in to admins: an editor's right password is refused, the provider signs them in, admins keep theirs", async ({
  browser,
  page,
}) => {
  const email = `editor-${randomUUID().slice(0, 8)}@team.example`;
  const password = randomPassword();
  let captured: { url: string; headers: Record<string, string>; body: Buffer } | undefined;
  const setPasswordRoles = async (checked: boolean) =>
    asAdmin(browser, async (adminPage) => {
      await adminPage.goto(`${server.url}/admin/users`);
      await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const card = adminPage.getByRole("region", { name: "Single sign-on" });
      for (const role of ["Editors", "Viewers"]) await card.getByLabel(role).setChecked(checked);
      const posted = adminPage.waitForRequest(
        (request) => request.method() === "POST" && Boolean(request.headers()["next-action"]),
      );
      await card.getByRole("button", { name: "Save password sign-in" }).click();
      const request = await posted;
      captured = {
        url: request.url(),
        headers: {
          "Next-Action": request.headers()["next-action"] ?? "",
          "Content-Type": request.headers()["content-type"] ?? "",
          Accept: "text/x-component",
          Origin: server.url,
        },
        body: request.postDataBuffer() ?? Buffer.alloc(0),
      };
      await expect(
        card.getByText(
          checked
            ? "Every role may sign in with a password."
            : `Password sign-in is off for editors and viewers: they sign in with ${providerName}. Admins keep their password.`,
        ),
      ).toBeVisible();
    });

  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const form = adminPage.getByRole("region", { name: "Create a user" });
    await form.getByLabel("Name", { exact: true }).fill("Password editor");
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill(password);
    await form.getByLabel("Role", { exact: true }).selectOption("editor");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(adminPage.getByRole("row").filter({ hasText: email })).toBeVisible();
  });
  await setPasswordRoles(false);
  try {
    await page.goto(`${server.url}/login`);
    await signInThroughForm(page, email, password);
    await expect(
      page.getByText(`Sign in with ${providerName}: password sign-in is off for your role.`),
    ).toBeVisible();
    expect(await signedInEmail(page)).toBeNull();

    const person = newPerson({ email, groups: ["seed-editors"] });
    await signOn(page, person.login);
    expect(await signedInEmail(page)).toBe(email);
    // The setting's action is the admins' own: replayed by this editor 403, by nobody 401.
    if (!captured) throw new Error("the setting's action was not captured");
    const replay = { headers: captured.headers, data: captured.body, maxRedirects: 0 };
    expect((await page.request.post(captured.url, replay)).status()).toBe(403);
    const anonymous = await browser.newContext();
    expect((await anonymous.request.post(captured.url, replay)).status()).toBe(401);
    await anonymous.close();
    // asAdmin signs in with a password: admins keep it.
    await asAdmin(browser, async (adminPage) => {
      const answer = await adminPage.request.get(
        `${server.url}/admin/api/audit?action=settings.update`,
      );
      const { events } = (await answer.json()) as {
        events: { entityId: string; detail: { removed?: string[] } }[];
      };
      const change = events.find((event) => event.entityId === "auth.password-sign-in");
      expect(change?.detail.removed).toEqual(["editor", "viewer"]);
    });
  } finally {
    await setPasswordRoles(true);
  }
});

test("a provider that cannot be reached is named on the sign-in page; the password still works", async ({
  page,
}) => {
  // A server of its own whose issuer answers nothing (a port nobody listens on).
  const { server: lonely, admin: lonelyAdmin } = await startServerWithAdmin(basePort + 2, {
    env: {
      SEED_OIDC_ISSUER: "http://127.0.0.1:9",
      SEED_OIDC_CLIENT_ID: "seed-charts-e2e",
      SEED_OIDC_NAME: providerName,
    },
  });
  try {
    await page.goto(`${lonely.url}/login?next=%2Fadmin%2Fcharts`);
    await page.getByRole("button", { name: `Sign in with ${providerName}` }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fcharts&error=provider_unreachable/);
    await expect(
      page.getByRole("alert").filter({ hasText: "The identity provider cannot be reached" }),
    ).toBeVisible();
    expect(lonely.output()).toContain("[single sign-on] could not start a sign-in");
    await signInThroughForm(page, lonelyAdmin.email, lonelyAdmin.password);
    await page.waitForURL(`${lonely.url}/admin/charts`);
  } finally {
    await lonely.stop();
  }
});

test("a row limit by the account's region from the provider: each person sees their region's rows, one without a region none", async ({
  browser,
}) => {
  const suffix = randomUUID().slice(0, 6);
  const groupName = `Regional ${suffix}`;
  const north = newPerson({ groups: ["seed-editors", groupName], region: "North" });
  const unplaced = newPerson({ groups: ["seed-editors", groupName] });
  // Their first sign-ins make the accounts, the group from the claim, and their attributes.
  for (const person of [north, unplaced]) {
    const context = await browser.newContext();
    await signOn(await context.newPage(), person.login);
    await context.close();
  }

  let datasetId = "";
  await asAdmin(browser, async (adminPage) => {
    await adminPage.goto(`${server.url}/admin/datasets/new`);
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await adminPage.getByLabel("Name of the new dataset").fill(`Regions ${suffix}`);
    await adminPage
      .getByLabel("Or paste the rows (CSV, JSON or NDJSON text)")
      .fill("region,revenue\nNorth,10\nSouth,20\nNorth,5\n");
    await expect(adminPage.getByRole("region", { name: "Preview of the rows" })).toBeVisible();
    await adminPage.getByRole("button", { name: "Import dataset" }).click();
    await adminPage.waitForURL(/\/admin\/datasets\/(?!new)[^/?]+\?saved=import$/);
    datasetId = new URL(adminPage.url()).pathname.split("/").pop() ?? "";
    await adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const limits = adminPage.getByRole("region", { name: "Row limits" });
    await limits.getByLabel("Group").selectOption({ label: groupName });
    const first = limits.getByRole("group", { name: "Condition 1" });
    await first.getByLabel("Column").selectOption("region");
    await first
      .getByLabel("Rows where it")
      .selectOption({ label: "is the account's attribute (from single sign-on)" });
    await first.getByLabel("Attribute name (e.g. region)").fill("region");
    await limits.getByRole("button", { name: "Save limit" }).click();
    await expect(limits).toContainText(
      `${groupName} sees the rows where region is the account's region.`,
    );
    // The provider's settings name the attribute.
    await adminPage.goto(`${server.url}/admin/users`);
    await expect(
      adminPage
        .locator("dt", { hasText: "Attributes for row limits" })
        .locator("xpath=following-sibling::dd"),
    ).toHaveText("region");
  });

  const seenBy = async (login: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signOn(page, login);
    await page.goto(`${server.url}/admin/datasets/${datasetId}`);
    return { context, page };
  };
  const northern = await seenBy(north.login);
  await expect(northern.page.getByText("2 rows you see")).toBeVisible();
  await expect(northern.page.getByRole("region", { name: "Collection" })).toContainText(
    "You see only the rows where region is North",
  );
  await expect(northern.page.getByRole("cell", { name: "South", exact: true })).toHaveCount(0);
  await northern.context.close();

  const none = await seenBy(unplaced.login);
  await expect(none.page.getByText("0 rows you see")).toBeVisible();
  await expect(none.page.getByRole("region", { name: "Collection" })).toContainText(
    "leave you no rows",
  );
  await none.context.close();

  // The provider moves them South: the next sign-in brings the new value, and the rows follow.
  const account = provider.accounts.get(north.login);
  if (account) account.region = "South";
  const moved = await seenBy(north.login);
  await expect(moved.page.getByText("1 row you see")).toBeVisible();
  await expect(moved.page.getByRole("cell", { name: "South", exact: true }).first()).toBeVisible();
  await moved.context.close();
});

test("after the provider rotates its signing key, sign-ins verify against its new key, and the retired key signs nobody in", async ({
  browser,
}) => {
  // Last in this file: the app then knows only the rotated key, as a rotated provider's clients do.
  const person = newPerson();
  const context = await browser.newContext();
  const page = await context.newPage();
  // Signed in once under the first key, so the app has read the provider's keys before.
  await signOn(page, person.login);
  expect(await signedInEmail(page)).toBe(person.email);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);

  // The app reads the keys again when a token names a key id it does not know (OpenID Connect
  // Core 10.1.1), at most once per 30 s (jose's createRemoteJWKSet, under better-auth): the
  // rotation is made 30 s after the app last read them, as a provider publishing a new key
  // ahead of its use would be seen.
  const lastRead = provider.keyFetches.at(-1) ?? 0;
  expect(lastRead).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastRead + 31_000 - Date.now())));
  provider.tamper = { kind: "rotated-key" };
  const readsBefore = provider.keyFetches.length;
  await signOnKnownPerson(page);
  expect(await signedInEmail(page)).toBe(person.email);
  expect(provider.keyFetches.length).toBeGreaterThan(readsBefore);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);

  // A token signed by the retired key (its key id no longer published) is refused.
  provider.tamper = { kind: "retired-key" };
  await signOnKnownPerson(page);
  await expect(page).toHaveURL(/\/login\?.*error=/);
  expect(await signedInEmail(page)).toBeNull();
  await context.close();
});
