import { expect, test } from "@playwright/test";
import {
  createDatasetThroughForm,
  createGroupWithMembers,
  expectAxeClean,
  openAs,
  signedInPage,
  uniqueName,
} from "./content-support";
import { testUser } from "./support";

// Row limits: an admin limits a group (the viewer in it) to one region of a dataset on the
// dataset's page; the viewer's page then shows only that region's rows and says why; lifted,
// every row is back.

test("a limited group's member sees only its rows on the dataset's page, until the limit is lifted", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "admin");
  const datasetName = uniqueName("Regional sales");
  const datasetId = await createDatasetThroughForm(
    page,
    datasetName,
    "region,revenue\nNorth,10\nSouth,20\nNorth,5\nSouthwest,7\n",
  );

  const groupName = uniqueName("North team");
  await createGroupWithMembers(page, groupName, [testUser("viewer").email]);

  await page.goto(`/admin/datasets/${datasetId}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const limits = page.getByRole("region", { name: "Row limits" });
  await expect(limits).toContainText("No group is limited here.");
  // A value that does not fit the column is named beside its field; nothing is saved.
  await limits.getByLabel("Group").selectOption({ label: groupName });
  const first = limits.getByRole("group", { name: "Condition 1" });
  await first.getByLabel("Column").selectOption("revenue");
  await first.getByLabel("Rows where it").selectOption({ label: "is greater than" });
  await first.getByLabel("Value").fill("lots");
  await limits.getByRole("button", { name: "Save limit" }).click();
  await expect(first.getByText(/"revenue"/)).toBeVisible();
  await expect(limits).toContainText("No group is limited here.");
  // Nothing typed is lost: the group, the column, the comparison and the value stay as sent.
  await expect(limits.getByLabel("Group")).toHaveValue(
    (await limits.getByRole("option", { name: groupName }).getAttribute("value")) ?? "",
  );
  await expect(first.getByLabel("Column")).toHaveValue("revenue");
  await expect(first.getByLabel("Value")).toHaveValue("lots");

  await first.getByLabel("Column").selectOption("region");
  await first.getByLabel("Rows where it").selectOption({ label: "equals" });
  await first.getByLabel("Value").fill("North");
  await limits.getByRole("button", { name: "Save limit" }).click();
  await expect(
    limits.getByText(`Saved: ${groupName} sees the rows where region is North.`),
  ).toBeVisible();
  await expect(limits).toContainText(`${groupName} sees the rows where region is North.`);
  // The form offers as many conditions as a limit may have (10), one more at each press, the
  // new one's column focused, and says when there can be no more.
  const add = limits.getByRole("button", { name: "Add a condition" });
  for (let count = 2; count <= 10; count++) {
    await add.click();
    await expect(
      limits.getByRole("group", { name: `Condition ${count}` }).getByLabel("Column"),
    ).toBeFocused();
  }
  await expect(limits.getByRole("group", { name: /^Condition \d+$/ })).toHaveCount(10);
  await expect(add).toBeDisabled();
  await expect(limits).toContainText("a limit has at most 10");
  await expectAxeClean(page);
  await context.close();

  // The viewer, in the group: two rows, both North, and the page says why.
  const seen = await openAs(browser, "viewer", `/admin/datasets/${datasetId}`);
  await expect(seen.getByRole("heading", { level: 1, name: datasetName })).toBeVisible();
  await expect(seen.getByText("2 rows you see")).toBeVisible();
  await expect(seen.getByRole("region", { name: "Collection" })).toContainText(
    "You see only the rows where region is North",
  );
  const rows = seen.getByRole("region", { name: "Rows" });
  await expect(rows.getByRole("cell", { name: "North", exact: true }).first()).toBeVisible();
  await expect(rows.getByRole("cell", { name: "South", exact: true })).toHaveCount(0);
  await expect(rows.getByRole("cell", { name: "Southwest", exact: true })).toHaveCount(0);
  // The limit is the admins' business: the viewer gets no Row limits card.
  await expect(seen.getByRole("region", { name: "Row limits" })).toHaveCount(0);
  // The audit log names the dataset's events but tells the viewer none of their details: they
  // are of the whole dataset (its row count, every group's limit).
  type Listed = { entityId: string; entity: { name: string } | null; detail: unknown };
  const audit = (await (
    await seen.request.get("/admin/api/audit?entityType=dataset&action=dataset.set-row-limit")
  ).json()) as { events: Listed[] };
  const own = audit.events.filter((event) => event.entityId === datasetId);
  expect(own).toHaveLength(1);
  for (const event of own) {
    expect(event.entity?.name).toBe(datasetName);
    expect(event.detail).toBeNull();
  }
  await expectAxeClean(seen);

  // Lifted by the admin: every row again.
  const admin = await openAs(browser, "admin", `/admin/datasets/${datasetId}`);
  const card = admin.getByRole("region", { name: "Row limits" });
  await card.getByRole("button", { name: `Remove the limit of ${groupName}` }).click();
  await admin.getByRole("button", { name: "Yes, remove the limit" }).click();
  await expect(card).toContainText("No group is limited here.");
  await admin.context().close();

  await seen.reload();
  await expect(seen.getByText("4 rows", { exact: false }).first()).toBeVisible();
  await expect(
    seen.getByRole("region", { name: "Rows" }).getByRole("cell", { name: "South", exact: true }),
  ).toBeVisible();
  await seen.context().close();
});
