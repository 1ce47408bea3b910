import { type APIRequestContext, expect, type Page, request, test } from "@playwright/test";
import { pushLimits } from "@seed/model";
import {
  createPushToken as createToken,
  expectAxeClean,
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { appBaseURL, testUser } from "./support";

// The push API as a program uses it: a token made on the dataset's page, then plain HTTP with
// only the Authorization header (no cookies), as curl would send it.

/** A client with no cookies at all: what curl is. */
function program(): Promise<APIRequestContext> {
  return request.newContext({ baseURL: appBaseURL() });
}

function bearer(secret: string, contentType: string, extra: Record<string, string> = {}) {
  return { Authorization: `Bearer ${secret}`, "Content-Type": contentType, ...extra };
}

async function rowCountOnPage(page: Page, datasetId: string): Promise<string> {
  await page.goto(`/admin/datasets/${datasetId}`);
  return (await page.getByText(/ rows · version /).textContent()) ?? "";
}

test("a token made on the dataset page pushes JSON and CSV rows that show on the page and the published dashboard", async ({
  browser,
}) => {
  const datasetName = uniqueName("Pushed");
  const created = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "region,amount\nAlfa,1100\nBravo,2200\n",
  );
  const { context, page } = await signedInPage(browser, "editor");
  const { slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  const tokenName = uniqueName("Nightly");

  const secret = await createToken(page, created.datasetId, { name: tokenName, scope: "append" });

  // Shown once, with its curl example; axe-clean with the secret on screen.
  await expect(page.getByRole("status").filter({ hasText: "Copy it now" })).toBeVisible();
  await expect(page.locator("pre")).toContainText(`/api/datasets/${created.datasetId}/rows`);
  await expectAxeClean(page);
  await page.reload();
  const lastUsed = page
    .getByRole("row", { name: new RegExp(tokenName) })
    .getByRole("cell")
    .nth(5);
  await expect(lastUsed).toHaveText("Never");
  expect(await page.content()).not.toContain(secret);

  const curl = await program();
  const url = `/api/datasets/${created.datasetId}/rows`;
  const json = await curl.post(url, {
    headers: bearer(secret, "application/json"),
    data: JSON.stringify({ rows: [{ region: "Charlie", amount: 3300 }] }),
  });
  expect(json.status()).toBe(201);
  expect(await json.json()).toEqual({
    datasetId: created.datasetId,
    imported: 1,
    rowCount: 3,
    version: created.version + 1,
  });

  const csvHeaders = bearer(secret, "text/csv", { "Idempotency-Key": uniqueName("batch") });
  const csvBody = "region,amount\nAlfa,4400\nDelta,100\n";
  const first = await curl.post(url, { headers: csvHeaders, data: csvBody });
  const retry = await curl.post(url, { headers: csvHeaders, data: csvBody });
  expect(first.status()).toBe(201);
  expect(retry.status()).toBe(201);
  expect(retry.headers()["idempotent-replayed"]).toBe("true");
  expect(await retry.json()).toEqual(await first.json());
  const changed = await curl.post(url, { headers: csvHeaders, data: "region,amount\nEcho,1\n" });
  expect(changed.status()).toBe(422);
  expect((await changed.json()).error).toBe("idempotency_mismatch");

  // The rows are on the dataset page (once) and in the published dashboard's sum at once.
  expect(await rowCountOnPage(page, created.datasetId)).toMatch(/^5 rows · version 3 /);
  const regions = await page
    .getByRole("textbox", { name: /^region, row / })
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  expect(regions.sort()).toEqual(["Alfa", "Alfa", "Bravo", "Charlie", "Delta"]);
  await expect(lastUsed).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const dashboard = await visitor.get(`/d/${slug}`, { headers: { RSC: "1" } });
  expect(await dashboard.text()).toContain("5500");

  await visitor.dispose();
  await curl.dispose();
  await context.close();
});

test("bad rows, other datasets, wrong scope, sessions and revoked tokens are refused and write nothing", async ({
  browser,
}) => {
  const mine = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Push target"))}`,
    "day,amount\n2026-01-01,1\n",
  );
  const other = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Push other"))}`,
    "day,amount\n2026-01-01,1\n",
  );
  const { context, page } = await signedInPage(browser, "admin");
  const tokenName = uniqueName("Append only");
  const secret = await createToken(page, mine.datasetId, { name: tokenName, scope: "append" });
  const curl = await program();
  const url = `/api/datasets/${mine.datasetId}/rows`;

  const badJson = await curl.post(url, {
    headers: bearer(secret, "application/json"),
    data: JSON.stringify([
      { day: "2026-01-02", amount: 2 },
      { day: "2026-01-03", amount: "lots" },
    ]),
  });
  expect(badJson.status()).toBe(422);
  expect(await badJson.json()).toMatchObject({
    error: "invalid_rows",
    problems: [{ row: 2, column: "amount", code: "invalid_cell" }],
  });
  const badCsv = await curl.post(url, {
    headers: bearer(secret, "text/csv"),
    data: "day,amount\n2026-01-02,2\n2026-02-30,3\n",
  });
  expect(badCsv.status()).toBe(422);
  expect((await badCsv.json()).problems).toEqual([
    expect.objectContaining({ row: 2, column: "day", code: "not_a_date" }),
  ]);
  const elsewhere = await curl.post(`/api/datasets/${other.datasetId}/rows`, {
    headers: bearer(secret, "application/json"),
    data: JSON.stringify([{ day: "2026-01-02", amount: 2 }]),
  });
  expect(elsewhere.status()).toBe(403);
  expect((await elsewhere.json()).error).toBe("wrong_dataset");
  const replace = await curl.post(`${url}?mode=replace`, {
    headers: bearer(secret, "application/json"),
    data: JSON.stringify([{ day: "2026-01-02", amount: 2 }]),
  });
  expect(replace.status()).toBe(403);
  expect((await replace.json()).error).toBe("scope");
  const wrongType = await curl.post(url, {
    headers: bearer(secret, "text/plain"),
    data: "day,amount\n2026-01-02,2\n",
  });
  expect(wrongType.status()).toBe(415);
  const tooLarge = await curl.post(url, {
    headers: bearer(secret, "text/csv"),
    data: `day,amount\n${"2026-01-02,1\n".repeat(Math.ceil(pushLimits.maxBodyBytes / 13))}`,
  });
  expect(tooLarge.status()).toBe(413);
  expect((await tooLarge.json()).error).toBe("too_large");
  const tooMany = await curl.post(url, {
    headers: bearer(secret, "text/csv"),
    data: `day,amount\n${"2026-01-02,1\n".repeat(pushLimits.maxRows + 1)}`,
  });
  expect(tooMany.status()).toBe(413);
  expect(await tooMany.json()).toMatchObject({
    error: "too_many_rows",
    problems: [{ row: pushLimits.maxRows + 1, code: "too_many_rows" }],
  });

  // A signed-in browser session is no credential here.
  const session = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const withCookies = await session.post(url, {
    headers: { "Content-Type": "application/json", Origin: appBaseURL() },
    data: JSON.stringify([{ day: "2026-01-02", amount: 2 }]),
  });
  expect(withCookies.status()).toBe(401);
  expect(withCookies.headers()["www-authenticate"]).toContain("Bearer");
  await session.dispose();

  // Revoked behind a confirmation: the token stops at once.
  await page.goto(`/admin/datasets/${mine.datasetId}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const row = page.getByRole("row", { name: new RegExp(tokenName) });
  await row.getByRole("button", { name: `Revoke ${tokenName}` }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: `Yes, revoke ${tokenName}` })
    .click();
  await expect(page.getByText(`Token "${tokenName}" revoked.`)).toBeVisible();
  await expect(row).toContainText("Revoked");
  const revoked = await curl.post(url, {
    headers: bearer(secret, "application/json"),
    data: JSON.stringify([{ day: "2026-01-02", amount: 2 }]),
  });
  expect(revoked.status()).toBe(401);

  expect(await rowCountOnPage(page, mine.datasetId)).toMatch(/^1 rows · version 1 /);
  expect(await rowCountOnPage(page, other.datasetId)).toMatch(/^1 rows · version 1 /);
  await curl.dispose();
  await context.close();
});

test("a token is refused with 429 and Retry-After once it spends its requests for the minute", async ({
  browser,
}) => {
  const dataset = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Push busy"))}`,
    "day,amount\n2026-01-01,1\n",
  );
  const { context, page } = await signedInPage(browser, "editor");
  const secret = await createToken(page, dataset.datasetId, {
    name: uniqueName("Busy"),
    scope: "replace",
  });
  const curl = await program();
  const url = `/api/datasets/${dataset.datasetId}/rows`;
  const push = () =>
    curl.post(url, { headers: bearer(secret, "application/json"), data: JSON.stringify([]) });

  // Refused requests count too (an empty list is a 400): 60 a minute, then 429.
  for (let index = 0; index < 60; index++) expect((await push()).status()).toBe(400);
  const limited = await push();

  expect(limited.status()).toBe(429);
  expect((await limited.json()).error).toBe("rate_limited");
  const retryAfter = Number(limited.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  await curl.dispose();
  await context.close();
});

test("a viewer sees nothing of a dataset's tokens", async ({ browser }) => {
  const dataset = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(uniqueName("Push hidden"))}`,
    "day,amount\n2026-01-01,1\n",
  );
  const editor = await signedInPage(browser, "editor");
  const tokenName = uniqueName("Hidden");
  await createToken(editor.page, dataset.datasetId, { name: tokenName, scope: "append" });
  const viewer = await signedInPage(browser, "viewer");

  await viewer.page.goto(`/admin/datasets/${dataset.datasetId}`);

  await expect(viewer.page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(viewer.page.getByRole("heading", { name: "API tokens" })).toHaveCount(0);
  expect(await viewer.page.content()).not.toContain(tokenName);
  await editor.context.close();
  await viewer.context.close();
});
