import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { accountAttributeLimits, groupLimits, isRole, type Role } from "@seed/model";
import type { Store } from "@seed/store";
import { APIError } from "better-auth/api";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { decodeJwt } from "jose";
import { recordSignIn, recordUserEvent } from "./audit";
import {
  attributesFromClaims,
  groupsFromClaims,
  type OidcSettings,
  oidcProviderId,
  roleFromClaims,
} from "./oidc-settings.mjs";

// Single sign-on through the provider of SEED_OIDC_* (oidc-settings.mjs), on better-auth's
// generic OAuth plugin: discovery, the authorization code with PKCE, state and nonce, the ID
// token's signature checked against the provider's JWKS (fetched again when its keys rotate), its
// issuer, audience and expiry. What is the app's own: the issuer must be exactly the configured
// one, the role comes from a claim, a password account is linked only through an email the
// provider says is verified, and every account made or changed by a sign-in is audited.

interface SignOnState {
  /** The role the provider's claims give this sign-in, or null to keep the account's. */
  role?: Role | null;
  /** The groups the provider's claim names, or null to keep the account's groups as they are. */
  groups?: string[] | null;
  /** The account's attributes from the claims, or null when none are configured. */
  attributes?: Record<string, string[]> | null;
  /** Set when this sign-in created the account. */
  createdUserId?: string;
}

/**
 * One state per request through better-auth's handler, read by the database hooks below. Kept on
 * the process, not the module: the auth instance (and its hooks) is made once per process by
 * whichever server bundle asks first, and each bundle has its own copy of this module.
 */
const processGlobal = globalThis as typeof globalThis & {
  __seedSignOnRequest?: AsyncLocalStorage<SignOnState>;
};
processGlobal.__seedSignOnRequest ??= new AsyncLocalStorage<SignOnState>();
const signOnRequest = processGlobal.__seedSignOnRequest;

/** Runs a request of better-auth's handler with room for what its sign-on learns. */
export function withSignOnState<T>(work: () => Promise<T>): Promise<T> {
  return signOnRequest.run({}, work);
}

interface ProviderDocument {
  issuer?: unknown;
  userinfo_endpoint?: unknown;
}

const documents = new Map<string, Promise<ProviderDocument>>();

/** The provider's discovery document, fetched once per start (again after a failure). */
function discoveryDocument(issuer: string): Promise<ProviderDocument> {
  let document = documents.get(issuer);
  if (!document) {
    const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
    document = fetch(url, { signal: AbortSignal.timeout(10_000) }).then(async (response) => {
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      return (await response.json()) as ProviderDocument;
    });
    document.catch(() => documents.delete(issuer));
    documents.set(issuer, document);
  }
  return document;
}

type Claims = Record<string, unknown>;

/**
 * The profile of a sign-in whose ID token better-auth has verified: its claims, with the
 * provider's userinfo when it answers for the same subject. Null refuses the sign-in.
 */
async function profileOf(
  settings: OidcSettings,
  tokens: { idToken?: string; accessToken?: string },
): Promise<GenericOAuthUserInfo | null> {
  if (!tokens.idToken) {
    console.error("[single sign-on] the provider sent no ID token; sign-in refused");
    return null;
  }
  let claims: Claims;
  try {
    claims = decodeJwt(tokens.idToken) as Claims;
  } catch {
    return null;
  }
  // better-auth checked the token against the issuer the discovery document names; the document
  // must be the configured issuer's own (OpenID Connect Discovery 1.0, section 4.3).
  if (claims.iss !== settings.issuer) {
    console.error(
      `[single sign-on] the ID token's issuer is not SEED_OIDC_ISSUER (${settings.issuer}); sign-in refused`,
    );
    return null;
  }
  let userInfo: Claims = {};
  const document = await discoveryDocument(settings.issuer).catch(() => null);
  const endpoint =
    typeof document?.userinfo_endpoint === "string" ? document.userinfo_endpoint : "";
  if (endpoint && tokens.accessToken) {
    const response = await fetch(endpoint, {
      headers: { Authorization: `Bearer ${tokens.accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    const body = response?.ok ? ((await response.json().catch(() => null)) as Claims | null) : null;
    // Userinfo for another subject is never mixed in (OpenID Connect Core 1.0, 5.3.2).
    if (body && body.sub === claims.sub) userInfo = body;
  }
  const profile: Claims = { ...userInfo, ...claims };
  const email = typeof profile.email === "string" ? profile.email : undefined;
  const name =
    [profile.name, profile.preferred_username, email].find(
      (value): value is string => typeof value === "string" && value.trim() !== "",
    ) ?? "";
  return {
    ...profile,
    id: String(claims.sub),
    email,
    name: name.slice(0, 100),
    // Only a provider's plain `true` (or "true") counts as a verified email.
    emailVerified: profile.email_verified === true || profile.email_verified === "true",
    image: typeof profile.picture === "string" ? profile.picture : undefined,
  };
}

/** better-auth's generic OAuth provider entry for the configured provider. */
export function oidcProviderConfig(settings: OidcSettings): GenericOAuthConfig {
  return {
    providerId: oidcProviderId,
    name: settings.name,
    discoveryUrl: `${settings.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
    // Without the provider's issuer and keys no ID token can be checked: the provider stays off.
    requireIdTokenVerification: true,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    ...(settings.clientSecret ? {} : { tokenEndpointAuth: { method: "none" as const } }),
    scopes: settings.scopes,
    pkce: true,
    getUserInfo: (tokens: { idToken?: string; accessToken?: string }) =>
      profileOf(settings, tokens),
    mapProfileToUser: (profile: GenericOAuthUserInfo) => {
      const state = signOnRequest.getStore();
      if (state) {
        state.role = roleFromClaims(settings, profile);
        state.groups = groupsFromClaims(settings, profile);
        state.attributes = attributesFromClaims(settings, profile);
      }
      return {};
    },
  };
}

type HookContext = { path?: string; context?: unknown; headers?: Headers } | null | undefined;

function isSignOnCallback(context: HookContext): boolean {
  const path = context?.path;
  return typeof path === "string" && (path === "/callback/:id" || path.startsWith("/callback/"));
}

interface InternalAdapter {
  findUserById(
    id: string,
  ): Promise<{ id: string; email: string; role?: unknown; banned?: unknown } | null>;
  updateUser(id: string, data: Record<string, unknown>): Promise<unknown>;
}

/**
 * Database hooks of a sign-on: a new account gets the role the claims give (else the default
 * role), an existing one takes the claims' role at each sign-in when a role claim is set, and
 * both are audited, as is linking the provider to an existing account.
 */
export function signOnHooks(
  settings: OidcSettings,
  store: Pick<Store, "passwordSignInRoles" | "syncSignOnGroups" | "syncSignOnAttributes">,
) {
  /**
   * Every session not made by the provider's callback comes from a password (with or without a
   * second factor): refused for a role an admin has limited to single sign-on. Checked as the
   * session is made, after the password, so it holds for every path that makes one.
   */
  async function refusePasswordSession(session: Record<string, unknown>, context: HookContext) {
    const adapter = internalAdapterOf(context);
    const user = adapter ? await adapter.findUserById(String(session.userId)) : null;
    if (!user) return;
    const allowed = await store.passwordSignInRoles();
    if (allowed.includes(user.role as Role)) return;
    throw new APIError("FORBIDDEN", {
      code: passwordSignInOffCode,
      message: `Sign in with ${settings.name}: password sign-in is off for your role.`,
    });
  }
  /** The account's groups from the claim, exactly; names the store cannot take are logged. */
  async function syncGroups(user: { id: string; email: string; role: Role }, names: string[]) {
    const { refused } = await store.syncSignOnGroups(user, names);
    if (refused.length > 0) {
      console.error(
        `[single sign-on] ${refused.length} group name(s) from ${settings.groupsClaim} not taken for ${user.email} (empty, over ${groupLimits.maxNameLength} characters, with control characters, or past the first ${groupLimits.maxFromSignOn}): ${refused
          .slice(0, 5)
          .map((name) => JSON.stringify(name.slice(0, 100)))
          .join(", ")}`,
      );
    }
  }
  return {
    userBeforeCreate(user: Record<string, unknown>, context: HookContext) {
      const state = signOnRequest.getStore();
      if (!state || !isSignOnCallback(context)) return undefined;
      return { data: { ...user, role: state.role ?? settings.defaultRole } };
    },
    async userAfterCreate(user: Record<string, unknown>, context: HookContext) {
      const state = signOnRequest.getStore();
      if (!state || !isSignOnCallback(context)) return;
      const id = String(user.id);
      const role = (user.role as Role | undefined) ?? settings.defaultRole;
      state.createdUserId = id;
      await recordUserEvent({ id, email: String(user.email), role }, "user.create-by-sign-on", id, {
        email: user.email,
        role,
        provider: settings.name,
      });
    },
    async accountAfterCreate(account: Record<string, unknown>, context: HookContext) {
      const state = signOnRequest.getStore();
      if (!state || !isSignOnCallback(context) || account.providerId !== oidcProviderId) return;
      const userId = String(account.userId);
      if (state.createdUserId === userId) return;
      const adapter = internalAdapterOf(context);
      const user = adapter ? await adapter.findUserById(userId) : null;
      if (!user) return;
      await recordUserEvent(
        { id: user.id, email: user.email, role: (user.role as Role) ?? settings.defaultRole },
        "user.link-sign-on",
        user.id,
        { email: user.email, provider: settings.name },
      );
    },
    /** A session the provider's callback began is a sign-in, audited like a password's. */
    async sessionAfterCreate(session: Record<string, unknown>, context: HookContext) {
      if (!isSignOnCallback(context)) return;
      const adapter = internalAdapterOf(context);
      const user = adapter ? await adapter.findUserById(String(session.userId)) : null;
      await recordSignIn(user, "single sign-on", context?.headers ?? new Headers());
    },
    async sessionBeforeCreate(session: Record<string, unknown>, context: HookContext) {
      if (!isSignOnCallback(context)) return refusePasswordSession(session, context);
      const state = signOnRequest.getStore();
      if (!state) return;
      const userId = String(session.userId);
      const adapter = internalAdapterOf(context);
      const user = adapter ? await adapter.findUserById(userId) : null;
      // A blocked account is refused by the admin plugin's own hook; it is left alone.
      if (!adapter || !user || user.banned === true) return;
      const role = state.role ?? (isRole(user.role) ? user.role : settings.defaultRole);
      if (state.groups) await syncGroups({ id: user.id, email: user.email, role }, state.groups);
      if (state.attributes) {
        const { refused } = await store.syncSignOnAttributes(
          { id: user.id, email: user.email, role },
          state.attributes,
        );
        if (refused.length > 0) {
          console.error(
            `[single sign-on] ${refused.length} attribute value(s) not taken for ${user.email} (past the first ${accountAttributeLimits.maxValues} or over ${accountAttributeLimits.maxValueLength} characters)`,
          );
        }
      }
      if (!state.role || state.createdUserId === userId || user.role === state.role) return;
      await adapter.updateUser(userId, { role: state.role });
      await recordUserEvent(
        { id: user.id, email: user.email, role: state.role },
        "user.role-from-sign-on",
        user.id,
        { role: state.role, previousRole: user.role ?? null, provider: settings.name },
      );
    },
  };
}

/** better-auth's refusal code when a role may not sign in with a password (login actions map it). */
export const passwordSignInOffCode = "PASSWORD_SIGN_IN_OFF";

function internalAdapterOf(context: HookContext): InternalAdapter | null {
  const inner = context?.context as { internalAdapter?: InternalAdapter } | undefined;
  return inner?.internalAdapter ?? null;
}
