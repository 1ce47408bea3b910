import { type Page, test } from "@playwright/test";
import {
  createLiveSourceDatabase,
  type LiveSourceDatabase,
} from "../../../scripts/throwaway-live-source.mjs";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../../../scripts/throwaway-postgres.mjs";

/**
 * A PostgreSQL database a live source can read, for the tests of one file: in the PostgreSQL
 * run's cluster when there is one, else in a cluster of the file's own; dropped after the file.
 * Call at the top of a spec file; the database is there from its first test on.
 */
export function useLiveSourceDatabase(prefix: string): () => LiveSourceDatabase {
  let cluster: ThrowawayPostgres | null = null;
  let remote: LiveSourceDatabase | undefined;
  test.beforeAll(() => {
    const adminUrl = process.env.SEED_E2E_PG_ADMIN_URL;
    if (!adminUrl) cluster = startThrowawayPostgres({ prefix });
    remote = createLiveSourceDatabase(adminUrl ?? (cluster as ThrowawayPostgres).url);
  });
  test.afterAll(() => {
    remote?.drop();
    cluster?.stop();
  });
  return () => {
    if (!remote) throw new Error("The live source database starts in beforeAll.");
    return remote;
  };
}

/** The new-source form filled in for `remote` (its password unless another is given). */
export async function fillSourceForm(
  page: Page,
  remote: LiveSourceDatabase,
  name: string,
  password = remote.password,
) {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Host").fill(remote.host);
  await page.getByLabel("Port").fill(String(remote.port));
  await page.getByLabel("Database").fill(remote.database);
  await page.getByLabel("User (a read-only role)").fill(remote.user);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("SSL").selectOption("disable");
}
