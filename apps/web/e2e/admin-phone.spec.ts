import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import {
  alertLimits,
  collectionLimits,
  groupLimits,
  reportLimits,
  sourceLimits,
  textLimits,
} from "@seed/model";
import {
  createCollectionThroughForm,
  createDashboardThroughForm,
  importCsvAsEditor,
  signedInPage,
  uniqueName,
} from "./content-support";
import { fillSourceForm, useLiveSourceDatabase } from "./live-source-support";
import { horizontalOverflow, testUser } from "./support";

// Every admin screen at a phone's width, with names as long as their limits: nothing scrolls
// sideways (the brief: usable at 375 px), and a long name never widens a control. The routes
// are read from src/app/admin, so a new screen is in the sweep the day it is added.

// A live source to open needs a database that answers.
const liveSource = useLiveSourceDatabase("seed-web-e2e-phone-");

/** Every page under src/app/admin as its route pattern, e.g. "/admin/charts/[id]/history". */
function adminRoutes(): string[] {
  const root = fileURLToPath(new URL("../src/app/admin", import.meta.url));
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "page.tsx")
    .map((file) => {
      const dir = path.dirname(file).split(path.sep).join("/");
      return dir === "." ? "/admin" : `/admin/${dir}`;
    })
    .sort();
}

/** A name exactly `length` characters long, with one unbroken run (the hardest to wrap). */
function longName(prefix: string, length: number): string {
  const start = `${uniqueName(prefix)} `;
  return `${start}${"Ш".repeat(length - start.length - 8)} revenue`;
}

/** The width of every labelled control on the page, by its label. */
function controlWidths(page: Page): Promise<Record<string, number>> {
  return page.locator("main").evaluate((main) => {
    const widths: Record<string, number> = {};
    for (const control of main.querySelectorAll("input, select, textarea, button")) {
      const element = control as HTMLInputElement;
      if (element.type === "hidden" || element.getClientRects().length === 0) continue;
      const label =
        element.labels?.[0]?.textContent?.trim() ??
        element.getAttribute("aria-label") ??
        element.textContent?.trim() ??
        element.name;
      widths[`${element.tagName} ${label}`] = Math.round(element.getBoundingClientRect().width);
    }
    return widths;
  });
}

/**
 * Every visible labelled control's accessible name is its label's text alone (never its options,
 * value or what surrounds it), as the browser computes it (Playwright's aria snapshot).
 */
async function expectNamedByLabels(page: Page, where: string) {
  const controls = page.locator("main").locator("select, input:not([type=hidden]), textarea");
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    // The label's own text: a label may wrap its control, whose options are not its name.
    const label = await control.evaluate((element: HTMLInputElement) => {
      const own = element.labels?.[0]?.cloneNode(true) as HTMLElement | undefined;
      for (const inner of own?.querySelectorAll("select, input, textarea") ?? []) inner.remove();
      return own?.textContent ?? null;
    });
    if (label === null) continue;
    // The snapshot's first line: - role "name", YAML-quoted ('…', '' for ') when it holds ": ".
    let line = (await control.ariaSnapshot()).split("\n")[0] ?? "";
    if (line.startsWith("- '"))
      line = `- ${line
        .slice(3)
        .replace(/'(:?)$/, "$1")
        .replace(/''/g, "'")}`;
    const quoted = /^- [\w-]+ "((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? "";
    const name = quoted.replace(/\\(.)/g, "$1");
    expect(name, `${where}: the control labelled "${label}"`).toBe(
      label.replace(/\s+/g, " ").trim(),
    );
  }
}

test("every admin screen fits a phone's width (375 px) with names as long as their limits", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // Records whose names are as long as the store allows.
  const column = `${"Ш".repeat(40)}_${"x".repeat(23)}`; // 64 characters, a column's limit
  const csv = `region,${column}\nNorth,120\nSouth,80\n`;
  const datasetName = longName("Dataset", textLimits.name);
  const dataset = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    csv,
  );
  const { context: admin, page } = await signedInPage(browser, "admin");
  const chartTitle = longName("Chart", textLimits.title);
  await page.goto("/admin/charts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("textbox", { name: "Title" }).fill(chartTitle);
  await page.getByLabel("Dataset").selectOption({ label: datasetName });
  await page.getByLabel("Type").selectOption("bar");
  await page.getByLabel("Index column (x axis)").selectOption("region");
  await page.getByRole("checkbox", { name: column }).check();
  await page.getByRole("button", { name: "Create chart" }).click();
  await page.waitForURL(/\/admin\/charts\/[^/?]+\?saved=1$/);
  const chartId = new URL(page.url()).pathname.split("/").pop() as string;
  const dashboardTitle = longName("Board", textLimits.title);
  const board = await createDashboardThroughForm(page, dashboardTitle, {
    slug: `phone-${Date.now().toString(36)}`,
  });
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: chartTitle });
  await page.getByRole("button", { name: "Add chart tile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tile added." })).toBeVisible();
  await page.goto("/admin/sources/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await fillSourceForm(page, liveSource(), longName("Source", sourceLimits.maxNameLength));
  await page.getByRole("button", { name: "Add source" }).click();
  await page.waitForURL(/\/admin\/sources\/[^/?]+\?saved=1$/);
  const sourceId = new URL(page.url()).pathname.split("/").pop() as string;
  const reportName = longName("Report", reportLimits.name);
  await page.goto("/admin/reports/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name").fill(reportName);
  await page.getByLabel("Recipients").fill(testUser("admin").email);
  await page.getByRole("button", { name: "Create report" }).click();
  await page.waitForURL(/\/admin\/reports$/);
  const reportPath = await page.getByRole("link", { name: reportName }).getAttribute("href");
  await page.goto("/admin/alerts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name").fill(longName("Alert", alertLimits.name));
  const measure = page.locator("#alert-target option", { hasText: chartTitle }).first();
  await page.getByLabel("Watches").selectOption((await measure.getAttribute("value")) ?? "");
  await page.getByLabel("Threshold").fill("1000000");
  await page.getByLabel("Email recipients").fill(testUser("admin").email);
  await page.getByLabel("Webhook address (optional)").fill("https://hooks.example.com/seed/phone");
  await page.getByRole("button", { name: "Create alert" }).click();
  // A new webhook's secret is shown once, with a link to the alert.
  await page.getByRole("link", { name: "Open the alert" }).click();
  await page.waitForURL((url) => /^\/admin\/alerts\/[0-9a-f-]{36}$/.test(url.pathname));
  const alertPath = new URL(page.url()).pathname;
  const groupName = longName("Group", groupLimits.maxNameLength);
  await page.goto("/admin/users");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Group name").fill(groupName);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByText(`Created the group ${groupName}.`, { exact: false })).toBeVisible();
  const groupPath = await page.getByRole("link", { name: groupName }).getAttribute("href");
  const collectionName = longName("Collection", collectionLimits.maxNameLength);
  const collectionPath = await createCollectionThroughForm(page, collectionName);
  await admin.close();

  // Each dynamic segment of a route, filled with the record made above.
  const records: Record<string, string> = {
    "/admin/datasets/[id]": `/admin/datasets/${dataset.datasetId}`,
    "/admin/charts/[id]": `/admin/charts/${chartId}`,
    "/admin/dashboards/[id]": `/admin/dashboards/${board.id}`,
    "/admin/sources/[id]": `/admin/sources/${sourceId}`,
    "/admin/preview/[slug]": `/admin/preview/${board.slug}`,
    "/admin/reports/[id]": reportPath ?? "/admin/reports/missing",
    "/admin/alerts/[id]": alertPath,
    "/admin/users/groups/[id]": groupPath ?? "/admin/users/groups/missing",
    "/admin/collections/[id]": collectionPath,
  };
  const pathOf = (route: string) => {
    const base = Object.keys(records).find(
      (pattern) => route === pattern || route.startsWith(`${pattern}/`),
    );
    const filled = base ? `${records[base]}${route.slice(base.length)}` : route;
    expect(filled, `a record for every dynamic route (${route})`).not.toMatch(/\[/);
    return filled;
  };

  const context = await browser.newContext({
    storageState: testUser("admin").storageState,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const phone = await context.newPage();
  const routes = adminRoutes();
  expect(routes.length).toBeGreaterThanOrEqual(19);
  for (const route of routes) {
    const target = pathOf(route);
    const response = await phone.goto(target);
    expect(response?.status(), target).toBe(200);
    await phone.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect
      .poll(() => horizontalOverflow(phone), { message: `${target} scrolls sideways` })
      .toBe(0);
    await expectNamedByLabels(phone, target);
  }
  await context.close();
});

test("a dataset's name as long as its limit never widens a control of the chart editor", async ({
  browser,
}) => {
  const csv = "region,revenue\nNorth,120\nSouth,80\n";
  const short = uniqueName("Short");
  const long = longName("Long", textLimits.name);
  for (const name of [short, long]) {
    await importCsvAsEditor(`/api/datasets/import?name=${encodeURIComponent(name)}`, csv);
  }
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 812 },
  ]) {
    const { context, page } = await signedInPage(browser, "editor");
    await page.setViewportSize(viewport);
    await page.goto("/admin/charts/new");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const widthsWith = async (name: string) => {
      await page.getByLabel("Dataset").selectOption({ label: name });
      await page.getByLabel("Index column (x axis)").selectOption("region");
      await page.getByRole("checkbox", { name: "revenue" }).check();
      await expect(page.getByTestId("chart-preview").getByRole("figure")).toBeVisible();
      return controlWidths(page);
    };
    const shortWidths = await widthsWith(short);
    const longWidths = await widthsWith(long);
    // The same controls, each as wide with either name chosen (the Dataset select included).
    expect(Object.keys(longWidths).sort()).toEqual(Object.keys(shortWidths).sort());
    for (const [control, width] of Object.entries(shortWidths)) {
      expect(
        Math.abs((longWidths[control] ?? 0) - width),
        `${control} at ${viewport.width} px`,
      ).toBeLessThanOrEqual(1);
    }
    expect(await horizontalOverflow(page)).toBe(0);
    await context.close();
  }
});
