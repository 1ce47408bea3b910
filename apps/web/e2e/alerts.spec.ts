import { createHmac } from "node:crypto";
import { type APIRequestContext, expect, request, test } from "@playwright/test";
import { simpleParser } from "mailparser";
import {
  createPushToken,
  expectAxeClean,
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "./content-support";
import { sunkMail } from "./smtp-sink.mjs";
import { appBaseURL, horizontalOverflow, testUser } from "./support";
import { type ReceivedCall, startWebhookReceiver } from "./webhook-receiver";

// Alerts through the app as its users meet them: an editor sets an alert on a chart's measure
// with a webhook (its secret shown once), a program pushes rows that cross the threshold, and a
// real HTTP receiver gets one signed call when it fires and one when it resolves, never one per
// check; the recipient gets the same by mail through the run's SMTP sink.

async function push(program: APIRequestContext, datasetId: string, secret: string, row: object) {
  const response = await program.post(`/api/datasets/${datasetId}/rows`, {
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    data: JSON.stringify([row]),
  });
  expect(response.status()).toBe(201);
}

const smtpDir = () => {
  const dir = process.env.SEED_E2E_SMTP_DIR;
  if (!dir) throw new Error("The run's SMTP sink is not set up (playwright.config.ts).");
  return dir;
};

test("a push that crosses an alert's threshold calls its webhook once, and once more when it resolves", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const receiver = await startWebhookReceiver();
  const editor = testUser("editor");
  const datasetName = uniqueName("Alerted");
  const created = await importCsvAsEditor(
    `/api/datasets/import?name=${encodeURIComponent(datasetName)}`,
    "month,amount\n2026-01-01,100\n2026-02-01,150\n",
  );
  const { context, page } = await signedInPage(browser, "editor");
  const { chartTitle } = await publishSummedBarChart(page, {
    datasetName,
    x: "month",
    measure: "amount",
  });
  const mailsBefore = sunkMail(smtpDir()).length;

  const name = uniqueName("Big month");
  await page.goto("/admin/alerts/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Name").fill(name);
  const measure = page.locator("#alert-target option", { hasText: chartTitle }).first();
  await page.getByLabel("Watches").selectOption((await measure.getAttribute("value")) ?? "");
  await page.getByLabel("Fires when the number").selectOption("above");
  await page.getByLabel("Threshold").fill("500");
  await page.getByLabel("Email recipients").fill(editor.email);
  await page.getByLabel("Webhook address (optional)").fill(`${receiver.origin}/hook`);
  await page.getByRole("button", { name: "Create alert" }).click();
  // The webhook's signing secret, shown this once.
  const secretField = page.getByLabel(/^Token for the webhook at http:\/\/127\.0\.0\.1/);
  await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9_-]{43}$/);
  const signingSecret = await secretField.inputValue();
  await expectAxeClean(page);
  await page.getByRole("link", { name: "Open the alert" }).click();
  await page.waitForURL((url) => /^\/admin\/alerts\/[0-9a-f-]{36}$/.test(url.pathname));
  const alertUrl = page.url();
  expect(await page.content()).not.toContain(signingSecret);
  // The address is shown by its origin only.
  await expect(page.getByText("Keep http://127.0.0.1")).toBeVisible();

  const token = await createPushToken(page, created.datasetId, {
    name: uniqueName("Feed"),
    scope: "append",
  });
  const program = await request.newContext({ baseURL: appBaseURL() });

  // 900 in March: above 500, it fires.
  await push(program, created.datasetId, token, { month: "2026-03-01", amount: 900 });
  await expect.poll(() => receiver.calls.length, { timeout: 60_000 }).toBe(1);
  const fired = receiver.calls[0] as ReceivedCall;
  const body = JSON.parse(fired.body);
  expect(body).toMatchObject({ type: "alert.fired", value: 900, title: `Alert: ${name}` });
  expect(body.url).toBe(alertUrl);
  const signature = String(fired.headers["seed-signature"]);
  const t = /t=(\d+)/.exec(signature)?.[1] ?? "";
  const mac = createHmac("sha256", signingSecret).update(`${t}.${fired.body}`).digest("hex");
  expect(signature).toBe(`t=${t},v1=${mac}`);

  // 800 in April: still above. Checked (the page shows it), not told again.
  await push(program, created.datasetId, token, { month: "2026-04-01", amount: 800 });
  await expect
    .poll(
      async () => {
        await page.goto(alertUrl);
        return page.getByText(/UTC: 800$/).count();
      },
      { timeout: 60_000 },
    )
    .toBe(1);
  expect(receiver.calls).toHaveLength(1);

  // 100 in May: back under, it resolves once.
  await push(program, created.datasetId, token, { month: "2026-05-01", amount: 100 });
  await expect.poll(() => receiver.calls.length, { timeout: 60_000 }).toBe(2);
  expect(JSON.parse((receiver.calls[1] as ReceivedCall).body)).toMatchObject({
    type: "alert.resolved",
    value: 100,
  });

  await page.goto(alertUrl);
  const history = page.getByRole("table", { name: /Each time it fired or resolved/ });
  await expect(history.getByRole("row")).toHaveCount(3);
  await expect(history.getByRole("row").nth(1)).toContainText("Resolved");
  await expect(history.getByRole("row").nth(1)).toContainText("100");
  await expect(history.getByRole("row").nth(2)).toContainText("Fired");
  await expect(history.getByRole("row").nth(2)).toContainText("900");
  await expect
    .poll(async () => {
      await page.reload();
      return history.getByRole("row").filter({ hasText: "Sent" }).count();
    })
    .toBe(2);
  // The recipient got the same two, each with an unsubscribe link.
  const mails = sunkMail(smtpDir())
    .slice(mailsBefore)
    .filter((mail) => mail.to.includes(editor.email));
  const parsed = await Promise.all(mails.map((mail) => simpleParser(mail.raw)));
  const mine = parsed.filter((mail) => mail.subject?.endsWith(name));
  expect(mine.map((mail) => mail.subject).sort()).toEqual([`Alert: ${name}`, `Resolved: ${name}`]);
  for (const mail of mine) expect(mail.text).toContain("/unsubscribe/");

  // Snoozed: the page says so.
  await page.getByLabel("Snooze for").selectOption("1");
  await page.getByRole("button", { name: "Snooze" }).click();
  await expect(page.getByText(/Snoozed:/)).toBeVisible();
  await page.reload();
  await expect(page.getByText(/OK, snoozed until/)).toBeVisible();
  await expectAxeClean(page);

  await program.dispose();
  await context.close();
  await receiver.close();
});

test("the alerts pages are axe-clean and fit a 375 px phone", async ({ browser }) => {
  const context = await browser.newContext({
    storageState: testUser("editor").storageState,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  for (const path of ["/admin/alerts", "/admin/alerts/new"]) {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(await horizontalOverflow(page), path).toBe(0);
    await expectAxeClean(page);
  }
  await context.close();
});
