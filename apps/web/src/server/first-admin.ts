import "server-only";
import { getAuth } from "./auth-instance";
import { getStore } from "./store";

export async function countUsers(): Promise<number> {
  const context = await (await getAuth()).$context;
  return context.internalAdapter.countTotalUsers();
}

/**
 * Takes the one-time right to create the first admin (atomic across requests and instances, see
 * the store's setup_claim); false once any user exists, the CLI's included.
 */
export async function claimFirstAdmin(): Promise<boolean> {
  const store = await getStore();
  if (!(await store.claimFirstAdmin())) return false;
  if ((await countUsers()) > 0) return false;
  return true;
}

/** Gives the claim back when creating the admin failed, so setup can be tried again. */
export async function releaseFirstAdminClaim(): Promise<void> {
  await (await getStore()).releaseFirstAdminClaim();
}

export async function isSetupTokenValid(token: string): Promise<boolean> {
  return (await getStore()).isSetupTokenValid(token);
}

export async function endSetup(): Promise<void> {
  await (await getStore()).endSetup();
}

/**
 * At server start, while no user exists: a fresh one-time setup token, printed to the log. Only
 * whoever can read the server's log can make the first admin through /setup.
 */
export async function announceSetupToken(log: (line: string) => void = console.log): Promise<void> {
  if ((await countUsers()) > 0) return;
  const token = await (await getStore()).createSetupToken();
  log(
    [
      "",
      "Seed Charts has no users yet. Open /setup and enter this one-time setup token:",
      `  setup token: ${token}`,
      "It works for 24 hours, until the first admin exists. (Or run `pnpm --filter @seed/web create-admin`.)",
      "",
    ].join("\n"),
  );
}
