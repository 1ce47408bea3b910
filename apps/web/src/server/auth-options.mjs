// @ts-check
// Plain ESM so the Next app and scripts/create-admin.mjs (run by bare Node) share one auth setup.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { can, isRole, roles } from "@seed/model";
import { APIError } from "better-auth/api";
import { createAccessControl } from "better-auth/plugins/access";
import { admin } from "better-auth/plugins/admin";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { twoFactor } from "better-auth/plugins/two-factor";
import { allowedOrigins, configuredOrigins, configuredPublicOrigin } from "../lib/same-origin.mjs";
import { maxPasswordLength, minPasswordLength } from "./password-policy.mjs";

export const accessControl = createAccessControl(defaultStatements);

// better-auth knows each role only for its user endpoints: allowed exactly where @seed/model's table says users.manage.
export const accessRoles = Object.fromEntries(
  roles.map((role) => [
    role,
    accessControl.newRole(can(role, "users.manage") ? adminAc.statements : {}),
  ]),
);

/** @param {NodeJS.ProcessEnv} [env] */
export function resolveDataDir(env = process.env) {
  // The data folder is chosen at run time, so the bundler must not trace it.
  return path.resolve(
    /*turbopackIgnore: true*/ env.SEED_DATA_DIR || path.join(process.cwd(), "data"),
  );
}

/**
 * BETTER_AUTH_SECRET wins; otherwise a random secret is made once and kept (mode 0600) in the data folder.
 * @param {string} dataDir
 * @param {NodeJS.ProcessEnv} [env]
 */
export function loadAuthSecret(dataDir, env = process.env) {
  const fromEnv = env.BETTER_AUTH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32)
      throw new Error("BETTER_AUTH_SECRET must be at least 32 characters long.");
    return fromEnv;
  }
  const file = path.join(dataDir, "auth-secret");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // EEXIST: another process or an earlier start made it first, and that one is kept.
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`The secret in ${file} is too short; delete the file.`);
  return secret;
}

/**
 * The origins better-auth trusts: the same rule as every other origin check
 * (src/lib/same-origin.mjs). The configured public address(es) when set; on a default start, per
 * request, the origin that request was made to.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string[] | ((request?: Request) => string[])}
 */
export function trustedOriginsFromEnv(env = process.env) {
  if (configuredPublicOrigin(env) !== null) return configuredOrigins(env);
  return (request) => (request ? allowedOrigins(env, request.headers) : configuredOrigins(env));
}

/**
 * better-auth's log lines go to the console as before, except its "Base URL is not set" warning
 * on a default start: there, deriving the origin from the request is this app's documented rule
 * (src/lib/same-origin.mjs, the README's BETTER_AUTH_URL), not a mistake, and every origin check
 * (better-auth's too, through trustedOrigins above) follows that rule.
 * @param {NodeJS.ProcessEnv} env
 * @returns {import("better-auth").BetterAuthOptions["logger"]}
 */
export function authLogger(env = process.env) {
  const configured = configuredPublicOrigin(env) !== null;
  return {
    log(level, message, ...args) {
      if (!configured && level === "warn" && message.includes("Base URL is not set")) return;
      const line = `[better-auth] ${message.replace(/^\[better-auth\]\s*/, "")}`;
      if (level === "error") console.error(line, ...args);
      else if (level === "warn") console.warn(line, ...args);
      else console.log(line, ...args);
    },
  };
}

export const adminPluginOptions = {
  ac: accessControl,
  roles: accessRoles,
  defaultRole: "viewer",
  adminRoles: roles.filter((role) => can(role, "users.manage")),
};

/**
 * Two-factor sign-in: an authenticator app's codes (TOTP, 6 digits, 30 s) and ten recovery codes,
 * both kept encrypted with the auth secret. A sign-in challenge allows 5 wrong codes and lasts
 * 10 minutes; 10 wrong codes in a row lock the account's second step for 15 minutes
 * (better-auth's defaults, stated here so they are the app's).
 */
export const twoFactorPluginOptions = {
  issuer: "Seed Charts",
  totpOptions: { digits: /** @type {const} */ (6), period: 30 },
  backupCodeOptions: {
    amount: 10,
    length: 10,
    storeBackupCodes: /** @type {const} */ ("encrypted"),
  },
  twoFactorCookieMaxAge: 600,
  accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 900 },
};

/**
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 * @param {number} fallback
 * @param {number} max
 */
function positiveIntegerSetting(env, name, fallback, max) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}; it is "${raw}".`);
  }
  return value;
}

/**
 * Session lifetime settings. A session ends after SEED_SESSION_IDLE_MINUTES without use, and in any
 * case SEED_SESSION_MAX_HOURS after sign-in.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function sessionSettingsFromEnv(env = process.env) {
  const idleMinutes = positiveIntegerSetting(
    env,
    "SEED_SESSION_IDLE_MINUTES",
    7 * 24 * 60,
    365 * 24 * 60,
  );
  const maxHours = positiveIntegerSetting(env, "SEED_SESSION_MAX_HOURS", 30 * 24, 365 * 24);
  const idleSeconds = idleMinutes * 60;
  return {
    idleSeconds,
    maxSeconds: Math.max(maxHours * 3600, 60),
    // The expiry slides forward when a session is used and this much of it has passed.
    refreshSeconds: Math.max(60, Math.min(24 * 3600, Math.floor(idleSeconds / 4))),
  };
}

/** Most characters in a user's name and email, whichever way the user is written. */
export const userFieldLimits = { name: 100, email: 254 };

/**
 * Refuses a user record that breaks the app's rules, whichever path writes it: exactly one known
 * role, bounded name and email.
 * @param {Record<string, unknown>} user
 */
export function userRecordProblem(user) {
  if ("role" in user && user.role !== undefined && !isRole(user.role)) {
    return "The role must be exactly one of admin, editor or viewer.";
  }
  if (typeof user.name === "string" && user.name.length > userFieldLimits.name) {
    return `The name may have at most ${userFieldLimits.name} characters.`;
  }
  if (typeof user.email === "string" && user.email.length > userFieldLimits.email) {
    return `The email may have at most ${userFieldLimits.email} characters.`;
  }
  return null;
}

/** @param {Record<string, unknown>} user */
function checkUserRecord(user) {
  const problem = userRecordProblem(user);
  if (problem) throw new APIError("BAD_REQUEST", { message: problem });
}

/**
 * Only the store's auth database is used (db:migrate-to-postgres passes its transaction's).
 * @typedef {{ store: Pick<import("@seed/store").Store, "authDatabase">; secret: string; env?: NodeJS.ProcessEnv }} AuthSetup
 */

/**
 * Everything but the plugin list, which each caller sets so its types stay exact.
 * @param {AuthSetup} input
 */
export function createBaseAuthOptions({ store, secret, env = process.env }) {
  // The public address: BETTER_AUTH_URL, the one setting every origin check, cookie and link reads.
  const baseURL = env.BETTER_AUTH_URL?.trim() || undefined;
  const session = sessionSettingsFromEnv(env);
  return {
    appName: "Seed Charts",
    baseURL,
    logger: authLogger(env),
    secret,
    database: store.authDatabase,
    trustedOrigins: trustedOriginsFromEnv(env),
    emailAndPassword: {
      enabled: true,
      // Accounts are made by an admin, the setup page or the CLI, never by self sign-up.
      disableSignUp: true,
      minPasswordLength,
      maxPasswordLength,
    },
    session: {
      expiresIn: session.idleSeconds,
      updateAge: session.refreshSeconds,
    },
    user: {
      // better-auth's own update-user endpoint is closed (route.ts); nothing else changes emails.
      changeEmail: { enabled: false },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (/** @type {Record<string, unknown>} */ user) => checkUserRecord(user),
        },
        update: {
          before: async (/** @type {Record<string, unknown>} */ user) => checkUserRecord(user),
        },
      },
    },
    advanced: {
      // Secure exactly when the configured public URL is https (see the README's BETTER_AUTH_URL).
      useSecureCookies: isSecureBaseURL(baseURL),
      defaultCookieAttributes: {
        sameSite: /** @type {const} */ ("lax"),
        httpOnly: true,
        path: "/",
      },
    },
    telemetry: { enabled: false },
  };
}

/**
 * Whether auth cookies are Secure: decided by BETTER_AUTH_URL alone, never by NODE_ENV.
 * @param {string | undefined} baseURL
 */
export function isSecureBaseURL(baseURL) {
  return baseURL?.startsWith("https://") === true;
}

/** @param {AuthSetup} input */
export function createCliAuthOptions(input) {
  return {
    ...createBaseAuthOptions(input),
    plugins: [admin(adminPluginOptions), twoFactor(twoFactorPluginOptions)],
  };
}
