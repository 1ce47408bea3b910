import { expect, request, test } from "@playwright/test";
import { type FakeListener, startFakeListener } from "../../../scripts/fake-postgres-listener.mjs";
import type { LiveSourceDatabase } from "../../../scripts/throwaway-live-source.mjs";
import {
  createCollectionThroughForm,
  expectAxeClean,
  moveIntoCollection,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { fillSourceForm, useLiveSourceDatabase } from "./live-source-support";
import { appBaseURL, captureServerAction, replayServerAction } from "./support";

// Live sources: an admin connects a PostgreSQL database the test starts, adds a table as a
// dataset; an editor charts it on a published dashboard; visitors see the source's rows, and a
// change there after the source's cache time-to-live. Runs against `next start`.

const liveSource = useLiveSourceDatabase("seed-web-e2e-live-");
let remote: LiveSourceDatabase;
test.beforeAll(() => {
  remote = liveSource();
});

/** Test connection's one answer to any failure to connect or sign in. */
const connectFailed =
  "Could not connect and sign in to the live source with these settings: check the host, port, database, user, password and SSL setting (the server log says why).";

test("an admin adds a live source and a table; a published chart shows its rows and follows changes after the TTL", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await signedInPage(browser, "admin");
  await page.goto("/admin/sources");
  await expect(page.getByRole("heading", { level: 1, name: "Live sources" })).toBeVisible();
  await expectAxeClean(page);

  await page.getByRole("link", { name: "New source" }).click();
  await page.waitForURL(/\/admin\/sources\/new$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const sourceName = uniqueName("Warehouse");
  await fillSourceForm(page, remote, sourceName, "not-the-password");
  await page.getByLabel("Cache time-to-live (seconds)").fill("5");
  await expectAxeClean(page);

  // A wrong password: a readable refusal, nothing saved.
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("status")).toContainText(`Connection failed: ${connectFailed}`);
  await expectAxeClean(page);

  // The right one: the server's version, and saved.
  await page.getByLabel("Password").fill(remote.password);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("status")).toContainText("Connection OK: PostgreSQL");
  await expect(page.getByRole("status")).not.toContainText("Warning");
  await page.getByRole("button", { name: "Add source" }).click();
  await page.waitForURL(/\/admin\/sources\/[^/?]+\?saved=1$/);
  const sourceUrl = page.url().replace(/\?saved=1$/, "");
  await expect(page.getByRole("status").filter({ hasText: "Source saved." })).toBeVisible();
  const tables = page.getByRole("region", { name: "Remote tables" });
  await expect(tables.getByRole("cell", { name: "public.sales", exact: true })).toBeVisible();
  await expect(tables.getByRole("cell", { name: "public.slow_sales", exact: true })).toBeVisible();
  await expect(tables.getByText("public.secrets")).toHaveCount(0);
  await expectAxeClean(page);
  expect(await page.content()).not.toContain(remote.password);
  await page.goto("/admin/sources");
  await expect(page.getByRole("row", { name: new RegExp(sourceName) })).toContainText("Ready");
  await expectAxeClean(page);
  await page.goto(sourceUrl);

  // The table as a live dataset, renamed so this run's charts find it by a name of its own.
  await page.getByRole("button", { name: "Add public.sales as dataset" }).click();
  await page.waitForURL(/\/admin\/datasets\/[^/?]+$/);
  const datasetPage = page.url();
  await expect(page.getByRole("heading", { name: "Live from a database" })).toBeVisible();
  await expect(page.getByText(`Source: ${sourceName}, table public.sales`)).toBeVisible();
  await expect(
    page.getByText("Columns left out (unsupported type): tags (ARRAY), payload (jsonb)."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Import rows from a file" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "API tokens" })).toHaveCount(0);
  await expectAxeClean(page);
  const datasetName = uniqueName("Live sales");
  await page.getByLabel("Name", { exact: true }).fill(datasetName);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { level: 1, name: datasetName })).toBeVisible();

  // An editor charts it (editors may chart over live datasets) and publishes it.
  const editor = await signedInPage(browser, "editor");
  const { slug } = await publishSummedBarChart(editor.page, {
    datasetName,
    x: "region",
    measure: "revenue",
  });

  const visitor = await request.newContext({ baseURL: appBaseURL() });
  const visit = async () => {
    const response = await visitor.get(`/d/${slug}`);
    return { cache: response.headers()["x-nextjs-cache"], body: await response.text() };
  };
  const first = await visit();
  expect(first.body).toContain("220");
  expect(first.body).toContain("150");
  expect(first.body).not.toContain(remote.password);
  // Within the 5 s time-to-live the page comes from the cache (polled: another spec's write on
  // this shared server expires every page, and the next request renders again).
  await expect.poll(async () => (await visit()).cache, { intervals: [100] }).toBe("HIT");
  remote.exec("update sales set revenue = 987 where region = 'South'");

  // The first answer past the time-to-live is a fresh render from the source, never a stale copy.
  let fresh = first;
  await expect
    .poll(
      async () => {
        fresh = await visit();
        return fresh.cache;
      },
      { timeout: 20_000, intervals: [250] },
    )
    .not.toBe("HIT");
  expect(fresh.cache).not.toBe("STALE");
  expect(fresh.body).toContain("987");

  // The source cannot go while a dataset reads it: the refusal names the dataset.
  await page.goto(sourceUrl);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("button", { name: `Delete source "${sourceName}"` }).click();
  await page.getByRole("button", { name: `Yes, delete source "${sourceName}"` }).click();
  await expect(page.getByText(`is still used by dataset "${datasetName}"`)).toBeVisible();

  // A source and a live dataset live in collections too, and move from their own pages.
  const collectionName = uniqueName("Warehouse team");
  await createCollectionThroughForm(page, collectionName);
  for (const path of [new URL(sourceUrl).pathname, new URL(datasetPage).pathname]) {
    await moveIntoCollection(page, path, collectionName);
    await expectAxeClean(page);
  }

  await visitor.dispose();
  await editor.context.close();
  await context.close();
});

test("a saved password is asked for again when the host, port, database or user changes: never sent there, nothing saved", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // A listener of our own that asks for the password in clear text and keeps what it receives.
  const listener: FakeListener = await startFakeListener("cleartext-password");
  const { context, page } = await signedInPage(browser, "admin");
  try {
    await page.goto("/admin/sources/new");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const sourceName = uniqueName("Bound");
    await fillSourceForm(page, remote, sourceName);
    await page.getByRole("button", { name: "Add source" }).click();
    await page.waitForURL(/\/admin\/sources\/[^/?]+\?saved=1$/);
    const sourceUrl = page.url().replace(/\?saved=1$/, "");

    const password = page.getByLabel("Password");
    const formStatus = page.getByRole("form", { name: "Connection" }).getByRole("status");
    const changes: Array<{ fields: Record<string, string>; changed: string }> = [
      { fields: { Port: String(listener.port) }, changed: "the port changed" },
      { fields: { Host: "localhost", Port: String(listener.port) }, changed: "the host and port" },
      { fields: { Host: `${remote.host}.` }, changed: "the host changed" },
      { fields: { Database: "postgres" }, changed: "the database changed" },
      { fields: { "User (a read-only role)": "postgres" }, changed: "the user changed" },
    ];
    for (const { fields, changed } of changes) {
      for (const button of ["Test connection", "Save source"]) {
        await page.goto(sourceUrl);
        await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
        for (const [label, value] of Object.entries(fields)) {
          await page.getByLabel(label, { exact: true }).fill(value);
        }
        await page.getByRole("button", { name: button }).click();
        await expect(password).toHaveAttribute("aria-invalid", "true");
        await expect(page.locator("#source-password-error")).toContainText(
          "Enter the password again:",
        );
        await expect(page.locator("#source-password-error")).toContainText(changed);
        expect(listener.received().includes(Buffer.from(remote.password))).toBe(false);
      }
    }
    // Nothing saved: the page loads the source as it was.
    await page.goto(sourceUrl);
    await expect(page.getByText("version 1 ·")).toBeVisible();
    await expect(page.getByLabel("Host")).toHaveValue(remote.host);
    await expect(page.getByLabel("Port")).toHaveValue(String(remote.port));
    await expect(page.getByLabel("Database")).toHaveValue(remote.database);

    // A password typed with the changed port goes there (that one, not the saved one).
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Port").fill(String(listener.port));
    await password.fill("typed-for-the-listener");
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(formStatus).toContainText(`Connection failed: ${connectFailed}`);
    expect(listener.received().includes(Buffer.from("typed-for-the-listener"))).toBe(true);
    expect(listener.received().includes(Buffer.from(remote.password))).toBe(false);

    // Nothing changed: the saved password is used, and the source is read.
    await page.goto(sourceUrl);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(formStatus).toContainText("Connection OK: PostgreSQL");
  } finally {
    await context.close();
    await listener.close();
  }
});

test("editors cannot open live sources", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "editor");
  const response = await page.goto("/admin/sources");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Your role does not allow this page.")).toBeVisible();
  await context.close();
});

test("the source action checks the role on the server: only admins reach the store", async ({
  browser,
}) => {
  // An admin's "Add source" without a name, replayed with other sessions: nothing is ever written.
  const action = await captureServerAction(browser, "admin", "/admin/sources/new", async (page) => {
    await page.getByRole("button", { name: "Add source" }).click();
    await expect(page.getByText("Enter the name.")).toBeVisible();
  });
  expect((await replayServerAction(action, "anonymous")).status).toBe(401);
  expect((await replayServerAction(action, "viewer")).status).toBe(403);
  expect((await replayServerAction(action, "editor")).status).toBe(403);
  const admin = await replayServerAction(action, "admin");
  expect(admin.status).toBe(200);
  expect(admin.body).toContain("Enter the name.");
});
