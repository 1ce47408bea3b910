import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { type ServerProcess, startServerWithAdmin } from "../server-process";
import { randomPassword, signInThroughForm, specPort } from "../support";

// A refusal must read as the form's message whichever bundle built the auth instance first, so
// each order runs on a server of its own that nothing has touched yet.

const basePort = specPort("authRefusals");

let server: ServerProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function freshServerWithAdmin(port: number) {
  const started = await startServerWithAdmin(port);
  server = started.server;
  return started;
}

async function authApiRequest(page: Page, url: string) {
  const session = await page.request.get(`${url}/api/auth/get-session`);
  expect(session.status()).toBe(200);
  // Closed endpoints answer 404 without a 500 either.
  const closed = await page.request.post(`${url}/api/auth/sign-in/email`, {
    data: { email: "x@example.com", password: "not-the-password-123" },
  });
  expect(closed.status()).toBe(404);
}

async function refusedByForm(page: Page, url: string, email: string) {
  await page.goto(`${url}/login`);
  const response = page.waitForResponse(
    (answer) => answer.request().method() === "POST" && new URL(answer.url()).pathname === "/login",
  );
  await signInThroughForm(page, email, "not-the-password-123");
  expect((await response).status()).toBe(200);
  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await expect(page.getByText("Application error")).toHaveCount(0);
}

async function duplicateEmailRefused(
  page: Page,
  url: string,
  admin: { email: string; password: string },
) {
  await page.goto(`${url}/login?next=/admin/users`);
  await signInThroughForm(page, admin.email, admin.password);
  await page.waitForURL((address) => address.pathname === "/admin/users");
  const form = page.getByRole("region", { name: "Create a user" });
  await form.getByLabel("Name").fill("Twin");
  await form.getByLabel("Email").fill(admin.email);
  await form.getByLabel("Password").fill(randomPassword());
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByText("A user with this email already exists.")).toBeVisible();
  await expect(page.getByText("Application error")).toHaveCount(0);
}

test("fresh server, an auth API request first, then the forms: every refusal is a message", async ({
  page,
}) => {
  const { server: fresh, admin } = await freshServerWithAdmin(basePort);

  await authApiRequest(page, fresh.url);
  await refusedByForm(page, fresh.url, `nobody-${randomUUID()}@example.com`);
  await refusedByForm(page, fresh.url, admin.email);
  await duplicateEmailRefused(page, fresh.url, admin);
});

test("fresh server, the form first, then the auth API, then the forms again: no 500", async ({
  page,
}) => {
  const { server: fresh, admin } = await freshServerWithAdmin(basePort + 1);

  await refusedByForm(page, fresh.url, admin.email);
  await authApiRequest(page, fresh.url);
  await refusedByForm(page, fresh.url, `nobody-${randomUUID()}@example.com`);
  await duplicateEmailRefused(page, fresh.url, admin);
});
