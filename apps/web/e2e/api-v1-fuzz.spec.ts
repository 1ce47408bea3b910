import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { apiTokenOf, type CheckedApi, checkedApi } from "./openapi-client";

// Any request to any operation of /api/v1 gets an answer the OpenAPI document names (its status,
// media type and schema), never a server error: operations, parameters, headers and bodies are
// generated (odd text, unicode, huge values, random JSON and YAML), as a generic OpenAPI client
// or a fuzzer would send them. Writes with a write token only ever name dashboards made for this
// test, so the suite's other data stays as it is.

type Operation = { method: string; template: string };

const printable = fc.string({ unit: "grapheme-ascii", maxLength: 40 });
const oddText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
  fc.constantFrom("%", "a b", "ä", "😀", "null", "0", "-1", "x".repeat(300), "a/b", "v1"),
);
/** A path segment (never "." or "..": a client would resolve those away, not send them). */
const segment = oddText.filter((text) => text !== "." && text !== "..");

function pathOf(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] as string),
  );
}

test("any request to any operation gets a documented answer, never a server error", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`[api-v1 fuzz] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);
  const readerToken = await apiTokenOf(browser, "viewer", "read");
  const writerToken = await apiTokenOf(browser, "editor", "write");
  const reader = await checkedApi(readerToken.secret);
  const writer = await checkedApi(writerToken.secret);
  const anonymous = await checkedApi();
  const operations: Operation[] = Object.entries(reader.document.paths).flatMap(
    ([template, item]) =>
      Object.keys(item)
        .filter((key) => ["get", "put", "post", "delete"].includes(key))
        .map((method) => ({ method: method.toUpperCase(), template })),
  );
  expect(operations.length).toBeGreaterThanOrEqual(14);

  const fuzzSlug = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((text) => `fuzz-${text}`);
  const query = fc.record(
    {
      limit: fc.oneof(fc.integer({ min: -3, max: 1_200 }).map(String), printable),
      cursor: fc.oneof(
        printable,
        printable.map((text) => Buffer.from(text).toString("base64url")),
        fc.nat({ max: 99 }).map((n) => Buffer.from(`${n}`).toString("base64url")),
      ),
    },
    { requiredKeys: [] },
  );
  const headers = fc.record(
    {
      "If-Match": fc.oneof(fc.constantFrom('"v1"', '"v2"', "*", 'W/"v1"'), printable),
      "If-None-Match": fc.oneof(fc.constant('"v1"'), printable),
      Accept: fc.constantFrom("application/json", "application/yaml", "*/*", "text/html"),
      "Content-Type": fc.constantFrom(
        "application/json",
        "application/yaml",
        "text/plain",
        "application/x-www-form-urlencoded",
      ),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    fc.json({ maxDepth: 4 }),
    fc.string({ maxLength: 200 }),
    fc.constant(
      JSON.stringify({
        x: { column: "month" },
        measures: [{ column: "revenue", aggregate: "sum" }],
      }),
    ),
    fc.constant("format: seed.dashboard/v1\nslug: x\ntitle: [\n"),
    fc
      .jsonValue({ maxDepth: 3 })
      .map((value) => JSON.stringify({ title: "t", type: "bar", value })),
  );

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...operations),
      fc.constantFrom("reader", "writer", "anonymous"),
      fc.record({
        slug: fc.oneof(segment, fc.constantFrom("demo", "monthly_sales_by_channel"), fuzzSlug),
        id: segment,
      }),
      fuzzSlug,
      query,
      headers,
      body,
      async (operation, who, values, ownSlug, params, sent, payload) => {
        const writes = operation.method !== "GET";
        const client: CheckedApi =
          who === "writer" ? writer : who === "reader" ? reader : anonymous;
        // A write token's writes name only this test's own dashboards (or charts nobody has).
        const named =
          who === "writer" && writes
            ? { slug: ownSlug, id: `fuzz-${values.id}` }
            : { slug: values.slug, id: values.id };
        const search = new URLSearchParams(params).toString();
        const path = `${pathOf(operation.template, named)}${search ? `?${search}` : ""}`;
        const answer =
          operation.method === "GET"
            ? await client.get(path, sent)
            : operation.method === "DELETE"
              ? await client.delete(path, sent)
              : operation.method === "PUT"
                ? await client.put(path, payload, sent)
                : await client.post(path, payload, sent);
        // The client has checked the answer against the document; none is a server error.
        expect(answer.status(), `${operation.method} ${path}`).toBeLessThan(500);
      },
    ),
    { seed, numRuns: 300 },
  );
  for (const client of [reader, writer, anonymous]) await client.dispose();
  for (const made of [readerToken, writerToken]) await made.context.close();
});
