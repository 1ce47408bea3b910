import { expect, request as playwrightRequest, test } from "@playwright/test";
import { appBaseURL, type TestRole, testUser } from "../support";

// better-auth's HTTP API is closed but for get-session, sign-out and ok: impersonation, password
// and role changes, profile updates and the whole admin API go through the app's own audited
// server actions. Generated: every endpoint x method x spelling x role.

type Who = "anonymous" | TestRole;
const everyone: Who[] = ["anonymous", "viewer", "editor", "admin"];

const closedEndpoints = [
  "admin/impersonate-user",
  "admin/stop-impersonating",
  "admin/set-user-password",
  "admin/set-role",
  "admin/create-user",
  "admin/update-user",
  "admin/list-users",
  "admin/list-user-sessions",
  "admin/ban-user",
  "admin/unban-user",
  "admin/revoke-user-session",
  "admin/revoke-user-sessions",
  "admin/remove-user",
  "admin/has-permission",
  "update-user",
  "change-password",
  "set-password",
  "change-email",
  "delete-user",
  "list-sessions",
  "revoke-session",
  "revoke-sessions",
  "revoke-other-sessions",
  "sign-in/email",
  "sign-up/email",
  "request-password-reset",
  "reset-password",
  "verify-email",
  "send-verification-email",
  // Single sign-on starts in the login page's server action; only its callback is open (GET).
  "sign-in/social",
  "sign-in/oauth2",
  "link-social",
  "oauth2/link",
  "unlink-account",
  "list-accounts",
  "account-info",
  "get-access-token",
  "refresh-token",
];

/** Other spellings of the same endpoint a router might still resolve. */
function spellings(endpoint: string): string[] {
  return [
    `/api/auth/${endpoint}`,
    `/api/auth/${endpoint.toUpperCase()}`,
    `/api/auth/${endpoint.replace("/", "%2F")}`,
    `/api/auth/${endpoint}?x=1`,
    `/api/auth/./${endpoint}`,
  ];
}

async function clientFor(who: Who) {
  return playwrightRequest.newContext({
    baseURL: appBaseURL(),
    storageState: who === "anonymous" ? undefined : testUser(who).storageState,
    maxRedirects: 0,
  });
}

for (const who of everyone) {
  test(`every other better-auth endpoint is closed to ${who}, in every spelling`, async () => {
    const client = await clientFor(who);
    const viewer = testUser("viewer");
    const body = {
      userId: "x",
      role: "admin",
      name: "n".repeat(100_000),
      newPassword: "new-password-123456",
      email: viewer.email,
      password: viewer.password,
    };
    for (const endpoint of closedEndpoints) {
      for (const path of spellings(endpoint)) {
        for (const method of ["GET", "POST"] as const) {
          const response =
            method === "GET"
              ? await client.get(path)
              : await client.post(path, { headers: { Origin: appBaseURL() }, data: body });
          expect([404, 405], `${method} ${path} as ${who}`).toContain(response.status());
        }
      }
    }
    await client.dispose();
  });
}

test("the open endpoints answer, and say nothing a signed-in user may not see", async () => {
  const client = await clientFor("viewer");
  const session = await client.get("/api/auth/get-session");
  expect(session.status()).toBe(200);
  const body = await session.json();
  expect(body.user.role).toBe("viewer");
  expect(body.user.name).toBe(testUser("viewer").name);
  expect((await client.get("/api/auth/ok")).status()).toBe(200);
  expect((await client.get("/api/auth/sign-out")).status()).toBe(405);
  await client.dispose();
});

test("a viewer's attempts leave their account as it was", async () => {
  const client = await clientFor("viewer");
  for (const path of ["/api/auth/update-user", "/api/auth/admin/set-role"]) {
    await client.post(path, {
      headers: { Origin: appBaseURL() },
      data: { name: "x".repeat(100_000), role: "viewer,admin", userId: "me" },
    });
  }
  const after = await (await client.get("/api/auth/get-session")).json();
  expect(after.user.role).toBe("viewer");
  expect(after.user.name).toBe(testUser("viewer").name);
  await client.dispose();
});
