import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signInThroughForm } from "../support";

// A refusal must read as the form's message whichever bundle built the auth instance first.
function unknownEmail(): string {
  return `nobody-${randomUUID()}@example.com`;
}

async function refusedByApi(request: APIRequestContext) {
  const response = await request.post("/api/auth/sign-in/email", {
    data: { email: unknownEmail(), password: "not-the-password-123" },
  });
  expect(response.status()).toBe(401);
}

async function refusedByForm(page: Page) {
  await page.goto("/login");
  const response = page.waitForResponse(
    (answer) => answer.request().method() === "POST" && new URL(answer.url()).pathname === "/login",
  );
  await signInThroughForm(page, unknownEmail(), "not-the-password-123");
  expect((await response).status()).toBe(200);
  await expect(page.getByText("The email or password is not right.")).toBeVisible();
  await expect(page.getByText("Application error")).toHaveCount(0);
}

test("an auth API request first, then the form: the form shows its message", async ({
  page,
  request,
}) => {
  await refusedByApi(request);
  await refusedByForm(page);
  await refusedByForm(page);
});

test("the form first, then the auth API, then the form again: no 500", async ({
  page,
  request,
}) => {
  await refusedByForm(page);
  await refusedByApi(request);
  await refusedByForm(page);
});
