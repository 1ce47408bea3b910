import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request,
  test,
} from "@playwright/test";
import { importEventsHeader } from "../src/features/datasets/import-events";
import { expectAxeClean, signedInPage } from "./content-support";
import {
  appBaseURL,
  type CapturedServerAction,
  captureServerAction,
  replayServerAction,
  type TestRole,
  testUser,
} from "./support";

type Who = "anonymous" | TestRole;
const everyone: Who[] = ["anonymous", "viewer", "editor", "admin"];
const html = { Accept: "text/html,application/xhtml+xml" };

async function clientFor(who: Who): Promise<APIRequestContext> {
  return request.newContext({
    baseURL: appBaseURL(),
    storageState: who === "anonymous" ? undefined : testUser(who).storageState,
    maxRedirects: 0,
  });
}

const demoRecords = {
  datasets: "Monthly sales by channel",
  charts: "Orders per month",
  dashboards: "Store performance",
} as const;

/** The id of a demo seed record, found through its link on the admin list page. */
async function firstId(kind: keyof typeof demoRecords): Promise<string> {
  const client = await clientFor("admin");
  const page = await (await client.get(`/admin/${kind}`, { headers: html })).text();
  await client.dispose();
  const match = new RegExp(`href="/admin/${kind}/([0-9a-f-]{36})">${demoRecords[kind]}<`).exec(
    page,
  );
  if (!match?.[1]) throw new Error(`No link to "${demoRecords[kind]}" on /admin/${kind}`);
  return match[1];
}

const writePages = ["/admin/datasets/new", "/admin/charts/new", "/admin/dashboards/new"];

for (const path of writePages) {
  for (const who of everyone) {
    const expected = who === "anonymous" ? "sign-in redirect" : who === "viewer" ? "403" : "200";
    test(`page ${path} as ${who}: ${expected}`, async () => {
      const client = await clientFor(who);

      const response = await client.get(path, { headers: html });

      if (who === "anonymous") {
        expect(response.status()).toBe(307);
        const location = new URL(response.headers().location ?? "", appBaseURL());
        expect(location.pathname).toBe("/login");
        expect(location.searchParams.get("next")).toBe(path);
      } else if (who === "viewer") {
        expect(response.status()).toBe(403);
      } else {
        expect(response.status()).toBe(200);
        expect(await response.text()).toMatch(/<h1[^>]*>New (dataset|chart|dashboard)<\/h1>/);
      }
      await client.dispose();
    });
  }
}

const recordPages = [
  { kind: "datasets", writeControl: "Save rows" },
  { kind: "charts", writeControl: "Save chart" },
  { kind: "dashboards", writeControl: "Add stat tile" },
] as const;

for (const recordPage of recordPages) {
  for (const who of everyone) {
    test(`record page /admin/${recordPage.kind}/<id> as ${who}`, async () => {
      const path = `/admin/${recordPage.kind}/${await firstId(recordPage.kind)}`;
      const client = await clientFor(who);

      const response = await client.get(path, { headers: html });

      if (who === "anonymous") {
        expect(response.status()).toBe(307);
        expect(new URL(response.headers().location ?? "", appBaseURL()).pathname).toBe("/login");
      } else {
        expect(response.status()).toBe(200);
        const body = await response.text();
        // Viewers read the record but get no write controls.
        if (who === "viewer") expect(body).not.toContain(recordPage.writeControl);
        else expect(body).toContain(recordPage.writeControl);
      }
      await client.dispose();
    });
  }
}

test("list pages show create links to editors only", async () => {
  for (const who of ["viewer", "editor"] as const) {
    const client = await clientFor(who);
    for (const kind of ["dataset", "chart", "dashboard"]) {
      const body = await (await client.get(`/admin/${kind}s`, { headers: html })).text();
      if (who === "viewer") expect(body).not.toContain(`New ${kind}`);
      else expect(body).toContain(`New ${kind}`);
    }
    await client.dispose();
  }
});

test("chart preview endpoint: anonymous 401, viewer 403, editors get a query result, never rows", async () => {
  const datasetId = await firstId("datasets");
  // "Monthly sales by channel" has a "month" date column.
  const x = "month";
  const data = {
    datasetId,
    type: "bar",
    query: { x: { column: x }, measures: [{ column: null, aggregate: "count" }] },
  };
  for (const who of everyone) {
    const client = await clientFor(who);
    const response = await client.post("/admin/api/charts/preview", { data });
    const expected = who === "anonymous" ? 401 : who === "viewer" ? 403 : 200;
    expect(response.status(), who).toBe(expected);
    if (expected === 200) {
      const body = await response.json();
      expect(Object.keys(body)).toEqual(["result"]);
      expect(body.result.series).toEqual([{ key: "m0", label: "Count" }]);
      expect(body.result.rows.length).toBeGreaterThan(0);
    }
    await client.dispose();
  }
  // A query that does not fit the dataset answers field errors, naming the column.
  const editor = await clientFor("editor");
  const refused = await editor.post("/admin/api/charts/preview", {
    data: {
      ...data,
      query: { x: { column: "no such column" }, measures: [{ column: null, aggregate: "count" }] },
    },
  });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).fieldErrors["x.column"]).toEqual([
    'The dataset has no column "no such column".',
  ]);
  await editor.dispose();
});

test("SQL question endpoint: anonymous 401, viewer 403, editors an answer; bad bodies refused", async () => {
  for (const who of everyone) {
    const client = await clientFor(who);
    const response = await client.post("/admin/api/sql", { data: { sql: "select 2 as two" } });
    const expected = who === "anonymous" ? 401 : who === "viewer" ? 403 : 200;
    expect(response.status(), who).toBe(expected);
    if (expected === 200) {
      const body = await response.json();
      expect(Object.keys(body)).toEqual(["answer"]);
      expect(body.answer).toMatchObject({
        columns: [{ name: "two", type: "number" }],
        rows: [[2]],
        truncated: false,
      });
    }
    await client.dispose();
  }
  const editor = await clientFor("editor");
  expect((await editor.post("/admin/api/sql", { data: "not json" })).status()).toBe(400);
  expect((await editor.post("/admin/api/sql", { data: { query: "select 1" } })).status()).toBe(400);
  const tooLong = await editor.post("/admin/api/sql", {
    data: { sql: `select 1 ${"-".repeat(200_000)}` },
  });
  expect(tooLong.status()).toBe(413);
  const longText = await editor.post("/admin/api/sql", {
    data: { sql: `select 1 -- ${"x".repeat(20_000)}` },
  });
  expect(longText.status()).toBe(422);
  expect((await longText.json()).fieldErrors.sql).toEqual([
    "A question is at most 20,000 characters.",
  ]);
  await editor.dispose();
});

test("dataset import endpoint: anonymous 401, viewer 403; an editor's import without a name is refused, nothing saved", async () => {
  for (const who of everyone) {
    const client = await clientFor(who);
    const response = await client.post("/api/datasets/import?name=%20", {
      data: "a,b\n1,2\n",
      headers: { Origin: appBaseURL(), "Content-Type": "text/csv", [importEventsHeader]: "1" },
    });
    const expected = who === "anonymous" ? 401 : who === "viewer" ? 403 : 400;
    expect(response.status(), who).toBe(expected);
    if (expected === 400) expect(await response.text(), who).toMatch(/Enter a name\./);
    await client.dispose();
  }
});

/** Makes the form post a version that never exists, so every replay is refused by the store. */
async function staleVersion(page: Page, form: Locator) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // Also at submit time: React puts a controlled input's value back whenever it re-renders the
  // form (the editor does when its preview arrives), so a value set only now may not survive.
  await form.evaluate((element: HTMLFormElement) => {
    const stale = () => {
      const input = element.querySelector<HTMLInputElement>('input[name="version"]');
      if (input) input.value = "999999";
    };
    stale();
    element.addEventListener("submit", stale, { capture: true });
  });
}

async function expectMatrix(action: CapturedServerAction, refusal: RegExp) {
  expect((await replayServerAction(action, "anonymous")).status).toBe(401);
  expect((await replayServerAction(action, "viewer")).status).toBe(403);
  for (const who of ["editor", "admin"] as const) {
    const result = await replayServerAction(action, who);
    expect(result.status, who).toBe(200);
    expect(result.body, who).toMatch(refusal);
  }
}

const conflict = /changed by someone else/;
const conflictOrInUse = /changed by someone else|is still used by/;

interface ActionCase {
  name: string;
  path: () => Promise<string>;
  submit: (page: Page) => Promise<void>;
  refusal: RegExp;
}

const actionCases: ActionCase[] = [
  {
    name: "rename dataset",
    path: async () => `/admin/datasets/${await firstId("datasets")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Name and description" });
      await staleVersion(page, form);
      await form.getByRole("button", { name: "Save name" }).click();
    },
    refusal: conflict,
  },
  {
    name: "save dataset rows",
    path: async () => `/admin/datasets/${await firstId("datasets")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Edit rows" });
      await staleVersion(page, form);
      await form.getByRole("button", { name: "Save rows" }).click();
    },
    refusal: conflict,
  },
  {
    name: "delete dataset",
    path: async () => `/admin/datasets/${await firstId("datasets")}`,
    submit: async (page) => {
      // After the first click: re-rendering would put the real version back.
      await page.getByRole("button", { name: /^Delete dataset/ }).click();
      const confirm = page.getByRole("button", { name: /^Yes, delete dataset/ });
      await staleVersion(page, confirm.locator("xpath=ancestor::form"));
      await confirm.click();
    },
    refusal: conflictOrInUse,
  },
  {
    name: "create chart (no title)",
    path: async () => "/admin/charts/new",
    submit: async (page) => {
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Create chart" }).click();
    },
    refusal: /Enter a title\./,
  },
  {
    name: "update chart",
    path: async () => `/admin/charts/${await firstId("charts")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Chart" });
      await staleVersion(page, form);
      await form.getByRole("button", { name: "Save chart" }).click();
    },
    refusal: conflict,
  },
  {
    name: "delete chart",
    path: async () => `/admin/charts/${await firstId("charts")}`,
    submit: async (page) => {
      // After the first click: re-rendering would put the real version back.
      await page.getByRole("button", { name: /^Delete chart/ }).click();
      const confirm = page.getByRole("button", { name: /^Yes, delete chart/ });
      await staleVersion(page, confirm.locator("xpath=ancestor::form"));
      await confirm.click();
    },
    refusal: conflictOrInUse,
  },
  {
    name: "create dashboard (bad slug)",
    path: async () => "/admin/dashboards/new",
    submit: async (page) => {
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("textbox", { name: "Title" }).fill("Matrix dashboard");
      await page.getByLabel("Slug").fill("Not A Slug!");
      await page.getByRole("button", { name: "Create dashboard" }).click();
    },
    refusal: /Use lowercase letters, digits and single hyphens/,
  },
  {
    name: "update dashboard details",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Dashboard details" });
      await staleVersion(page, form);
      await form.getByRole("button", { name: "Save details" }).click();
    },
    refusal: conflict,
  },
  {
    name: "add chart tile",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Add a chart tile" });
      await staleVersion(page, form);
      await form.getByLabel("Chart").selectOption({ index: 1 });
      await form.getByRole("button", { name: "Add chart tile" }).click();
    },
    refusal: conflict,
  },
  {
    name: "add stat tile",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Add a stat tile" });
      await staleVersion(page, form);
      await form.getByRole("button", { name: "Add stat tile" }).click();
    },
    // Validation runs before the version check, so the refusal is a field error.
    refusal: /Enter a label\.|changed by someone else/,
  },
  {
    name: "add text tile",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Add a text tile" });
      await staleVersion(page, form);
      await form.getByLabel("Text (Markdown)").fill("## A note");
      await form.getByRole("button", { name: "Add text tile" }).click();
    },
    refusal: conflict,
  },
  {
    name: "save layout",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Save layout" });
      await staleVersion(page, form);
      // A keyboard move makes the layout unsaved, which enables the save button.
      await page
        .getByRole("button", { name: /^Move or resize / })
        .last()
        .press("ArrowDown");
      await form.getByRole("button", { name: "Save layout" }).click();
    },
    refusal: conflict,
  },
  {
    name: "remove tile",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      const button = page.getByRole("button", { name: /^Remove / }).first();
      await staleVersion(page, button.locator("xpath=ancestor::form"));
      await button.click();
    },
    refusal: conflict,
  },
  {
    name: "delete dashboard",
    path: async () => `/admin/dashboards/${await firstId("dashboards")}`,
    submit: async (page) => {
      // After the first click: re-rendering would put the real version back.
      await page.getByRole("button", { name: /^Delete dashboard/ }).click();
      const confirm = page.getByRole("button", { name: /^Yes, delete dashboard/ });
      await staleVersion(page, confirm.locator("xpath=ancestor::form"));
      await confirm.click();
    },
    refusal: conflict,
  },
];

test.describe("content server actions: anonymous 401, viewer 403, editor and admin allowed", () => {
  for (const actionCase of actionCases) {
    test(actionCase.name, async ({ browser }) => {
      const action = await captureServerAction(
        browser,
        "admin",
        await actionCase.path(),
        async (page) => {
          await actionCase.submit(page);
          // The admin's own post is refused too, so no replay changes anything.
          await expect(page.getByText(actionCase.refusal).first()).toBeVisible();
        },
      );

      await expectMatrix(action, actionCase.refusal);
    });
  }
});

for (const path of ["/admin/datasets", "/admin/charts", "/admin/dashboards"]) {
  test(`${path} and its first record are axe-clean for a viewer`, async ({ browser }) => {
    const { context, page } = await signedInPage(browser, "viewer");
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAxeClean(page);

    const kind = path.split("/").pop() as keyof typeof demoRecords;
    await page.getByRole("link", { name: demoRecords[kind], exact: true }).click();
    await page.waitForURL(new RegExp(`${path}/[0-9a-f-]{36}`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAxeClean(page);
    await context.close();
  });
}

for (const kind of ["datasets", "charts", "dashboards"] as const) {
  test(`/admin/${kind} editing screen is axe-clean for an admin`, async ({ browser }) => {
    const { context, page } = await signedInPage(browser, "admin");
    await page.goto(`/admin/${kind}/${await firstId(kind)}`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAxeClean(page);
    await context.close();
  });
}
