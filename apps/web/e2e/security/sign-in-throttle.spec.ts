import { expect, type Page, test } from "@playwright/test";
import { type ServerProcess, startServerWithAdmin } from "../server-process";
import { signInThroughForm, specPort } from "../support";

// The throttle counts in the database, per client address and per account; X-Forwarded-For is
// believed only from SEED_TRUSTED_PROXIES. Each test runs on a server of its own, so the refused
// address (this machine) does not spill into the rest of the suite.

const basePort = specPort("signInThrottle");
const addressLimit = 10;

test.describe.configure({ timeout: 90_000 });

let server: ServerProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function attempt(page: Page, url: string, email: string, password: string, from?: string) {
  // Signed out for each attempt: a success must not turn the next /login into a redirect.
  await page.context().clearCookies();
  await page.setExtraHTTPHeaders(from ? { "X-Forwarded-For": from } : {});
  await page.goto(`${url}/login`);
  await signInThroughForm(page, email, password);
  const outcome = page
    .getByText(/The email or password is not right\.|Too many failed sign-ins/)
    .or(page.getByRole("heading", { level: 1, name: "Overview" }));
  await expect(outcome).toBeVisible();
  return (await outcome.textContent()) ?? "";
}

test("15 wrong passwords from one client are refused, however X-Forwarded-For is forged", async ({
  page,
}) => {
  const started = await startServerWithAdmin(basePort);
  server = started.server;
  const { admin } = started;
  const answers: string[] = [];
  for (let i = 0; i < 15; i += 1) {
    // A new forged address each time, and new accounts: neither may reset the count.
    answers.push(
      await attempt(
        page,
        server.url,
        `guess${i}@throttle.test`,
        "wrong-password-1234",
        `198.51.100.${i}`,
      ),
    );
  }
  expect(answers.slice(0, addressLimit).every((text) => text.includes("not right"))).toBe(true);
  for (const text of answers.slice(addressLimit)) {
    expect(text).toContain("Too many failed sign-ins from your network");
  }
  // The right password from the refused address is refused too, until the window ends.
  expect(await attempt(page, server.url, admin.email, admin.password)).toContain(
    "Too many failed sign-ins from your network",
  );
});

test("behind a trusted proxy each client counts alone, and an attacked account is slowed, not locked", async ({
  page,
}) => {
  const started = await startServerWithAdmin(basePort + 1, {
    env: { SEED_TRUSTED_PROXIES: "127.0.0.1, ::1" },
  });
  server = started.server;
  const { admin } = started;

  // The attacker, behind the proxy at 203.0.113.66, hammers the admin's account.
  const attacker = "203.0.113.66";
  const answers: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    answers.push(await attempt(page, server.url, admin.email, "wrong-password-1234", attacker));
  }
  expect(answers.some((text) => text.includes("for this account"))).toBe(true);
  expect(answers.some((text) => text.includes("from your network"))).toBe(true);

  // The admin, at another address behind the same proxy, is only asked to wait a little.
  const owner = "192.0.2.10";
  const told = await attempt(page, server.url, admin.email, admin.password, owner);
  if (told.includes("Too many")) {
    expect(told).toContain("for this account");
    const seconds = Number(/in (\d+) seconds/.exec(told)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
  }
  // Another client of the proxy trying another account is not touched by the attacker's count.
  expect(
    await attempt(page, server.url, "someone@throttle.test", "wrong-password-1234", "192.0.2.11"),
  ).toContain("The email or password is not right.");
});
