import { expect, test } from "@playwright/test";
import {
  createBaseAuthOptions,
  isSecureBaseURL,
  sessionSettingsFromEnv,
  userRecordProblem,
} from "../../src/server/auth-options.mjs";

// The settings the auth instance is built from, checked as the README states them.

test("cookies are Secure exactly when BETTER_AUTH_URL is https, whatever NODE_ENV says", () => {
  for (const nodeEnv of ["production", "development", "test"]) {
    for (const [url, secure] of [
      ["https://charts.example.com", true],
      ["http://charts.example.com", false],
      [undefined, false],
    ] as const) {
      const env = { NODE_ENV: nodeEnv, ...(url ? { BETTER_AUTH_URL: url } : {}) };
      const options = createBaseAuthOptions({
        // The store is only passed through; nothing is opened.
        store: { authDatabase: { db: {}, type: "sqlite" } } as never,
        secret: "s".repeat(32),
        env: env as NodeJS.ProcessEnv,
      });
      expect(options.advanced.useSecureCookies, `${nodeEnv} ${url}`).toBe(secure);
      expect(isSecureBaseURL(url)).toBe(secure);
    }
  }
});

test("session lifetime and idle timeout are settings with checked values", () => {
  expect(sessionSettingsFromEnv({} as NodeJS.ProcessEnv)).toMatchObject({
    idleSeconds: 7 * 24 * 3600,
    maxSeconds: 30 * 24 * 3600,
  });
  const short = sessionSettingsFromEnv({
    SEED_SESSION_IDLE_MINUTES: "30",
    SEED_SESSION_MAX_HOURS: "12",
  } as unknown as NodeJS.ProcessEnv);
  expect(short).toEqual({ idleSeconds: 1800, maxSeconds: 12 * 3600, refreshSeconds: 450 });
  for (const bad of ["0", "-5", "1.5", "abc", "1e9", "99999999"]) {
    expect(() =>
      sessionSettingsFromEnv({ SEED_SESSION_IDLE_MINUTES: bad } as unknown as NodeJS.ProcessEnv),
    ).toThrow(/SEED_SESSION_IDLE_MINUTES must be a whole number/);
  }
});

test("a user record must hold exactly one known role and bounded fields, however it is written", () => {
  for (const role of ["admin", "editor", "viewer"]) {
    expect(userRecordProblem({ role, name: "Ada", email: "ada@example.com" })).toBeNull();
  }
  for (const role of ["viewer,admin", "Admin", "", "root", ["admin"], 1]) {
    expect(userRecordProblem({ role })).toMatch(/exactly one of admin, editor or viewer/);
  }
  expect(userRecordProblem({ name: "x".repeat(101) })).toMatch(/at most 100/);
  expect(userRecordProblem({ email: `${"x".repeat(250)}@example.com` })).toMatch(/at most 254/);
});
