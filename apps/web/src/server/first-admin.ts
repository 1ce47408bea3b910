import "server-only";
import type { Store } from "@seed/store";
import { getAuth } from "./auth-instance";
import { getStore } from "./store";

const claimTable = "seed_web_setup_claim";
const claimId = "first-admin";
// A claim whose creator died before making the user would block setup forever without this.
const staleClaimMs = 10 * 60 * 1000;

type ClaimDatabase = { [claimTable]: { id: string; claimed_at: string } };

function claims(store: Store) {
  return store.db.withTables<ClaimDatabase>();
}

export async function ensureSetupClaimTable(store: Store): Promise<void> {
  await store.db.schema
    .createTable(claimTable)
    .ifNotExists()
    .addColumn("id", "varchar(64)", (column) => column.primaryKey())
    .addColumn("claimed_at", "varchar(40)", (column) => column.notNull())
    .execute();
}

export async function countUsers(): Promise<number> {
  const context = await (await getAuth()).$context;
  return context.internalAdapter.countTotalUsers();
}

function isConstraintViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const code = String((error as { code: unknown }).code);
  return code.startsWith("SQLITE_CONSTRAINT") || code === "23505";
}

/**
 * Takes the one-time right to create the first admin. The primary key makes this atomic across
 * requests and processes: of two racing callers exactly one gets true.
 */
export async function claimFirstAdmin(now = new Date()): Promise<boolean> {
  const store = await getStore();
  await claims(store)
    .deleteFrom(claimTable)
    .where("id", "=", claimId)
    .where("claimed_at", "<", new Date(now.getTime() - staleClaimMs).toISOString())
    .execute();
  try {
    await claims(store)
      .insertInto(claimTable)
      .values({ id: claimId, claimed_at: now.toISOString() })
      .execute();
  } catch (error) {
    if (isConstraintViolation(error)) return false;
    throw error;
  }
  // A user made by the CLI in between also ends setup.
  if ((await countUsers()) > 0) return false;
  return true;
}

/** Gives the claim back when creating the admin failed, so setup can be tried again. */
export async function releaseFirstAdminClaim(): Promise<void> {
  const store = await getStore();
  await claims(store).deleteFrom(claimTable).where("id", "=", claimId).execute();
}
