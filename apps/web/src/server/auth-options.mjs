// @ts-check
// Plain ESM so the Next app and scripts/create-admin.mjs (run by bare Node) share one auth setup.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAccessControl } from "better-auth/plugins/access";
import { admin } from "better-auth/plugins/admin";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";

/** @typedef {"admin" | "editor" | "viewer"} Role */

/** @type {readonly Role[]} */
export const roles = ["admin", "editor", "viewer"];

/** @param {unknown} value @returns {value is Role} */
export function isRole(value) {
  return typeof value === "string" && /** @type {readonly string[]} */ (roles).includes(value);
}

export const accessControl = createAccessControl({
  ...defaultStatements,
  dataset: ["read", "write"],
  chart: ["read", "write"],
  dashboard: ["read", "write"],
  audit: ["read"],
});

const contentAll = /** @type {const} */ ({
  dataset: ["read", "write"],
  chart: ["read", "write"],
  dashboard: ["read", "write"],
  audit: ["read"],
});

// admin: everything incl. users; editor: content; viewer: reads only.
export const accessRoles = {
  admin: accessControl.newRole({ ...adminAc.statements, ...contentAll }),
  editor: accessControl.newRole(contentAll),
  viewer: accessControl.newRole({
    dataset: ["read"],
    chart: ["read"],
    dashboard: ["read"],
    audit: ["read"],
  }),
};

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
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string[]}
 */
export function trustedOriginsFromEnv(env = process.env) {
  const origins = (env.BETTER_AUTH_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (env.BETTER_AUTH_URL) origins.push(new URL(env.BETTER_AUTH_URL).origin);
  return [...new Set(origins)];
}

export const adminPluginOptions = {
  ac: accessControl,
  roles: accessRoles,
  defaultRole: "viewer",
  adminRoles: ["admin"],
};

/**
 * @typedef {{ store: import("@seed/store").Store; secret: string; env?: NodeJS.ProcessEnv }} AuthSetup
 */

/**
 * Everything but the plugin list, which each caller sets so its types stay exact.
 * @param {AuthSetup} input
 */
export function createBaseAuthOptions({ store, secret, env = process.env }) {
  const baseURL = env.BETTER_AUTH_URL || undefined;
  return {
    appName: "Seed Charts",
    baseURL,
    secret,
    database: store.authDatabase,
    trustedOrigins: trustedOriginsFromEnv(env),
    emailAndPassword: {
      enabled: true,
      // Accounts are made by an admin, the setup page or the CLI, never by self sign-up.
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 128,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      // Secure follows BETTER_AUTH_URL when set; otherwise better-auth follows the request protocol.
      useSecureCookies: baseURL ? baseURL.startsWith("https://") : undefined,
      defaultCookieAttributes: {
        sameSite: /** @type {const} */ ("lax"),
        httpOnly: true,
        path: "/",
      },
    },
    telemetry: { enabled: false },
  };
}

/** @param {AuthSetup} input */
export function createCliAuthOptions(input) {
  return { ...createBaseAuthOptions(input), plugins: [admin(adminPluginOptions)] };
}
