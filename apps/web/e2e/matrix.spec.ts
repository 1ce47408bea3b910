// Over 500 lines on purpose: one matrix of every server action and /admin path against every role
// and bypass spelling; split, a new route could be left out of half of it.
import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type Browser,
  expect,
  request as playwrightRequest,
  type Request,
  test,
} from "@playwright/test";
import {
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { appBaseURL, randomPassword, type TestRole, testUser } from "./support";

type Who = "anonymous" | TestRole;
const everyone: Who[] = ["anonymous", "viewer", "editor", "admin"];
// The app server of this run (SEED_E2E_PORT), so checkouts running side by side test their own.
const baseURL = appBaseURL();
const html = { Accept: "text/html,application/xhtml+xml" };

async function clientFor(who: Who): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL,
    storageState: who === "anonymous" ? undefined : testUser(who).storageState,
    maxRedirects: 0,
  });
}

const adminPages: { path: string; heading: string; roles: TestRole[] }[] = [
  { path: "/admin", heading: "Overview", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/datasets", heading: "Datasets", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/charts", heading: "Charts", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/dashboards", heading: "Dashboards", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/users", heading: "Users", roles: ["admin"] },
  { path: "/admin/sources", heading: "Live sources", roles: ["admin"] },
  { path: "/admin/sources/new", heading: "New live source", roles: ["admin"] },
  { path: "/admin/audit", heading: "Audit log", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/sql", heading: "SQL questions", roles: ["editor", "admin"] },
  { path: "/admin/tokens", heading: "API tokens", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/account", heading: "Your account", roles: ["viewer", "editor", "admin"] },
  { path: "/admin/reports", heading: "Reports", roles: ["editor", "admin"] },
  { path: "/admin/reports/new", heading: "New report", roles: ["editor", "admin"] },
  { path: "/admin/alerts", heading: "Alerts", roles: ["editor", "admin"] },
  { path: "/admin/alerts/new", heading: "New alert", roles: ["editor", "admin"] },
];

for (const adminPage of adminPages) {
  for (const who of everyone) {
    const allowed = who !== "anonymous" && adminPage.roles.includes(who);
    const expected = who === "anonymous" ? "sign-in redirect" : allowed ? "200" : "403";
    test(`page ${adminPage.path} as ${who}: ${expected}`, async () => {
      const client = await clientFor(who);

      const response = await client.get(adminPage.path, { headers: html });

      if (who === "anonymous") {
        expect(response.status()).toBe(307);
        const location = new URL(response.headers().location ?? "", baseURL);
        expect(location.pathname).toBe("/login");
        expect(location.searchParams.get("next")).toBe(adminPage.path);
      } else if (allowed) {
        expect(response.status()).toBe(200);
        expect(await response.text()).toContain(`>${adminPage.heading}</h1>`);
      } else {
        expect(response.status()).toBe(403);
        expect(await response.text()).toContain("Your role does not allow this page.");
      }
      await client.dispose();
    });
  }
}

// Embeds are public pages: the published demo for everyone; a draft for nobody without a signed
// link, whoever is signed in (the embed never reads the session).
for (const who of everyone) {
  test(`embeds as ${who}: published 200 without admin content, draft 404`, async () => {
    const client = await clientFor(who);

    const published = await client.get("/embed/d/demo", { headers: html });
    const draft = await client.get("/embed/d/marketing-funnel", { headers: html });

    expect(published.status()).toBe(200);
    const body = await published.text();
    expect(body).not.toContain("Sign out");
    expect(body).not.toContain('aria-label="Site"');
    expect(draft.status()).toBe(404);
    await client.dispose();
  });
}

const routeHandlers: { path: string; roles: TestRole[] }[] = [
  { path: "/admin/api/users", roles: ["admin"] },
  { path: "/admin/api/audit", roles: ["viewer", "editor", "admin"] },
];

for (const route of routeHandlers) {
  for (const who of everyone) {
    const expected = who === "anonymous" ? 401 : route.roles.includes(who) ? 200 : 403;
    test(`route ${route.path} as ${who}: ${expected}`, async () => {
      const client = await clientFor(who);

      const response = await client.get(route.path);

      expect(response.status()).toBe(expected);
      const body = await response.json();
      if (expected === 200) expect(body.error).toBeUndefined();
      else expect(body.status).toBe(expected);
      await client.dispose();
    });
  }
}

// The push API takes a bearer token only: a session of any role is no credential there.
for (const who of everyone) {
  test(`route POST /api/datasets/[id]/rows as ${who} (session, no token): 401`, async () => {
    const client = await clientFor(who);

    const response = await client.post("/api/datasets/any-dataset/rows", {
      headers: { "Content-Type": "application/json", Origin: baseURL },
      data: JSON.stringify([{ a: 1 }]),
    });

    expect(response.status()).toBe(401);
    expect((await response.json()).error).toBe("unauthenticated");
    await client.dispose();
  });
}

interface CapturedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Submits a form as admin and records the server action request, to replay it as others. */
async function captureAction(
  browser: Browser,
  path: string,
  submit: (page: import("@playwright/test").Page) => Promise<void>,
): Promise<CapturedAction> {
  const context = await browser.newContext({
    baseURL,
    storageState: testUser("admin").storageState,
  });
  const page = await context.newPage();
  await page.goto(path);
  // Before hydration a form posts natively, without the Next-Action header this test replays.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const actionRequest = page.waitForRequest(
    (request: Request) => request.method() === "POST" && Boolean(request.headers()["next-action"]),
  );
  await submit(page);
  const request = await actionRequest;
  const headers = request.headers();
  const captured = {
    url: request.url(),
    headers: {
      "Next-Action": headers["next-action"] ?? "",
      "Content-Type": headers["content-type"] ?? "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: baseURL,
    },
    body: request.postDataBuffer() ?? Buffer.alloc(0),
  };
  await context.close();
  return captured;
}

async function replay(action: CapturedAction, who: Who, extraHeaders: Record<string, string> = {}) {
  const client = await clientFor(who);
  const response = await client.post(action.url, {
    headers: { ...action.headers, ...extraHeaders },
    data: action.body,
    timeout: 10_000,
  });
  const status = response.status();
  await client.dispose();
  return status;
}

test.describe("server actions", () => {
  test("set-role (admin only): anonymous 401, viewer 403, editor 403, admin 200", async ({
    browser,
  }) => {
    const viewer = testUser("viewer");
    const action = await captureAction(browser, "/admin/users", async (page) => {
      const row = page.locator(`tr[data-user-email="${viewer.email}"]`);
      await row.getByLabel(`Role for ${viewer.email}`).selectOption("viewer");
      await row.getByRole("button", { name: "Set role" }).click();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(403);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("create-user (admin only): viewer and editor get 403 and nobody is created", async ({
    browser,
  }) => {
    const email = `matrix-${Date.now()}@e2e.seed-charts.test`;
    const action = await captureAction(browser, "/admin/users", async (page) => {
      await page.getByLabel("Name", { exact: true }).fill("Matrix user");
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill("short");
      await page.getByRole("button", { name: "Create user" }).click();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(403);
    expect(await replay(action, "admin")).toBe(200);
    const admin = await clientFor("admin");
    const users = await (await admin.get("/admin/api/users")).json();
    expect(users.users.map((user: { email: string }) => user.email)).not.toContain(email);
    await admin.dispose();
  });

  test("allowed mail domains (admin only): anonymous 401, viewer 403, editor 403, admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/reports", async (page) => {
      const form = page.getByRole("form", { name: "Allowed mail domains" });
      // Not a domain: every replay is checked and refused, and the setting is untouched.
      await form.getByLabel("Domains reports and alerts may go to").fill("not/a/domain");
      await form.getByRole("button", { name: "Save domains" }).click();
      await expect(form.getByText(/is not a domain/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(403);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("two-factor requirement (admin only): anonymous 401, viewer 403, editor 403, admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/users", async (page) => {
      // Saved as it stands (required of nobody), so the admin's replay changes nothing others feel.
      await page.getByRole("button", { name: "Save requirement" }).click();
      await expect(page.getByText("Two-factor sign-in is optional for everyone.")).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(403);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("save a report (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/reports/new", async (page) => {
      await page.getByLabel("Name").fill("Matrix report");
      // A recipient outside the app: every replay reaches the store and is refused, none is made.
      await page.getByLabel("Recipients").fill("someone@outside.e2e.example");
      await page.getByRole("button", { name: "Create report" }).click();
      await expect(page.getByText(/neither a user of this app/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("save an alert (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/alerts/new", async (page) => {
      await page.getByLabel("Name").fill("Matrix alert");
      await page.getByLabel("Threshold").fill("100");
      // A recipient outside the app: every replay reaches the store and is refused, none is made.
      await page.getByLabel("Email recipients").fill("someone@outside.e2e.example");
      await page.getByRole("button", { name: "Create alert" }).click();
      await expect(page.getByText(/neither a user of this app/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("publish dashboard (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/dashboards", async (page) => {
      const form = page.locator("form", { has: page.getByRole("button", { name: /^Publish / }) });
      // A version that never exists: every replay reaches the store and is refused, nothing changes.
      await form
        .first()
        .locator('input[name="version"]')
        .evaluate((input: HTMLInputElement) => {
          input.value = "999999";
        });
      await form.first().getByRole("button").click();
      await expect(page.getByText(/changed by someone else/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  /** The admin page of the first dashboard listed (the seeded demo at least). */
  async function firstDashboardPath(page: import("@playwright/test").Page): Promise<string> {
    await page.goto("/admin/dashboards");
    const href = await page
      .locator('a[href^="/admin/dashboards/"]:not([href$="/new"])')
      .first()
      .getAttribute("href");
    if (!href) throw new Error("No dashboard listed");
    return href;
  }

  test("embedding settings (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/dashboards", async (page) => {
      await page.goto(await firstDashboardPath(page));
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const form = page.getByRole("form", { name: "Embedding and refresh" });
      // A version that never exists: every replay is refused by the store, nothing changes.
      await form.locator('input[name="version"]').evaluate((input: HTMLInputElement) => {
        input.value = "999999";
      });
      await form.getByRole("button", { name: "Save embedding and refresh" }).click();
      await expect(form.getByText(/changed by someone else/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("signed embed link (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const action = await captureAction(browser, "/admin/dashboards", async (page) => {
      await page.goto(await firstDashboardPath(page));
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Make signed link" }).click();
      await expect(page.getByLabel("Embed code")).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  for (const change of ["Block", "Sign out", "Delete"] as const) {
    test(`${change} user (admin only): anonymous 401, viewer 403, editor 403, admin 200`, async ({
      browser,
    }) => {
      const editor = testUser("editor");
      const action = await captureAction(browser, "/admin/users", async (page) => {
        const form = page.locator(`tr[data-user-email="${editor.email}"]`).locator("form", {
          has: page.getByRole("button", { name: `${change} ${editor.email}` }),
        });
        // An id no user has: each replay is checked and refused, and the shared editor is untouched.
        await form.locator('input[name="userId"]').evaluate((input: HTMLInputElement) => {
          input.value = "no-such-user-id";
        });
        await form.getByRole("button", { name: `${change} ${editor.email}` }).click();
        await form
          .getByRole("dialog")
          .getByRole("button", { name: `Yes, ${change.toLowerCase()} ${editor.email}` })
          .click();
        await expect(form.getByRole("status")).not.toBeEmpty();
      });

      expect(await replay(action, "anonymous")).toBe(401);
      expect(await replay(action, "viewer")).toBe(403);
      expect(await replay(action, "editor")).toBe(403);
      expect(await replay(action, "admin")).toBe(200);
    });
  }

  test("restore a chart or dashboard version (writers): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const datasetName = uniqueName("Matrix history");
    await importCsvAsEditor(
      `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
      "region,amount\nAlfa,1\n",
    );
    const { context, page } = await signedInPage(browser, "editor");
    const { chartUrl, dashboardUrl } = await publishSummedBarChart(page, {
      datasetName,
      x: "region",
      measure: "amount",
    });
    await page.goto(new URL(chartUrl).pathname);
    await page.getByRole("textbox", { name: "Title" }).fill(uniqueName("Matrix renamed"));
    await page.getByRole("button", { name: "Save chart" }).click();
    await expect(page.getByText(/· version 2 ·/)).toBeVisible();
    await context.close();

    for (const [url, idField] of [
      [chartUrl, "chartId"],
      [dashboardUrl, "dashboardId"],
    ] as const) {
      const action = await captureAction(
        browser,
        `${new URL(url).pathname}/history`,
        async (page) => {
          const versions = page.getByRole("region", { name: "Versions, newest first" });
          const form = versions.locator("form").last();
          await form.getByRole("button", { name: "Restore version 1" }).click();
          // An id no record has (set after the question re-rendered the form): each replay is
          // checked and refused; the record is untouched.
          await form.locator(`input[name="${idField}"]`).evaluate((input: HTMLInputElement) => {
            input.value = "no-such-record";
          });
          await form.getByRole("button", { name: "Yes, restore version 1" }).click();
          await expect(form.getByRole("status")).not.toBeEmpty();
        },
      );
      expect(await replay(action, "anonymous")).toBe(401);
      expect(await replay(action, "viewer")).toBe(403);
      expect(await replay(action, "editor")).toBe(200);
      expect(await replay(action, "admin")).toBe(200);
    }
  });

  test("unblock user (admin only): anonymous 401, viewer 403, editor 403, admin 200", async ({
    browser,
  }) => {
    const email = `blocked-${Date.now()}@e2e.seed-charts.test`;
    const action = await captureAction(browser, "/admin/users", async (page) => {
      const create = page.getByRole("region", { name: "Create a user" });
      await create.getByLabel("Name", { exact: true }).fill("Blocked user");
      await create.getByLabel("Email", { exact: true }).fill(email);
      await create.getByLabel("Password", { exact: true }).fill(randomPassword());
      await create.getByRole("button", { name: "Create user" }).click();
      const row = page.locator(`tr[data-user-email="${email}"]`);
      await row.getByRole("button", { name: `Block ${email}` }).click();
      await page
        .getByRole("dialog")
        .getByRole("button", { name: `Yes, block ${email}` })
        .click();
      const form = row.locator("form", {
        has: page.getByRole("button", { name: `Unblock ${email}` }),
      });
      await form.locator('input[name="userId"]').evaluate((input: HTMLInputElement) => {
        input.value = "no-such-user-id";
      });
      await form.getByRole("button").click();
      await expect(form.getByRole("status")).not.toBeEmpty();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(403);
    expect(await replay(action, "admin")).toBe(200);
  });

  /** The id of the first dataset on the list, found through its link. */
  async function someDatasetId(): Promise<string> {
    const admin = await clientFor("admin");
    const page = await (await admin.get("/admin/datasets", { headers: html })).text();
    await admin.dispose();
    const id = /href="\/admin\/datasets\/([0-9a-f-]{36})"/.exec(page)?.[1];
    if (!id) throw new Error("No dataset link on /admin/datasets");
    return id;
  }

  test("create API token (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const datasetId = await someDatasetId();
    const action = await captureAction(browser, `/admin/datasets/${datasetId}`, async (page) => {
      const form = page.getByRole("form", { name: "Create an API token" });
      // A dataset that does not exist: each replay is checked and refused, no token is made.
      await form.locator('input[name="datasetId"]').evaluate((input: HTMLInputElement) => {
        input.value = "no-such-dataset";
      });
      await form.getByLabel("Token name").fill("Matrix token");
      await form.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByText(/No dataset with id/)).toBeVisible();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("revoke API token (editor and admin): anonymous 401, viewer 403, editor and admin 200", async ({
    browser,
  }) => {
    const datasetId = await someDatasetId();
    const name = `Matrix revoke ${Date.now()}`;
    const action = await captureAction(browser, `/admin/datasets/${datasetId}`, async (page) => {
      const form = page.getByRole("form", { name: "Create an API token" });
      await form.getByLabel("Token name").fill(name);
      await form.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByLabel(`Token for ${name}`)).toHaveValue(/^seed_/);
      const row = page.getByRole("row", { name: new RegExp(name) });
      const revoke = row.locator("form");
      // An id no token has: each replay is refused, and the shared dataset's tokens stay.
      await revoke.locator('input[name="tokenId"]').evaluate((input: HTMLInputElement) => {
        input.value = "no-such-token";
      });
      await row.getByRole("button", { name: `Revoke ${name}` }).click();
      await page
        .getByRole("dialog")
        .getByRole("button", { name: `Yes, revoke ${name}` })
        .click();
      await expect(revoke.getByRole("status")).not.toBeEmpty();
    });

    expect(await replay(action, "anonymous")).toBe(401);
    expect(await replay(action, "viewer")).toBe(403);
    expect(await replay(action, "editor")).toBe(200);
    expect(await replay(action, "admin")).toBe(200);
  });

  test("a forged session cookie gets 401 from the action itself", async ({ browser }) => {
    const action = await captureAction(browser, "/admin/users", async (page) => {
      await page.getByRole("button", { name: "Create user" }).click();
    });

    const status = await replay(action, "anonymous", {
      Cookie: "better-auth.session_token=forged.value",
    });

    expect(status).toBe(401);
  });
});

test.describe("the /admin gate against bypass attempts (no session)", () => {
  const gateCases: {
    name: string;
    path: string;
    headers?: Record<string, string>;
    status: number;
  }[] = [
    {
      name: "forged x-middleware-subrequest",
      path: "/admin",
      headers: {
        ...html,
        "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware",
      },
      status: 307,
    },
    {
      name: "forged x-middleware-subrequest naming the proxy",
      path: "/admin/users",
      headers: {
        ...html,
        "x-middleware-subrequest": "src/proxy:src/proxy:src/proxy:src/proxy:src/proxy",
      },
      status: 307,
    },
    { name: "RSC: 1", path: "/admin", headers: { ...html, RSC: "1" }, status: 401 },
    {
      name: "Next-Router-Prefetch",
      path: "/admin/users",
      headers: { RSC: "1", "Next-Router-Prefetch": "1" },
      status: 401,
    },
    { name: ".rsc form", path: "/admin.rsc", status: 401 },
    { name: ".rsc form of a sub-page", path: "/admin/users.rsc", status: 401 },
    { name: ".json form", path: "/admin/users.json", status: 401 },
    { name: "route handler", path: "/admin/api/audit", headers: html, status: 401 },
  ];

  for (const gateCase of gateCases) {
    test(`${gateCase.name} (${gateCase.path}) -> ${gateCase.status}`, async () => {
      const client = await clientFor("anonymous");

      const response = await client.get(gateCase.path, { headers: gateCase.headers });

      expect(response.status()).toBe(gateCase.status);
      const body = await response.text();
      expect(body).not.toContain("Sign out");
      if (gateCase.status === 307) {
        expect(new URL(response.headers().location ?? "", baseURL).pathname).toBe("/login");
      }
      await client.dispose();
    });
  }

  for (const path of [
    "/%61dmin",
    "/admin/",
    "//admin",
    "/ADMIN",
    "/Admin/users",
    "/admin/%2e%2e/admin",
    "/%2Fadmin",
  ]) {
    test(`variant ${path} never shows admin content`, async ({ page }) => {
      const response = await page.goto(`${baseURL}${path}`);

      const finalPath = new URL(page.url()).pathname;
      const status = response?.status();
      expect(
        (finalPath === "/login" && status === 200) || status === 404,
        `${path} ended at ${finalPath} with ${status}`,
      ).toBe(true);
      await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
    });
  }

  const variantAnswers: { path: string; status: number; location?: string }[] = [
    { path: "/%61dmin", status: 307, location: "/login" },
    { path: "/admin/", status: 308, location: "/admin" },
    { path: "//admin", status: 308, location: "/admin" },
    { path: "/ADMIN", status: 404 },
    { path: "/Admin/users", status: 404 },
    { path: "/%2Fadmin", status: 404 },
  ];

  for (const variant of variantAnswers) {
    test(`variant ${variant.path} answers ${variant.status}`, async () => {
      const client = await clientFor("anonymous");

      const response = await client.get(`${baseURL}${variant.path}`, { headers: html });

      expect(response.status()).toBe(variant.status);
      if (variant.location) {
        expect(new URL(response.headers().location ?? "", baseURL).pathname).toBe(variant.location);
      }
      await client.dispose();
    });
  }

  test("a server action POST without a session gets 401", async () => {
    const client = await clientFor("anonymous");

    const response = await client.post("/admin/users", {
      headers: { "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" },
      data: "[]",
    });

    expect(response.status()).toBe(401);
    await client.dispose();
  });

  test("a forged session cookie is still sent to sign in by the page gate", async () => {
    const client = await clientFor("anonymous");

    const response = await client.get("/admin/users", {
      headers: { ...html, Cookie: "better-auth.session_token=forged.value" },
    });

    expect(response.status()).toBe(307);
    expect(new URL(response.headers().location ?? "", baseURL).searchParams.get("next")).toBe(
      "/admin/users",
    );
    await client.dispose();
  });
});

for (const who of ["viewer", "admin"] as const) {
  for (const path of who === "admin" ? ["/admin", "/admin/users", "/admin/audit"] : ["/admin"]) {
    test(`${path} as ${who} is axe-clean`, async ({ browser }) => {
      const context = await browser.newContext({
        baseURL,
        storageState: testUser(who).storageState,
      });
      const page = await context.newPage();

      await page.goto(path);

      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);
      await context.close();
    });
  }
}

// better-auth's own HTTP API is closed but for three endpoints: e2e/security/auth-surface.spec.ts.
