import { expect, request as playwrightRequest, test } from "@playwright/test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { signedInPage, uniqueName } from "./content-support";
import { appBaseURL } from "./support";

// The REST API (issue 30): personal tokens made in /admin/tokens, dashboards as files over
// /api/v1 with ETag and If-Match, problem+json errors, and every answer checked against the
// OpenAPI document the app serves.

type Schema = Record<string, unknown>;

async function openApi() {
  const client = await playwrightRequest.newContext({ baseURL: appBaseURL() });
  const document = (await (await client.get("/api/v1/openapi.json")).json()) as {
    openapi: string;
    components: { schemas: Record<string, Schema> };
  };
  await client.dispose();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  }
  return {
    document,
    /** Fails the test unless `body` fits the named component schema. */
    check(name: string, body: unknown) {
      const validate = ajv.getSchema(`#/components/schemas/${name}`);
      expect(validate, name).toBeDefined();
      const ok = validate?.(body);
      expect(ok, `${name}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    },
  };
}

test("tokens made in admin drive /api/v1: files with ETag and If-Match, problems, pages", async ({
  browser,
}) => {
  const api = await openApi();
  expect(api.document.openapi).toBe("3.1.0");

  const tokenOf = async (role: "editor" | "viewer", scope: "read" | "write") => {
    const { context, page } = await signedInPage(browser, role);
    await page.goto("/admin/tokens");
    const name = uniqueName(`API ${scope}`);
    await page.getByRole("textbox", { name: "Token name" }).fill(name);
    await page.getByLabel("Scope").selectOption(scope);
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page.getByLabel(`Token for ${name}`).inputValue();
    expect(secret).toMatch(/^seed_pat_/);
    return { secret, name, context, page };
  };
  const writer = await tokenOf("editor", "write");
  const client = (secret?: string) =>
    playwrightRequest.newContext({
      baseURL: appBaseURL(),
      extraHTTPHeaders: secret ? { Authorization: `Bearer ${secret}` } : {},
    });

  // No token, or a wrong one: 401 problem details, the same for both.
  for (const secret of [undefined, "seed_pat_wrong", `${writer.secret.slice(0, -1)}x`]) {
    const anonymous = await client(secret);
    const refused = await anonymous.get("/api/v1/dashboards");
    expect(refused.status()).toBe(401);
    expect(refused.headers()["content-type"]).toContain("application/problem+json");
    expect(refused.headers()["www-authenticate"]).toContain("Bearer");
    api.check("Problem", await refused.json());
    await anonymous.dispose();
  }

  const http = await client(writer.secret);
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
    http.put(`/api/v1/dashboards/${slug}`, {
      data: body,
      headers: { "Content-Type": "application/yaml", ...headers },
    });

  const created = await put(file("From the API"));
  expect(created.status()).toBe(201);
  api.check("PutResult", await created.json());
  const firstTag = created.headers().etag as string;
  expect(firstTag).toBe('"v1"');

  const got = await http.get(`/api/v1/dashboards/${slug}`);
  expect(got.status()).toBe(200);
  expect(got.headers().etag).toBe(firstTag);
  api.check("DashboardFile", await got.json());
  const yaml = await http.get(`/api/v1/dashboards/${slug}`, {
    headers: { Accept: "application/yaml" },
  });
  expect(await yaml.text()).toContain(`slug: ${slug}\n`);

  // The same file again changes nothing; a change with the right If-Match is one new version;
  // the old ETag after that is a 412 and nothing is written.
  expect((await (await put(file("From the API"))).json()).outcome).toBe("unchanged");
  const updated = await put(file("Edited over the API"), { "If-Match": firstTag });
  expect(updated.status()).toBe(200);
  expect(await updated.json()).toEqual({ outcome: "updated", slug, version: 2 });
  const stale = await put(file("Lost update"), { "If-Match": firstTag });
  expect(stale.status()).toBe(412);
  api.check("Problem", await stale.json());
  expect((await (await http.get(`/api/v1/dashboards/${slug}`)).json()).title).toBe(
    "Edited over the API",
  );

  // A bad file: 422 with each problem's path and line.
  const bad = await put(file("Bad").replace("kind: text", "kind: gauge"));
  expect(bad.status()).toBe(422);
  const problem = (await bad.json()) as { errors: { path: string; line: number }[] };
  api.check("Problem", problem);
  expect(problem.errors[0]).toMatchObject({ path: "tiles.0.kind", line: 5 });

  // Pages: every dashboard once, in slug order.
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await http.get(
      `/api/v1/dashboards?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.status()).toBe(200);
    const body = (await page.json()) as { items: { slug: string }[]; nextCursor: string | null };
    api.check("DashboardPage", body);
    slugs.push(...body.items.map((item) => item.slug));
    cursor = body.nextCursor;
  } while (cursor !== null);
  expect(slugs).toEqual([...new Set(slugs)].sort());
  expect(slugs).toContain(slug);

  // A read token, even an editor's, cannot write; a viewer's write token cannot either.
  const reader = await tokenOf("editor", "read");
  const viewerWriter = await tokenOf("viewer", "write");
  for (const secret of [reader.secret, viewerWriter.secret]) {
    const limited = await client(secret);
    const refused = await limited.put(`/api/v1/dashboards/${slug}`, {
      data: file("Not allowed"),
      headers: { "Content-Type": "application/yaml" },
    });
    expect(refused.status()).toBe(403);
    api.check("Problem", await refused.json());
    expect((await limited.get(`/api/v1/dashboards/${slug}`)).status()).toBe(200);
    await limited.dispose();
  }

  // Revoked in admin: refused from then on.
  await writer.page.goto("/admin/tokens");
  await writer.page.getByRole("button", { name: `Revoke ${writer.name}` }).click();
  await writer.page.getByRole("button", { name: `Yes, revoke ${writer.name}` }).click();
  await expect(writer.page.getByRole("status").filter({ hasText: "revoked" })).toBeVisible();
  expect((await http.get("/api/v1/dashboards")).status()).toBe(401);
  await http.dispose();
  for (const made of [writer, reader, viewerWriter]) await made.context.close();
});
