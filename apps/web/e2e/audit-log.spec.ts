import { expect, request, test } from "@playwright/test";
import { importCsvAsEditor, signedInPage, uniqueName } from "./content-support";
import { appBaseURL, testUser } from "./support";

// The audit log as a reader uses it: a total, newer and older pages, records named and linked
// (or marked deleted), details as a list, and the filtered events as CSV for the reader's role.

test("audit paging goes older and back newer with a total; records are linked by name", async ({
  browser,
}) => {
  // Named to sort after the demo's datasets, so menus other tests walk stay short at the top.
  const prefix = uniqueName("Zz audited");
  const created: string[] = [];
  for (let i = 0; i < 51; i++) {
    const done = await importCsvAsEditor(
      `/api/datasets/import?name=${encodeURIComponent(`${prefix} ${i}`)}`,
      "label,value\na,1\n",
    );
    created.push(done.datasetId);
  }
  const { context, page } = await signedInPage(browser, "viewer");
  await page.goto("/admin/audit?entityType=dataset&action=dataset.create");
  const table = page.getByRole("region", { name: "Audit events" });
  await expect(table.locator("caption")).toHaveText(/^[\d,]+ events match; newest first\.$/);
  const total = Number(
    (await table.locator("caption").textContent())?.split(" ")[0]?.replace(/,/g, ""),
  );
  expect(total).toBeGreaterThanOrEqual(51);
  // The newest event names the last dataset and links to it.
  const newest = table.getByRole("link", { name: `${prefix} 50`, exact: true });
  await expect(newest).toHaveAttribute("href", `/admin/datasets/${created[50]}`);
  await expect(page.getByRole("link", { name: "Newer events" })).toHaveCount(0);
  const firstRow = await table.locator("tbody tr").first().textContent();

  await page.getByRole("link", { name: "Older events" }).click();
  await expect(page.getByRole("link", { name: "Newer events" })).toBeVisible();
  await expect(table.locator("tbody tr").first()).not.toHaveText(firstRow ?? "");
  await page.getByRole("link", { name: "Newer events" }).click();
  await expect(table.locator("tbody tr").first()).toHaveText(firstRow ?? "");
  // Back at the page first read: a link to newer events exactly when events were logged since
  // (other tests create datasets in parallel); the caption's total and the link come from one
  // rendering of the page.
  const totalNow = Number(
    (await table.locator("caption").textContent())?.split(" ")[0]?.replace(/,/g, ""),
  );
  expect(totalNow).toBeGreaterThanOrEqual(total);
  await expect(page.getByRole("link", { name: "Newer events" })).toHaveCount(
    totalNow > total ? 1 : 0,
  );
  await context.close();
});

test("the filtered events download as CSV shaped for the reader; deleted records say so", async ({
  browser,
}) => {
  const name = uniqueName("Exported");
  const done = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(name)}`,
    "label,value\n=cmd,1\n",
  );
  const csvFor = async (role: "viewer" | "admin") => {
    const client = await request.newContext({
      baseURL: appBaseURL(),
      storageState: testUser(role).storageState,
    });
    const response = await client.get(
      "/admin/api/audit/export?entityType=dataset&action=dataset.create",
    );
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/csv");
    expect(response.headers()["content-disposition"]).toContain("audit-log.csv");
    const text = await response.text();
    await client.dispose();
    return text;
  };
  const viewerCsv = await csvFor("viewer");
  const [header, ...lines] = viewerCsv.trim().split("\n");
  expect(header).toBe("at,actor,action,entity_type,entity_id,entity_name,detail");
  expect(lines.some((line) => line.includes(done.datasetId) && line.includes(name))).toBe(true);
  expect(viewerCsv).not.toContain(testUser("editor").email);
  const adminCsv = await csvFor("admin");
  expect(adminCsv.split("\n")[0]).toBe(
    "at,actor,actor_email,action,entity_type,entity_id,entity_name,detail",
  );
  expect(adminCsv).toContain(testUser("editor").email);

  // Deleted: the log keeps the event and says the record is gone.
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto(`/admin/datasets/${done.datasetId}`);
  await page.getByRole("button", { name: /^Delete dataset/ }).click();
  await page.getByRole("button", { name: /^Yes, delete dataset/ }).click();
  await page.waitForURL(/\/admin\/datasets$/);
  await page.goto("/admin/audit?entityType=dataset&action=dataset.delete");
  const row = page.getByRole("region", { name: "Audit events" }).locator("tbody tr").first();
  await expect(row).toContainText("(deleted)");
  await context.close();
});

test("a page a role does not open is refused and audited as a denial, whose details only admins read", async ({
  browser,
}) => {
  const viewer = await signedInPage(browser, "viewer");
  const refused = await viewer.page.goto("/admin/users");
  expect(refused?.status()).toBe(403);
  await viewer.page.goto("/admin/audit?entityType=user&action=user.denied");
  const seenByViewer = viewer.page.getByRole("region", { name: "Audit events" });
  await expect(seenByViewer.locator("tbody tr").first()).toContainText(
    "Only admins see these details.",
  );
  await expect(seenByViewer).not.toContainText("page /admin/users");
  await viewer.context.close();

  const admin = await signedInPage(browser, "admin");
  await admin.page.goto("/admin/audit?entityType=user&action=user.denied");
  const rows = admin.page.getByRole("region", { name: "Audit events" }).locator("tbody tr");
  const denial = rows.filter({ hasText: "page /admin/users" }).filter({
    hasText: testUser("viewer").email,
  });
  await expect(denial.first()).toContainText("users.manage");
  await admin.context.close();
});
