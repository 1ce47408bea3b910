import { expect, request as playwrightRequest, test } from "@playwright/test";
import {
  createCollectionThroughForm,
  createDashboardThroughForm,
  createDatasetThroughForm,
  createGroupWithMembers,
  expectAxeClean,
  moveIntoCollection,
  openAs,
  signedInPage,
  uniqueName,
} from "./content-support";
import { appBaseURL, testUser } from "./support";

// Collections: an admin makes one, grants a group view, and moves a dashboard and a dataset in.
// The group's member sees them (read only); an account in no granted group finds nothing, on
// any admin page, as if they did not exist.

test("a collection's groups see what is in it; anyone else finds nothing on any page", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "admin");
  const datasetName = uniqueName("Private sales");
  const datasetId = await createDatasetThroughForm(
    page,
    datasetName,
    "region,revenue\nNorth,10\nSouth,20\n",
  );
  const boardTitle = uniqueName("Private board");
  const board = await createDashboardThroughForm(page, boardTitle);

  // A group with the viewer in it.
  const groupName = uniqueName("Readers");
  await createGroupWithMembers(page, groupName, [testUser("viewer").email]);

  // The collection, its access for the group, and the two records moved in.
  const collectionName = uniqueName("Finance");
  const collectionPath = await createCollectionThroughForm(page, collectionName);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expectAxeClean(page);
  await page.getByLabel(groupName, { exact: true }).selectOption("view");
  await page.getByRole("button", { name: "Save access" }).click();
  await expect(page.getByText("Access saved: 1 group.")).toBeVisible();

  for (const path of [`/admin/dashboards/${board.id}`, `/admin/datasets/${datasetId}`]) {
    await moveIntoCollection(page, path, collectionName);
  }
  await page.goto(collectionPath);
  await expect(page.getByRole("link", { name: boardTitle })).toBeVisible();
  await expect(page.getByRole("link", { name: datasetName })).toBeVisible();
  await context.close();

  // The viewer, in the group: sees both, read only.
  const seen = await openAs(browser, "viewer", "/admin/dashboards");
  await expect(seen.getByRole("link", { name: boardTitle, exact: true })).toBeVisible();
  await seen.goto(`/admin/dashboards/${board.id}`);
  await expect(seen.getByRole("heading", { level: 1, name: boardTitle })).toBeVisible();
  await expect(seen.getByRole("region", { name: "Collection" })).toContainText(
    `In ${collectionName}.`,
  );
  await expect(seen.getByRole("button", { name: "Move" })).toHaveCount(0);
  await seen.goto("/admin/collections");
  await expect(seen.getByRole("link", { name: collectionName, exact: true })).toBeVisible();
  await seen.context().close();

  // The editor, in no granted group: neither listed nor reachable, by page or by address.
  const editor = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("editor").storageState,
  });
  for (const [path, hidden] of [
    ["/admin/dashboards", boardTitle],
    ["/admin/datasets", datasetName],
    ["/admin/collections", collectionName],
    ["/admin/charts/new", datasetName],
    ["/admin/audit", boardTitle],
  ] as const) {
    const response = await editor.get(path);
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).not.toContain(hidden);
  }
  for (const path of [
    `/admin/dashboards/${board.id}`,
    `/admin/datasets/${datasetId}`,
    `/admin/preview/${board.slug}`,
    `/admin/dashboards/${board.id}/history`,
    collectionPath,
  ]) {
    const response = await editor.get(path);
    expect(response.status(), path).toBe(404);
    const text = await response.text();
    expect(text, path).not.toContain(boardTitle);
    expect(text, path).not.toContain(datasetName);
  }
  await editor.dispose();
});
