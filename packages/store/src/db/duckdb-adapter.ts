import { DialectAdapterBase, type Kysely } from "kysely";

// The Kysely adapter of DuckDB, alone in its file so that dialect.ts can recognise a DuckDB
// executor (dialectOf) without loading DuckDB's native library (duckdb.ts loads it on open).

export class DuckDbAdapter extends DialectAdapterBase {
  override get supportsCreateIfNotExists(): boolean {
    return true;
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override get supportsReturning(): boolean {
    return true;
  }

  /**
   * DuckDB has no advisory locks (pg_advisory_xact_lock): one process owns a database file
   * (DuckDB locks the file itself), and Kysely runs migrations in one transaction, so there is
   * nothing else to lock out.
   */
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  override async acquireMigrationLock(_db: Kysely<any>): Promise<void> {}

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  override async releaseMigrationLock(_db: Kysely<any>): Promise<void> {}
}
