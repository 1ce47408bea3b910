import { expect, test } from "@playwright/test";
import { expectAxeClean, signedInPage } from "./content-support";
import { apiTokenOf, checkedApi } from "./openapi-client";
import { horizontalOverflow, testUser } from "./support";

// The REST API (issue 30): personal tokens made in /admin/tokens, dashboards as files over
// /api/v1 with ETag and If-Match, problem+json errors; every answer is checked against the
// OpenAPI document the app serves (openapi-client.ts).

test("tokens made in admin drive /api/v1: files with ETag and If-Match, problems, pages", async ({
  browser,
}) => {
  const writer = await apiTokenOf(browser, "editor", "write");

  // No token, or a wrong one: 401 problem details, the same for both.
  for (const secret of [undefined, "seed_pat_wrong", `${writer.secret.slice(0, -1)}x`]) {
    const anonymous = await checkedApi(secret);
    const refused = await anonymous.get("/dashboards");
    expect(refused.status()).toBe(401);
    expect(refused.headers()["content-type"]).toContain("application/problem+json");
    expect(refused.headers()["www-authenticate"]).toContain("Bearer");
    await anonymous.dispose();
  }

  const http = await checkedApi(writer.secret);
  const slug = `api-${Date.now().toString(36)}`;
  const file = (title: string) =>
    [
      "format: seed.dashboard/v1",
      `slug: ${slug}`,
      `title: ${title}`,
      "tiles:",
      "  - { key: note, kind: text, markdown: Made over the API }",
      "layout:",
      "  note: { x: 0, y: 0, w: 6, h: 2 }",
      "",
    ].join("\n");
  const put = (body: string, headers: Record<string, string> = {}) =>
    http.put(`/dashboards/${slug}`, body, headers);

  const created = await put(file("From the API"));
  expect(created.status()).toBe(201);
  const firstTag = created.headers().etag as string;
  expect(firstTag).toBe('"v1"');

  const got = await http.get(`/dashboards/${slug}`);
  expect(got.status()).toBe(200);
  expect(got.headers().etag).toBe(firstTag);
  expect((await http.get(`/dashboards/${slug}`, { "If-None-Match": firstTag })).status()).toBe(304);
  const yaml = await http.get(`/dashboards/${slug}`, { Accept: "application/yaml" });
  expect(await yaml.text()).toContain(`slug: ${slug}\n`);

  // The same file again changes nothing; a change with the right If-Match is one new version;
  // the old ETag after that is a 412 and nothing is written.
  expect((await (await put(file("From the API"))).json()).outcome).toBe("unchanged");
  // As a generic client does it: the JSON a GET gave, sent back as JSON, changes nothing.
  const asJson = await (await http.get(`/dashboards/${slug}`)).text();
  const sentBack = await put(asJson, { "Content-Type": "application/json", "If-Match": firstTag });
  expect(await sentBack.json()).toEqual({ outcome: "unchanged", slug, version: 1 });
  const updated = await put(file("Edited over the API"), { "If-Match": firstTag });
  expect(updated.status()).toBe(200);
  expect(await updated.json()).toEqual({ outcome: "updated", slug, version: 2 });
  const stale = await put(file("Lost update"), { "If-Match": firstTag });
  expect(stale.status()).toBe(412);
  expect((await (await http.get(`/dashboards/${slug}`)).json()).title).toBe("Edited over the API");

  // A bad file: 422 with each problem's path and line.
  const bad = await put(file("Bad").replace("kind: text", "kind: gauge"));
  expect(bad.status()).toBe(422);
  const problem = (await bad.json()) as { errors: { path: string; line: number }[] };
  expect(problem.errors[0]).toMatchObject({ path: "tiles.0.kind", line: 5 });

  // Pages: every dashboard once, in slug order.
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await http.get(
      `/dashboards?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.status()).toBe(200);
    const body = (await page.json()) as { items: { slug: string }[]; nextCursor: string | null };
    slugs.push(...body.items.map((item) => item.slug));
    cursor = body.nextCursor;
  } while (cursor !== null);
  expect(slugs).toEqual([...new Set(slugs)].sort());
  expect(slugs).toContain(slug);

  // A read token, even an editor's, cannot write; a viewer's write token cannot either.
  const reader = await apiTokenOf(browser, "editor", "read");
  const viewerWriter = await apiTokenOf(browser, "viewer", "write");
  for (const secret of [reader.secret, viewerWriter.secret]) {
    const limited = await checkedApi(secret);
    const refused = await limited.put(`/dashboards/${slug}`, file("Not allowed"));
    expect(refused.status()).toBe(403);
    expect((await limited.get(`/dashboards/${slug}`)).status()).toBe(200);
    await limited.dispose();
  }
  // Each refusal is audited on the account, for admins to read.
  const auditor = await signedInPage(browser, "admin");
  await auditor.page.goto("/admin/audit?entityType=user&action=user.denied");
  const denials = auditor.page.getByRole("region", { name: "Audit events" }).locator("tbody tr");
  for (const role of ["editor", "viewer"] as const) {
    await expect(
      denials.filter({ hasText: `PUT /api/v1/dashboards/${slug}` }).filter({
        hasText: testUser(role).email,
      }),
    ).toHaveCount(1);
  }
  await auditor.context.close();

  // Revoked in admin: refused from then on.
  await writer.page.goto("/admin/tokens");
  await writer.page.getByRole("button", { name: `Revoke ${writer.name}` }).click();
  await writer.page.getByRole("button", { name: `Yes, revoke ${writer.name}` }).click();
  await expect(writer.page.getByRole("status").filter({ hasText: "revoked" })).toBeVisible();
  expect((await http.get("/dashboards")).status()).toBe(401);
  await http.dispose();
  for (const made of [writer, reader, viewerWriter]) await made.context.close();
});

test("the API reference names every operation of the document, passes axe and fits a phone", async ({
  browser,
}) => {
  const api = await checkedApi();
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  const answer = await page.goto("/docs/api");
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  const operations = page.getByRole("navigation", { name: "Operations" }).getByRole("link");
  const expected = Object.entries(api.document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ["get", "put", "post", "delete"].includes(key))
      .map((method) => `${method.toUpperCase()} /api/v1${path}`),
  );
  await expect(operations).toHaveText(expected);
  // A schema named in an answer is a link to its fields.
  await page.getByRole("link", { name: "QueryResult" }).first().click();
  await expect(page.getByRole("heading", { level: 3, name: "QueryResult" })).toBeInViewport();
  expect(await horizontalOverflow(page)).toBe(0);
  await expectAxeClean(page);
  await context.close();
  await api.dispose();
});
