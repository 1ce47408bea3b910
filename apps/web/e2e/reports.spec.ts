import { expect, test } from "@playwright/test";
import { type ParsedMail, simpleParser } from "mailparser";
import { expectAxeClean, signedInPage, uniqueName } from "./content-support";
import { sunkMail } from "./smtp-sink.mjs";
import { appBaseURL, horizontalOverflow, testUser } from "./support";

// Scheduled reports through the app as its users meet them: an editor schedules a published
// dashboard, a recipient outside the app is refused by name, "Send now" mails each recipient
// their own message through a real SMTP server (the run's sink), and a recipient leaves through
// their own link, in a browser or by a mail client's one-click POST.

const smtpDir = () => {
  const dir = process.env.SEED_E2E_SMTP_DIR;
  if (!dir) throw new Error("The run's SMTP sink is not set up (playwright.config.ts).");
  return dir;
};

/** A header as the message wrote it (mailparser reads List-* headers into objects). */
function headerLine(mail: ParsedMail, name: string): string {
  return mail.headerLines.find((line) => line.key === name)?.line ?? "";
}

/** The messages to `address` whose subject starts with `title`, since `from`. */
function mailTo(address: string, from: number) {
  return sunkMail(smtpDir())
    .slice(from)
    .filter((mail) => mail.to.includes(address));
}

test("an editor schedules a report, sends it now, and recipients leave through their own links", async ({
  browser,
  request,
}) => {
  const editor = testUser("editor");
  const viewer = testUser("viewer");
  const name = uniqueName("Friday demo");
  const { context, page } = await signedInPage(browser, "editor");
  await page.goto("/admin/reports/new");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expectAxeClean(page);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Dashboard").selectOption({ label: "Store performance (UTC)" });
  await page.getByLabel("How often").selectOption("week");
  await page.getByLabel("On", { exact: true }).selectOption({ label: "Friday" });
  await page.getByLabel("At", { exact: true }).fill("07:45");
  await page
    .getByLabel("Recipients")
    .fill(`${editor.email}\nboss@elsewhere.e2e.example\n${viewer.email}`);
  await page.getByRole("button", { name: "Create report" }).click();
  // Refused by name, at its line; nothing is made and what was typed stays.
  await expect(
    page.getByText(/boss@elsewhere\.e2e\.example is neither a user of this app/),
  ).toBeVisible();
  await expect(page.getByLabel("Recipients")).toHaveValue(/boss@elsewhere/);
  await expect(page.getByLabel("Recipients")).toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);
  await page.getByLabel("Recipients").fill(`${editor.email}\n${viewer.email}`);
  await page.getByRole("button", { name: "Create report" }).click();
  await page.waitForURL(/\/admin\/reports$/);

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Every Friday at 07:45 (UTC)");
  await expect(row).toContainText("Not yet");
  await expectAxeClean(page);

  const before = sunkMail(smtpDir()).length;
  await row.getByRole("button", { name: `Send now: ${name}` }).click();
  await expect(row.getByRole("status").filter({ hasText: "Sending now" })).toBeVisible();
  // Each recipient gets a message of their own, once.
  await expect.poll(() => mailTo(viewer.email, before).length, { timeout: 30_000 }).toBe(1);
  await expect.poll(() => mailTo(editor.email, before).length, { timeout: 30_000 }).toBe(1);
  const [viewerMail] = mailTo(viewer.email, before);
  expect(viewerMail?.to).toEqual([viewer.email]);
  const parsed = await simpleParser(viewerMail?.raw ?? Buffer.alloc(0));
  expect(parsed.subject).toMatch(/^Store performance \(\d{4}-\d{2}-\d{2}\)$/);
  const images = parsed.attachments.filter((part) => part.contentType === "image/png");
  expect(images.length).toBeGreaterThanOrEqual(3);
  expect(images.every((image) => image.contentDisposition === "inline")).toBe(true);
  const pdf = parsed.attachments.find((part) => part.contentType === "application/pdf");
  expect(pdf?.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(String(parsed.html)).toContain(`${appBaseURL()}/d/demo`);
  // The stat tiles say in the mail what they say on the page.
  const board = await browser.newPage();
  await board.goto("/d/demo");
  const tiles = board.locator(".seed-stat-tile");
  expect(await tiles.count()).toBeGreaterThan(0);
  for (const tile of await tiles.all()) {
    const label = ((await tile.locator(".seed-stat-tile__label").textContent()) ?? "").trim();
    const value = ((await tile.locator(".seed-stat-tile__value").textContent()) ?? "").trim();
    expect(parsed.text).toContain(`${label}: ${value}`);
  }
  await board.close();
  const viewerLink = /https?:\/\/[^"<>\s]+\/unsubscribe\/[A-Za-z0-9_-]+/.exec(
    String(parsed.html),
  )?.[0];
  expect(viewerLink).toBeTruthy();
  expect(headerLine(parsed, "list-unsubscribe")).toContain(`<${viewerLink}>`);
  expect(headerLine(parsed, "list-unsubscribe-post")).toContain("List-Unsubscribe=One-Click");

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Sent");

  // The viewer leaves in a browser: the link asks first (mail scanners open links).
  const outsider = await browser.newContext();
  const leaving = await outsider.newPage();
  await leaving.goto(viewerLink as string);
  await expect(leaving.getByRole("heading", { name: "Unsubscribe from a report" })).toBeVisible();
  await expect(leaving.getByText(viewer.email)).toBeVisible();
  await expectAxeClean(leaving);
  await leaving.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(leaving.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await outsider.close();

  // The editor's mail client unsubscribes them with RFC 8058's one-click POST.
  const editorMail = await simpleParser(mailTo(editor.email, before)[0]?.raw ?? Buffer.alloc(0));
  const oneClick = /<([^>]+)>/.exec(headerLine(editorMail, "list-unsubscribe"))?.[1];
  const response = await request.post(oneClick as string, {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(response.status()).toBe(200);

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("0 (2 unsubscribed)");
  // A second "Send now" reaches nobody.
  const after = sunkMail(smtpDir()).length;
  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Send now: ${name}` })
    .click();
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("status")
      .filter({ hasText: "Sending now" }),
  ).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole("row").filter({ hasText: name }).textContent();
      },
      { timeout: 30_000 },
    )
    .toContain("Failed");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText(
    "Every recipient has unsubscribed.",
  );
  expect(mailTo(viewer.email, after)).toEqual([]);
  expect(mailTo(editor.email, after)).toEqual([]);
  await context.close();
});

test("an unknown unsubscribe link says so with 404, and tells nothing else", async ({ page }) => {
  const response = await page.goto("/unsubscribe/not-a-real-token-0123456789");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Link not found" })).toBeVisible();
  await expectAxeClean(page);
  const post = await page.request.post("/unsubscribe/not-a-real-token-0123456789", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(post.status()).toBe(404);
});

test("the reports pages fit a phone's width and keep every control labelled", async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, "editor");
  await page.setViewportSize({ width: 375, height: 812 });
  for (const path of ["/admin/reports", "/admin/reports/new"]) {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect.poll(() => horizontalOverflow(page), { message: path }).toBe(0);
    await expectAxeClean(page);
  }
  await context.close();
});
