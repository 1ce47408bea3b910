import "server-only";
import type { Store } from "@seed/store";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { nextCookies } from "better-auth/next-js";
import { admin } from "better-auth/plugins/admin";
import {
  adminPluginOptions,
  createBaseAuthOptions,
  loadAuthSecret,
  resolveDataDir,
} from "./auth-options.mjs";
import { ensureSetupClaimTable } from "./first-admin";
import { getStore } from "./store";

function createAuth(store: Store, secret: string) {
  return betterAuth({
    ...createBaseAuthOptions({ store, secret }),
    // nextCookies last: it turns better-auth's Set-Cookie into Next cookies() calls in server actions.
    plugins: [admin(adminPluginOptions), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const processGlobal = globalThis as typeof globalThis & { __seedAuth?: Promise<Auth> };

async function startAuth(): Promise<Auth> {
  const store = await getStore();
  const secret = loadAuthSecret(resolveDataDir());
  const auth = createAuth(store, secret);
  // better-auth's CLI needs Node 22, so its tables are created here before the first request uses them.
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await ensureSetupClaimTable(store);
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
