import "server-only";
import type { Store } from "@seed/store";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { nextCookies } from "better-auth/next-js";
import { admin } from "better-auth/plugins/admin";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { twoFactor } from "better-auth/plugins/two-factor";
import {
  adminPluginOptions,
  createBaseAuthOptions,
  loadAuthSecret,
  resolveDataDir,
  twoFactorPluginOptions,
} from "./auth-options.mjs";
import { oidcSettingsFromEnv } from "./oidc-settings.mjs";
import { oidcProviderConfig, signOnHooks } from "./sign-on";
import { getStore } from "./store";

function createAuth(store: Store, secret: string) {
  const base = createBaseAuthOptions({ store, secret });
  const oidc = oidcSettingsFromEnv();
  const hooks = oidc ? signOnHooks(oidc, store) : null;
  const checkUser = base.databaseHooks.user;
  return betterAuth({
    ...base,
    account: {
      accountLinking: {
        enabled: true,
        // A password account is linked to the provider only when the provider says the email is
        // verified (no provider is trusted without it), and only to the same email.
        trustedProviders: [],
        allowDifferentEmails: false,
        // Accounts an admin made have never had their email verified by this app; the
        // provider's verified email is what proves the person owns it.
        requireLocalEmailVerified: false,
      },
    },
    // A sign-on that fails comes back to the sign-in page with better-auth's error code.
    onAPIError: { errorURL: "/login" },
    databaseHooks: {
      user: {
        create: {
          before: async (user: Record<string, unknown>, context) => {
            await checkUser.create.before(user);
            return hooks?.userBeforeCreate(user, context);
          },
          after: async (user: Record<string, unknown>, context) => {
            await hooks?.userAfterCreate(user, context);
          },
        },
        update: checkUser.update,
      },
      account: {
        create: {
          after: async (account: Record<string, unknown>, context) => {
            await hooks?.accountAfterCreate(account, context);
          },
        },
      },
      session: {
        create: {
          before: async (session: Record<string, unknown>, context) => {
            await hooks?.sessionBeforeCreate(session, context);
          },
          after: async (session: Record<string, unknown>, context) => {
            await hooks?.sessionAfterCreate(session, context);
          },
        },
      },
    },
    // nextCookies last: it turns better-auth's Set-Cookie into Next cookies() calls in server actions.
    plugins: [
      admin(adminPluginOptions),
      twoFactor(twoFactorPluginOptions),
      genericOAuth({ config: oidc ? [oidcProviderConfig(oidc)] : [] }),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const processGlobal = globalThis as typeof globalThis & { __seedAuth?: Promise<Auth> };

async function startAuth(): Promise<Auth> {
  const store = await getStore();
  const secret = loadAuthSecret(resolveDataDir());
  const auth = createAuth(store, secret);
  // better-auth's CLI needs Node 22, so its tables are created here before the first request uses them.
  // Under the store's database-wide setup lock: instances starting together migrate once.
  await store.runExclusive(async () => {
    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();
  });
  return auth;
}

/** better-auth bound to the process's Store, with its tables migrated. */
export function getAuth(): Promise<Auth> {
  if (!processGlobal.__seedAuth) {
    const starting = startAuth();
    starting.catch(() => {
      if (processGlobal.__seedAuth === starting) processGlobal.__seedAuth = undefined;
    });
    processGlobal.__seedAuth = starting;
  }
  return processGlobal.__seedAuth;
}

/** A refusal from better-auth (bad credentials, banned, duplicate email...), told apart from a crash. */
export interface AuthRefusal {
  status: string;
  statusCode: number;
  /** better-auth's error code, e.g. "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", when it gives one. */
  code: string | null;
  message: string;
}

/**
 * Recognises better-auth's APIError by shape, not `instanceof`: the class exists once per server
 * bundle, so an error thrown by the auth instance of one bundle fails `instanceof` in another.
 */
export function asAuthRefusal(error: unknown): AuthRefusal | null {
  if (typeof error !== "object" || error === null) return null;
  const { name, status, statusCode, message, body } = error as Record<string, unknown>;
  if (name !== "APIError" || typeof status !== "string" || typeof statusCode !== "number") {
    return null;
  }
  if (statusCode < 400 || statusCode >= 500) return null;
  const code =
    typeof body === "object" &&
    body !== null &&
    typeof (body as { code?: unknown }).code === "string"
      ? (body as { code: string }).code
      : null;
  return { status, statusCode, code, message: typeof message === "string" ? message : "" };
}
