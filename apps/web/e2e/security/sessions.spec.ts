import { type Browser, expect, request as playwrightRequest, test } from "@playwright/test";
import { appBaseURL, signInThroughForm, testUser } from "../support";

/** A new session of the viewer, signed in through the form (not the saved one others share). */
async function freshViewerSession(browser: Browser) {
  const viewer = testUser("viewer");
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login?next=/admin");
  await signInThroughForm(page, viewer.email, viewer.password);
  await page.waitForURL((url) => url.pathname === "/admin");
  return { context, page };
}

// Sign-out ends the session on the server: a copy of the old cookie is worth nothing after it.
test("after sign-out a replayed session cookie is refused everywhere", async ({ browser }) => {
  const { context, page } = await freshViewerSession(browser);
  const stolen = await context.storageState();
  expect(stolen.cookies.some((cookie) => cookie.name.includes("session_token"))).toBe(true);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/login");

  const replay = await playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: stolen,
    maxRedirects: 0,
  });
  const session = await (await replay.get("/api/auth/get-session")).json();
  expect(session).toBeNull();
  const admin = await replay.get("/admin", { headers: { Accept: "text/html" } });
  expect(admin.status()).toBe(307);
  expect(admin.headers().location).toContain("/login");
  const audit = await replay.get("/admin/api/audit");
  expect(audit.status()).toBe(401);
  await replay.dispose();
  await context.close();
});

test("auth cookies are HttpOnly, SameSite=Lax, and Secure exactly when the app's URL is https", async ({
  browser,
}) => {
  const { context } = await freshViewerSession(browser);
  const cookies = (await context.cookies()).filter((cookie) => cookie.name.includes("better-auth"));
  expect(cookies.length).toBeGreaterThan(0);
  for (const cookie of cookies) {
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    // The e2e server's BETTER_AUTH_URL is http://localhost:…, so nothing is Secure here;
    // e2e/security/cookie-settings.spec.ts checks the rule itself for https URLs.
    expect(cookie.secure).toBe(false);
  }
  await context.close();
});
