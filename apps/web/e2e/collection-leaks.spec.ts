import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type APIRequestContext,
  type Browser,
  expect,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { can, levelIncludes, sqlTableNames } from "@seed/model";
import {
  createCollectionThroughForm,
  createDatasetThroughForm,
  createGroupWithMembers,
  moveIntoCollection,
  signedInPage,
  uniqueName,
} from "./content-support";
import { apiTokenOf, checkedApi } from "./openapi-client";
import { appBaseURL, type TestRole, testUser } from "./support";

// Collections keep their records from everyone their groups do not grant (issue 28), on every
// route the app has. The routes are not listed here: they are read from src/app (each page.tsx
// and route.ts), their dynamic segments filled with the hidden records' ids and slugs, and every
// one asked with every method, as an editor no group grants the collection (by session and by
// API token), as a viewer, and as nobody. The oracle: no answer carries the hidden records' names or values,
// and no route that names a hidden record answers it with success.

const appDir = fileURLToPath(new URL("../src/app", import.meta.url));

/** Every route of the app as its segments, e.g. ["admin", "charts", "[id]", "history"]. */
function appRoutes(): { segments: string[]; handler: boolean }[] {
  const found: { segments: string[]; handler: boolean }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "page.tsx" || entry.name === "route.ts") {
        const segments = relative(appDir, dir)
          .split(sep)
          .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
        found.push({ segments, handler: entry.name === "route.ts" });
      }
    }
  };
  walk(appDir);
  return found;
}

interface Hidden {
  datasetId: string;
  datasetSlug: string;
  chartId: string;
  dashboardId: string;
  dashboardSlug: string;
  collectionId: string;
}

/** A dynamic segment filled with the hidden record its place names (null: not asked). */
function fill(segments: readonly string[], hidden: Hidden): string | null {
  const out: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (!segment.startsWith("[")) {
      out.push(segment);
      continue;
    }
    if (segment.startsWith("[...")) return null; // the sign-in library's own endpoints
    const parent = segments[index - 1] ?? "";
    const kind = segments.slice(0, index).join("/");
    if (segment === "[version]") out.push("1");
    else if (segment === "[filters]") out.push("region=North");
    else if (segment === "[token]") out.push(hidden.datasetId);
    else if (parent === "datasets")
      out.push(kind.includes("v1") ? hidden.datasetSlug : hidden.datasetId);
    else if (parent === "charts" || parent === "c") out.push(hidden.chartId);
    else if (parent === "collections") out.push(hidden.collectionId);
    else if (segment === "[slug]") out.push(hidden.dashboardSlug);
    else if (parent === "d" || parent === "dashboards") out.push(hidden.dashboardId);
    else out.push(hidden.chartId); // alerts, reports, sources, groups: a hidden id is no id of theirs
  }
  return `/${out.join("/")}`;
}

/**
 * A dataset, a chart over it and a dashboard with that chart (from a dashboard file), made by the
 * admin with names of their own, moved into a new collection that grants no group.
 */
async function vaultRecords(browser: Browser) {
  const token = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const names = {
    dataset: `Ledger Qx${token}`,
    value: `ZoneQx${token}`,
    chart: `Chart Qx${token}`,
    dashboard: `Board Qx${token}`,
  };
  const { context, page } = await signedInPage(browser, "admin");
  const datasetId = await createDatasetThroughForm(
    page,
    names.dataset,
    `region,revenue\n${names.value},4242\nNorth,1\n`,
  );
  const datasetSlug = sqlTableNames([{ id: datasetId, name: names.dataset }]).get(datasetId) ?? "";
  const dashboardSlug = `board-qx${token}`;
  const admin = await apiTokenOf(browser, "admin", "write");
  const api = await checkedApi(admin.secret);
  const file = [
    "format: seed.dashboard/v1",
    `slug: ${dashboardSlug}`,
    `title: ${names.dashboard}`,
    "tiles:",
    "  - key: sums",
    "    kind: chart",
    "    chart:",
    `      title: ${names.chart}`,
    "      type: bar",
    `      dataset: ${datasetSlug}`,
    "      query: { x: { column: region }, measures: [{ aggregate: sum, column: revenue }] }",
    "",
  ].join("\n");
  expect((await api.put(`/dashboards/${dashboardSlug}`, file)).status()).toBe(201);
  await api.dispose();
  await admin.context.close();

  await page.goto("/admin/charts");
  const chartHref = await page
    .getByRole("link", { name: names.chart, exact: true })
    .getAttribute("href");
  await page.goto("/admin/dashboards");
  const boardHref = await page
    .getByRole("link", { name: names.dashboard, exact: true })
    .getAttribute("href");
  const chartId = chartHref?.split("/").pop() ?? "";
  const dashboardId = boardHref?.split("/").pop() ?? "";
  expect(chartId).not.toBe("");
  expect(dashboardId).not.toBe("");

  // A collection granting no group, and the three records moved into it.
  const collectionName = uniqueName("Vault");
  const collectionId =
    (await createCollectionThroughForm(page, collectionName)).split("/").pop() ?? "";
  for (const path of [
    `/admin/datasets/${datasetId}`,
    `/admin/charts/${chartId}`,
    `/admin/dashboards/${dashboardId}`,
  ]) {
    await moveIntoCollection(page, path, collectionName);
  }
  await context.close();

  const hidden: Hidden = {
    datasetId,
    datasetSlug,
    chartId,
    dashboardId,
    dashboardSlug,
    collectionId,
  };
  return { hidden, names, file };
}

test("an account no group grants a collection finds nothing of it on any route of the app", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { hidden, names, file } = await vaultRecords(browser);
  const { datasetId, datasetSlug, chartId, dashboardId, dashboardSlug, collectionId } = hidden;
  const hiddenIds = [datasetId, datasetSlug, chartId, dashboardId, dashboardSlug, collectionId];
  const editorToken = await apiTokenOf(browser, "editor", "write");
  const askers: Array<{ who: string; http: APIRequestContext }> = [
    {
      who: "editor",
      http: await playwrightRequest.newContext({
        baseURL: appBaseURL(),
        storageState: testUser("editor").storageState,
        extraHTTPHeaders: { Authorization: `Bearer ${editorToken.secret}` },
        maxRedirects: 0,
      }),
    },
    {
      who: "viewer",
      http: await playwrightRequest.newContext({
        baseURL: appBaseURL(),
        storageState: testUser("viewer").storageState,
        maxRedirects: 0,
      }),
    },
    {
      who: "nobody",
      http: await playwrightRequest.newContext({ baseURL: appBaseURL(), maxRedirects: 0 }),
    },
  ];
  // Every id a route might read from its query string, and a body naming them all.
  const query = new URLSearchParams({
    datasetId,
    chartId,
    dashboardId,
    collectionId,
    entityId: datasetId,
    id: chartId,
    dataset: datasetSlug,
    slug: dashboardSlug,
  }).toString();
  const body = {
    datasetId,
    chartId,
    dashboardId,
    collectionId,
    dataset: datasetSlug,
    query: { x: { column: "region" }, measures: [{ aggregate: "count" }] },
    sql: `select * from ${datasetSlug}`,
  };
  const routes = appRoutes();
  expect(routes.length).toBeGreaterThan(50);
  let asked = 0;
  for (const route of routes) {
    const path = fill(route.segments, hidden);
    if (path === null) continue;
    const namesHidden = hiddenIds.some((id) => path.split("/").includes(id));
    const methods = route.handler
      ? (["GET", "POST", "PUT", "DELETE"] as const)
      : (["GET"] as const);
    for (const { who, http } of askers) {
      for (const method of methods) {
        const url = `${path}?${query}`;
        const response = await http.fetch(url, {
          method,
          ...(method === "GET" || method === "DELETE"
            ? {}
            : { data: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
        });
        asked++;
        const text = await response.text();
        const where = `${who} ${method} ${url} → ${response.status()}`;
        for (const name of Object.values(names)) expect(text, where).not.toContain(name);
        const location = response.headers().location ?? "";
        for (const name of Object.values(names)) expect(location, where).not.toContain(name);
        if (namesHidden)
          expect(response.status() < 200 || response.status() >= 300, where).toBe(true);
      }
    }
  }
  console.log(`asked ${asked} requests over ${routes.length} routes`);
  // A whole, valid dashboard file sent to the hidden dashboard's slug writes nothing there.
  const editorApi = await checkedApi(editorToken.secret);
  const overwrite = await editorApi.put(
    `/dashboards/${dashboardSlug}`,
    file.replace(names.dashboard, "Taken over"),
  );
  expect(overwrite.status(), "PUT over the hidden dashboard").toBeGreaterThanOrEqual(400);
  for (const name of Object.values(names)) expect(await overwrite.text()).not.toContain(name);
  await editorApi.dispose();
  for (const { http } of askers) await http.dispose();
  await editorToken.context.close();

  // Nothing of the hidden records was changed by any of it.
  const check = await signedInPage(browser, "admin");
  await check.page.goto(`/admin/dashboards/${dashboardId}`);
  await expect(check.page.getByRole("heading", { level: 1, name: names.dashboard })).toBeVisible();
  await check.page.goto(`/admin/datasets/${datasetId}`);
  await expect(check.page.getByRole("heading", { level: 1, name: names.dataset })).toBeVisible();
  await expect(check.page.getByText("2 rows · version 1")).toBeVisible();
  await check.context.close();
});

/** What a page offers only to those who may change its record: the save button of its form. */
const changeMarks: Record<string, string> = {
  datasets: ">Save name<",
  charts: ">Save chart<",
  dashboards: ">Save details<",
  collections: ">Save access<",
};

test("each grant gives what it names on every admin page of the collection's records, a role its ceiling", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { hidden, names } = await vaultRecords(browser);
  const groupName = uniqueName("Vault team");
  const { context, page } = await signedInPage(browser, "admin");
  await createGroupWithMembers(page, groupName, [
    testUser("editor").email,
    testUser("viewer").email,
  ]);
  // Every admin page that names one of the records (read from src/app, as above).
  const pages = appRoutes()
    .filter((route) => !route.handler && route.segments[0] === "admin")
    .map((route) => ({ kind: route.segments[1] ?? "", path: fill(route.segments, hidden) }))
    .filter(
      (one): one is { kind: string; path: string } =>
        one.path !== null &&
        one.kind in changeMarks &&
        [hidden.datasetId, hidden.chartId, hidden.dashboardId, hidden.collectionId].some((id) =>
          one.path?.split("/").includes(id),
        ),
    );
  expect(pages.length).toBeGreaterThanOrEqual(6);
  console.log(`grant levels over ${pages.length} pages: ${pages.map((one) => one.path).join(" ")}`);
  const clients = {
    editor: await playwrightRequest.newContext({
      baseURL: appBaseURL(),
      storageState: testUser("editor").storageState,
      maxRedirects: 0,
    }),
    viewer: await playwrightRequest.newContext({
      baseURL: appBaseURL(),
      storageState: testUser("viewer").storageState,
      maxRedirects: 0,
    }),
  };
  for (const level of ["", "view", "edit", "manage"] as const) {
    await page.goto(`/admin/collections/${hidden.collectionId}`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel(groupName, { exact: true }).selectOption(level);
    await page.getByRole("button", { name: "Save access" }).click();
    await expect(page.getByText(/^Access saved/)).toBeVisible();
    for (const [who, http] of Object.entries(clients)) {
      for (const { kind, path } of pages) {
        const response = await http.get(path, {
          headers: { Accept: "text/html,application/xhtml+xml" },
        });
        const text = await response.text();
        const where = `${who} with ${level || "no"} grant: GET ${path} → ${response.status()}`;
        if (level === "") {
          expect(response.status(), where).toBe(404);
          for (const name of Object.values(names)) expect(text, where).not.toContain(name);
          continue;
        }
        expect(response.status(), where).toBe(200);
        // The policy's oracle: changing needs edit there (the collection's groups: manage) and a
        // role that writes content (a viewer's never does).
        const needed = kind === "collections" ? "manage" : "edit";
        const offered =
          can(who as TestRole, "content.write") &&
          levelIncludes(level, needed) &&
          !path.includes("/history");
        expect(text.includes(changeMarks[kind] ?? "\u0000"), where).toBe(offered);
      }
    }
    // The lists name the records exactly when a grant lets the account see them.
    for (const [who, http] of Object.entries(clients)) {
      const list = await (await http.get("/admin/datasets")).text();
      expect(list.includes(names.dataset), `${who} /admin/datasets, ${level || "no"} grant`).toBe(
        level !== "",
      );
    }
  }
  for (const http of Object.values(clients)) await http.dispose();
  await context.close();
});
