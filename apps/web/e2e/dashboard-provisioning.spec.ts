import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createAdminWithCli, startServer } from "./server-process";
import { randomPassword, signInThroughForm, specPort } from "./support";

// Provisioning (issue 30): a server started with SEED_DASHBOARDS_DIR keeps that folder's
// dashboard files in its database, applies a changed file while it runs, and shows such a
// dashboard (and its charts) as read-only in /admin with a pointer to its file.

const file = (title: string) => `format: seed.dashboard/v1
slug: provisioned
title: ${title}
published: true
tiles:
  - key: revenue
    kind: chart
    chart:
      title: Revenue by month
      type: bar
      dataset: monthly_sales_by_channel
      query:
        x: { column: month, grain: month }
        measures: [{ column: revenue, aggregate: sum }]
  - { key: note, kind: text, markdown: "Kept in Git." }
layout:
  revenue: { x: 0, y: 0, w: 6, h: 4 }
  note: { x: 6, y: 0, w: 6, h: 2 }
`;

test("a folder's dashboard file is served, follows its changes, and is read-only in admin", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const folder = mkdtempSync(path.join(tmpdir(), "seed-e2e-dashboards-"));
  writeFileSync(path.join(folder, "provisioned.yaml"), file("From Git"));
  const server = await startServer(specPort("provisioning"), {
    env: { SEED_DASHBOARDS_DIR: folder },
  });
  try {
    const titleOf = async () => {
      const response = await fetch(`${server.url}/d/provisioned`);
      const html = await response.text();
      return response.status === 200 ? /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] : response.status;
    };
    await expect.poll(titleOf, { timeout: 60_000 }).toBe("From Git");

    // A change to the file while the server runs: the public page follows it.
    writeFileSync(path.join(folder, "provisioned.yaml"), file("From Git, edited"));
    await expect.poll(titleOf, { timeout: 60_000 }).toBe("From Git, edited");

    const admin = {
      email: "files@e2e.seed-charts.test",
      name: "Files",
      password: randomPassword(),
    };
    await createAdminWithCli(server, admin);
    await page.goto(`${server.url}/login?next=/admin/dashboards`);
    await signInThroughForm(page, admin.email, admin.password);
    await page.waitForURL((url) => url.pathname === "/admin/dashboards");
    // The list says where it is kept and offers no publish button for it.
    const row = page.getByRole("row").filter({ hasText: "From Git, edited" });
    await expect(row).toContainText("kept from the file provisioned.yaml");
    await expect(row.getByRole("button")).toHaveCount(0);
    await page.getByRole("link", { name: "From Git, edited", exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "From Git, edited" })).toBeVisible();
    await expect(
      page.getByText("Kept from the file provisioned.yaml in the dashboards folder"),
    ).toBeVisible();
    // No editing controls: the file is where it changes.
    await expect(page.getByRole("button", { name: /^(Save|Unpublish|Delete)/ })).toHaveCount(0);
    // Its chart too: shown, not edited, with a pointer to the file.
    await page.goto(`${server.url}/admin/charts`);
    await page.getByRole("link", { name: "Revenue by month", exact: true }).first().click();
    await expect(
      page.getByText("kept from the file provisioned.yaml in the dashboards folder"),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /^(Save|Delete)/ })).toHaveCount(0);
    expect(server.output()).toContain("Dashboard file applied");
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
