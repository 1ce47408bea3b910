import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { signedInPage } from "./content-support";

// A dashboard as a file (issue 30): downloaded from its admin page, naming its JSON Schema, which
// the app serves publicly; the file itself is for signed-in users only.

test("a dashboard downloads as its YAML file, and the file's JSON Schema is served", async ({
  browser,
  request,
}) => {
  const { context, page } = await signedInPage(browser, "viewer");
  await page.goto("/admin/dashboards");
  await page.getByRole("link", { name: "Store performance", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Store performance" })).toBeVisible();
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download as file (YAML)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("demo.dashboard.yaml");
  const text = await readFile((await download.path()) ?? "", "utf8");
  const lines = text.split("\n");
  expect(lines[0]).toMatch(
    /^# yaml-language-server: \$schema=https?:\/\/[^/]+\/api\/v1\/schemas\/dashboard-file\.json$/,
  );
  expect(lines[1]).toBe("format: seed.dashboard/v1");
  expect(text).toContain("\nslug: demo\n");
  expect(text).toMatch(/\n {6}dataset: [a-z][a-z0-9_]*\n/);
  expect(text).toMatch(/\nlayout:\n {2}[a-z0-9-]+: \{ x: \d+, y: \d+, w: \d+, h: \d+ \}\n/);
  await context.close();

  const schema = await request.get("/api/v1/schemas/dashboard-file.json");
  expect(schema.status()).toBe(200);
  expect(schema.headers()["content-type"]).toContain("application/schema+json");
  const body = (await schema.json()) as { $schema: string; required: string[] };
  expect(body.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(body.required).toEqual(expect.arrayContaining(["format", "slug", "title"]));

  // Signed out, the file is not given: the admin proxy answers first.
  const anonymous = await request.get("/admin/api/dashboards/demo/file", { maxRedirects: 0 });
  expect([302, 303, 307, 401]).toContain(anonymous.status());
  expect(await anonymous.text()).not.toContain("seed.dashboard/v1");
});
