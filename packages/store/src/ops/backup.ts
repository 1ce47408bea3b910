import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { rowsDataFileName } from "../db/data-file.js";
import { migrationTableName } from "../db/migrations.js";

const run = promisify(execFile);

/** Which database a backup reads or a restore writes: DATABASE_URL's PostgreSQL, else SQLite. */
export interface DatabaseLocation {
  /** postgres:// URL, or null for <dataDir>/seed.db. */
  databaseUrl: string | null;
  dataDir: string;
}

export interface BackupResult {
  engine: "sqlite" | "postgres";
  file: string;
  bytes: number;
}

export class BackupError extends Error {
  override name = "BackupError";
}

function sqliteFile(location: DatabaseLocation): string {
  return path.join(location.dataDir, "seed.db");
}

/**
 * A store whose dataset rows are in the DuckDB data file (SEED_DATASET_ENGINE=duckdb) needs both
 * files backed up together, which these commands do not do yet: refused rather than half done.
 */
function refuseDataFile(location: DatabaseLocation): void {
  const dataFile = path.join(location.dataDir, rowsDataFileName);
  if (existsSync(dataFile)) {
    throw new BackupError(
      `This store keeps dataset rows in ${dataFile} beside seed.db; db:backup and db:restore do not cover that file yet. Stop the app and copy the whole data folder instead.`,
    );
  }
}

/** pg tools get the URL without its password (visible to `ps`), and the password in PGPASSWORD. */
function postgresArgs(url: string): { connection: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    connection: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env },
  };
}

/**
 * A consistent copy of the whole database (store and sign-in tables) while the app runs:
 * SQLite's online backup API, or pg_dump's custom format. The file is made mode 0600.
 */
export async function backupDatabase(
  location: DatabaseLocation,
  file: string,
): Promise<BackupResult> {
  const target = path.resolve(file);
  if (existsSync(target)) throw new BackupError(`${target} exists; choose a new file name.`);
  if (location.databaseUrl) {
    const { connection, env } = postgresArgs(location.databaseUrl);
    await run("pg_dump", ["--format=custom", "--no-owner", "--file", target, connection], { env });
    chmodSync(target, 0o600);
    return { engine: "postgres", file: target, bytes: statSync(target).size };
  }
  const source = sqliteFile(location);
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}.`);
  refuseDataFile(location);
  const database = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
  try {
    await database.backup(target);
  } finally {
    database.close();
  }
  chmodSync(target, 0o600);
  return { engine: "sqlite", file: target, bytes: statSync(target).size };
}

function hasStoreTables(database: BetterSqlite3.Database): boolean {
  return (
    (
      database
        .prepare("select count(*) as n from sqlite_master where type = 'table' and name = ?")
        .get(migrationTableName) as { n: number }
    ).n > 0
  );
}

async function postgresHasStoreTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query("select to_regclass($1) is not null as present", [
      migrationTableName,
    ]);
    return result.rows[0]?.present === true;
  } finally {
    await client.end();
  }
}

/**
 * Puts a backup back. Refuses a target that already holds a store unless `replace`; the app must
 * be stopped. SQLite: the file is checked, copied beside the database and renamed over it, so an
 * interrupted restore leaves the old file. PostgreSQL: pg_restore in one transaction.
 */
export async function restoreDatabase(
  location: DatabaseLocation,
  file: string,
  options: { replace?: boolean } = {},
): Promise<{ engine: "sqlite" | "postgres" }> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`There is no backup at ${source}.`);
  if (location.databaseUrl) {
    if (!options.replace && (await postgresHasStoreTables(location.databaseUrl))) {
      throw new BackupError(
        "The target database already holds Seed Charts data; restore into an empty database, or pass --replace.",
      );
    }
    const { connection, env } = postgresArgs(location.databaseUrl);
    const args = ["--no-owner", "--single-transaction", "--exit-on-error", "--dbname", connection];
    if (options.replace) args.push("--clean", "--if-exists");
    try {
      await run("pg_restore", [...args, source], { env });
    } catch (error) {
      const detail = (error as { stderr?: string }).stderr?.trim() || String(error);
      throw new BackupError(`pg_restore refused the backup; nothing was changed: ${detail}`);
    }
    return { engine: "postgres" };
  }
  refuseDataFile(location);
  let backup: BetterSqlite3.Database;
  try {
    backup = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
    const ok =
      hasStoreTables(backup) && backup.pragma("integrity_check", { simple: true }) === "ok";
    backup.close();
    if (!ok) throw new Error("no store tables, or it fails SQLite's integrity check");
  } catch (error) {
    throw new BackupError(
      `${source} is not a Seed Charts SQLite backup (${error instanceof Error ? error.message : error}); nothing was changed.`,
    );
  }
  const target = sqliteFile(location);
  if (existsSync(target) && !options.replace) {
    throw new BackupError(`${target} exists; pass --replace to overwrite it (stop the app first).`);
  }
  mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
  const staging = `${target}.restoring`;
  copyFileSync(source, staging);
  chmodSync(staging, 0o600);
  for (const journal of [`${target}-wal`, `${target}-shm`]) rmSync(journal, { force: true });
  renameSync(staging, target);
  return { engine: "sqlite" };
}
