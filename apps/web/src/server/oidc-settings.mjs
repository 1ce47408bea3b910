// @ts-check
// Single sign-on through one OpenID Connect provider, configured by environment variables alone
// (the README's "Single sign-on" guide). Plain ESM beside auth-options.mjs; read once per start.
import {
  accountAttributeLimits,
  attributeNamePattern,
  highestRole,
  isRole,
  roles,
} from "@seed/model";

/** The provider's id in better-auth: its callback is /api/auth/callback/oidc. */
export const oidcProviderId = "oidc";

/** The path the provider sends people back to; register `${BETTER_AUTH_URL}${oidcCallbackPath}`. */
export const oidcCallbackPath = `/api/auth/callback/${oidcProviderId}`;

/**
 * @typedef {{
 *   issuer: string;
 *   clientId: string;
 *   clientSecret: string | undefined;
 *   name: string;
 *   scopes: string[];
 *   defaultRole: import("@seed/model").Role;
 *   roleClaim: string | undefined;
 *   roleMap: ReadonlyArray<readonly [string, import("@seed/model").Role]>;
 *   groupsClaim: string | undefined;
 *   attributeClaims: ReadonlyArray<readonly [string, string]>;
 * }} OidcSettings
 */

const limits = { name: 40, value: 2048, scopes: 20, mappings: 50 };

/**
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {string} name
 */
function text(env, name) {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw.length > limits.value)
    throw new Error(`${name} is longer than ${limits.value} characters.`);
  return raw;
}

/**
 * The issuer as its discovery document must name it: an absolute https URL (http only on this
 * machine's loopback, for trying it out), no query or fragment, kept exactly as written.
 * @param {string} raw
 */
function issuerUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SEED_OIDC_ISSUER must be the provider's issuer URL; "${raw}" is not a URL.`);
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new Error(
      `SEED_OIDC_ISSUER must start with https:// (http:// only for localhost); it is "${raw}".`,
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error("SEED_OIDC_ISSUER must have no query, fragment or credentials.");
  }
  return raw;
}

/**
 * "group=role" pairs separated by commas, e.g. "seed-admins=admin,seed-editors=editor".
 * @param {string} raw
 */
function roleMapping(raw) {
  const pairs = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (pairs.length > limits.mappings) {
    throw new Error(`SEED_OIDC_ROLE_MAP may have at most ${limits.mappings} entries.`);
  }
  return pairs.map((pair) => {
    const at = pair.lastIndexOf("=");
    const value = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !value || !isRole(role)) {
      throw new Error(
        `SEED_OIDC_ROLE_MAP entries are value=role with a role of ${roles.join(", ")}; "${pair}" is not.`,
      );
    }
    return /** @type {const} */ ([value, role]);
  });
}

/**
 * Account attributes row limits may compare with: "name" (the claim of that name) or
 * "name=claim.path", separated by commas, e.g. "region,department=org.department".
 * @param {string} raw
 */
function attributeMapping(raw) {
  const entries = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (entries.length > accountAttributeLimits.maxAttributes) {
    throw new Error(
      `SEED_OIDC_ATTRIBUTE_CLAIMS may name at most ${accountAttributeLimits.maxAttributes} attributes.`,
    );
  }
  const names = new Set();
  return entries.map((entry) => {
    const at = entry.indexOf("=");
    const name = (at < 0 ? entry : entry.slice(0, at)).trim();
    const path = (at < 0 ? entry : entry.slice(at + 1)).trim();
    if (!attributeNamePattern.test(name) || !path || names.has(name)) {
      throw new Error(
        `SEED_OIDC_ATTRIBUTE_CLAIMS entries are name or name=claim, each name once, in lower-case letters, digits and _; "${entry}" is not.`,
      );
    }
    names.add(name);
    return /** @type {const} */ ([name, path]);
  });
}

/**
 * The single sign-on settings, or null when SEED_OIDC_ISSUER is unset. A setting that is wrong
 * stops the start with a message naming it (as every other setting does), never a silent default.
 * @param {Readonly<Record<string, string | undefined>>} [env]
 * @returns {OidcSettings | null}
 */
export function oidcSettingsFromEnv(env = process.env) {
  const rawIssuer = text(env, "SEED_OIDC_ISSUER");
  if (!rawIssuer) return null;
  const issuer = issuerUrl(rawIssuer);
  const clientId = text(env, "SEED_OIDC_CLIENT_ID");
  if (!clientId) throw new Error("SEED_OIDC_CLIENT_ID is required when SEED_OIDC_ISSUER is set.");
  const name = text(env, "SEED_OIDC_NAME") ?? "single sign-on";
  if (name.length > limits.name) {
    throw new Error(`SEED_OIDC_NAME may have at most ${limits.name} characters.`);
  }
  const scopes = (text(env, "SEED_OIDC_SCOPES") ?? "openid email profile")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!scopes.includes("openid")) scopes.unshift("openid");
  if (scopes.length > limits.scopes) {
    throw new Error(`SEED_OIDC_SCOPES may name at most ${limits.scopes} scopes.`);
  }
  const defaultRole = text(env, "SEED_OIDC_DEFAULT_ROLE") ?? "viewer";
  if (!isRole(defaultRole)) {
    throw new Error(
      `SEED_OIDC_DEFAULT_ROLE must be one of ${roles.join(", ")}; it is "${defaultRole}".`,
    );
  }
  const roleClaim = text(env, "SEED_OIDC_ROLE_CLAIM");
  const rawMap = text(env, "SEED_OIDC_ROLE_MAP");
  if (roleClaim && !rawMap) {
    throw new Error("SEED_OIDC_ROLE_MAP is required when SEED_OIDC_ROLE_CLAIM is set.");
  }
  if (rawMap && !roleClaim) {
    throw new Error("SEED_OIDC_ROLE_CLAIM is required when SEED_OIDC_ROLE_MAP is set.");
  }
  return {
    issuer,
    clientId,
    clientSecret: text(env, "SEED_OIDC_CLIENT_SECRET"),
    name,
    scopes,
    defaultRole,
    roleClaim,
    roleMap: rawMap ? roleMapping(rawMap) : [],
    groupsClaim: text(env, "SEED_OIDC_GROUPS_CLAIM"),
    attributeClaims: attributeMapping(text(env, "SEED_OIDC_ATTRIBUTE_CLAIMS") ?? ""),
  };
}

/**
 * The claim's values at a dotted path ("groups", "realm_access.roles"): a string or an array of
 * strings; anything else counts as none.
 * @param {Record<string, unknown>} claims
 * @param {string} path
 * @returns {string[]}
 */
export function claimValues(claims, path) {
  /** @type {unknown} */
  let value = claims;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
    value = Object.hasOwn(value, key)
      ? /** @type {Record<string, unknown>} */ (value)[key]
      : undefined;
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item) => typeof item === "string");
  return [];
}

/**
 * The role a sign-in gives, from the provider's claims: the highest role whose value the role
 * claim holds, else the default role. Without a role claim configured, null: the account keeps
 * the role it has (a new one gets the default).
 * @param {OidcSettings} settings
 * @param {Record<string, unknown>} claims
 * @returns {import("@seed/model").Role | null}
 */
export function roleFromClaims(settings, claims) {
  if (!settings.roleClaim) return null;
  const held = new Set(claimValues(claims, settings.roleClaim));
  const mapped = settings.roleMap.filter(([value]) => held.has(value)).map(([, role]) => role);
  return highestRole(mapped) ?? settings.defaultRole;
}

/**
 * The groups a sign-in puts the account in, from the provider's claims: the groups claim's
 * values, exactly (none when the claim is absent). Without a groups claim configured, null: the
 * account's groups are left as they are.
 * @param {OidcSettings} settings
 * @param {Record<string, unknown>} claims
 * @returns {string[] | null}
 */
export function groupsFromClaims(settings, claims) {
  if (!settings.groupsClaim) return null;
  return claimValues(claims, settings.groupsClaim);
}

/**
 * The account's attributes from the claims SEED_OIDC_ATTRIBUTE_CLAIMS names (each a list of
 * text values; a claim not given is an attribute with none), or null when it names none.
 * @param {OidcSettings} settings
 * @param {Record<string, unknown>} claims
 * @returns {Record<string, string[]> | null}
 */
export function attributesFromClaims(settings, claims) {
  if (settings.attributeClaims.length === 0) return null;
  return Object.fromEntries(
    settings.attributeClaims.map(([name, path]) => [name, claimValues(claims, path)]),
  );
}

/**
 * What an admin may see of the settings: everything but the client secret, which is only said to
 * be set or not.
 * @param {OidcSettings} settings
 */
export function describeOidcSettings(settings) {
  return {
    name: settings.name,
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret ? "set" : "not set (a public client)",
    scopes: settings.scopes.join(" "),
    defaultRole: settings.defaultRole,
    roleClaim: settings.roleClaim ?? "none: roles are set by admins",
    roleMap: settings.roleMap.map(([value, role]) => `${value} → ${role}`).join(", ") || "none",
    groupsClaim: settings.groupsClaim ?? "none: groups are set by admins",
    attributeClaims:
      settings.attributeClaims
        .map(([name, path]) => (name === path ? name : `${name} (from ${path})`))
        .join(", ") || "none",
    callbackPath: oidcCallbackPath,
  };
}
