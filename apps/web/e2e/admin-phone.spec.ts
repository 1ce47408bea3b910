import { expect, test } from "@playwright/test";
import { horizontalOverflow, testUser } from "./support";

// Every admin screen at a phone's width: nothing scrolls sideways (the brief: usable at 375 px).

test("no admin screen scrolls sideways at a phone's width (375 px)", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({
    storageState: testUser("admin").storageState,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const visit = async (path: string) => {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect
      .poll(() => horizontalOverflow(page), { message: `${path} scrolls sideways` })
      .toBe(0);
  };
  const lists = ["/admin", "/admin/datasets", "/admin/datasets/new", "/admin/charts"];
  for (const path of [...lists, "/admin/charts/new", "/admin/dashboards", "/admin/sources"]) {
    await visit(path);
  }
  for (const path of ["/admin/users", "/admin/audit", "/admin/sql"]) await visit(path);
  // One record of each kind, reached from its list (the demo's).
  for (const list of ["/admin/datasets", "/admin/charts", "/admin/dashboards"]) {
    await page.goto(list);
    const href = await page
      .locator(`main a[href^="${list}/"]:not([href$="/new"])`)
      .first()
      .getAttribute("href");
    expect(href, `a record on ${list}`).toBeTruthy();
    await visit(href as string);
  }
  await context.close();
});
