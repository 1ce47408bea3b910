import { expect, test } from "@playwright/test";
import { OpenAPIClientAxios } from "openapi-client-axios";
import { apiTokenOf } from "./openapi-client";
import { appBaseURL } from "./support";

// A generic OpenAPI client (openapi-client-axios), built at run time from nothing but the served
// document, drives /api/v1 by operation id: the document's server address, paths, parameters
// and security are enough to list, read, query, write, version and delete.

test("a generic OpenAPI client drives the API by operation id from the served document", async ({
  browser,
}) => {
  const token = await apiTokenOf(browser, "editor", "write");
  const api = new OpenAPIClientAxios({
    definition: `${appBaseURL()}/api/v1/openapi.json`,
    axiosConfigDefaults: {
      headers: { Authorization: `Bearer ${token.secret}` },
      validateStatus: () => true,
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: a client generated at run time has no static type
  const client = (await api.init()) as any;

  const datasets = await client.listDatasets({ limit: 100 });
  expect(datasets.status).toBe(200);
  const sales = datasets.data.items.find(
    (item: { slug: string }) => item.slug === "monthly_sales_by_channel",
  );
  expect(sales).toMatchObject({ kind: "stored" });
  expect(
    (await client.getDataset(sales.slug)).data.columns.map((c: { name: string }) => c.name),
  ).toContain("revenue");
  const result = await client.runDatasetQuery(sales.slug, {
    x: { column: "month", grain: "year" },
    measures: [{ column: "revenue", aggregate: "sum" }],
  });
  expect(result.status).toBe(200);
  expect(result.data.rows.length).toBeGreaterThan(0);

  const slug = `generic-${Date.now().toString(36)}`;
  const file = {
    format: "seed.dashboard/v1",
    slug,
    title: "From a generic client",
    tiles: [{ key: "note", kind: "text", markdown: "Written by operation id." }],
    layout: { note: { x: 0, y: 0, w: 6, h: 2 } },
  };
  const created = await client.putDashboardFile(slug, file);
  expect([created.status, created.data]).toEqual([201, { outcome: "created", slug, version: 1 }]);
  const read = await client.getDashboardFile(slug);
  expect(read.data).toMatchObject({ slug, title: "From a generic client" });
  const again = await client.putDashboardFile(slug, read.data, {
    headers: { "If-Match": read.headers.etag },
  });
  expect(again.data).toEqual({ outcome: "unchanged", slug, version: 1 });
  const edited = await client.putDashboardFile(slug, { ...file, title: "Edited" });
  expect(edited.data.version).toBe(2);
  const stale = await client.putDashboardFile(
    slug,
    { ...file, title: "Lost" },
    { headers: { "If-Match": read.headers.etag } },
  );
  expect([stale.status, stale.headers["content-type"]]).toEqual([412, "application/problem+json"]);
  const versions = await client.listDashboardVersions({ slug, limit: 1 });
  expect(versions.data.items.map((v: { version: number }) => v.version)).toEqual([2]);
  expect(versions.data.nextCursor).not.toBeNull();
  const gone = await client.deleteDashboard(slug, null, { headers: { "If-Match": '"v2"' } });
  expect(gone.status).toBe(204);
  expect((await client.getDashboardFile(slug)).status).toBe(404);
  await token.context.close();
});
