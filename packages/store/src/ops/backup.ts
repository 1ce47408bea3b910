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
import { sql } from "kysely";
import pg from "pg";
import { isDataFileOpenHere, rowsDataFileName } from "../db/data-file.js";
import { openDuckDbKysely } from "../db/duckdb.js";
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
  /** The DuckDB data file's copy beside it (`<file>.rows.duckdb`), when the store has one. */
  dataFile?: string;
}

export class BackupError extends Error {
  override name = "BackupError";
}

function sqliteFile(location: DatabaseLocation): string {
  return path.join(location.dataDir, "seed.db");
}

function dataFileOf(location: DatabaseLocation): string {
  return path.join(location.dataDir, rowsDataFileName);
}

/** Where a backup keeps the DuckDB data file: beside its SQLite file, `<file>.rows.duckdb`. */
export function dataFileBackupOf(file: string): string {
  return `${file}.rows.duckdb`;
}

/** Opens the data file alone; a running app holds DuckDB's lock on it, and is named. */
async function openDataFileAlone(file: string) {
  if (isDataFileOpenHere(file)) {
    throw new BackupError(
      `The DuckDB data file ${file} is open in this process (a store); close it first. Nothing was changed.`,
    );
  }
  try {
    return await openDuckDbKysely(file, { threads: 1, memoryLimit: "256MB" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/lock/i.test(reason)) {
      throw new BackupError(
        `The DuckDB data file ${file} is open in another process (the app?); stop the app first, then run this again. Nothing was changed.`,
      );
    }
    throw new BackupError(
      `${file} does not open as a DuckDB file (${reason}); nothing was changed.`,
    );
  }
}

/**
 * Copies the data file, whole and checkpointed (its write-ahead log folded in), to `target`. The
 * app must be stopped: DuckDB lets one process open the file, so the copy and the SQLite backup
 * taken with it are of one moment.
 */
async function copyDataFile(source: string, target: string): Promise<void> {
  const opened = await openDataFileAlone(source);
  try {
    await sql`checkpoint`.execute(opened.db);
  } finally {
    await opened.close();
  }
  copyFileSync(source, target);
  chmodSync(target, 0o600);
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
  // With the DuckDB data file: that file first (it wants the app stopped), then the SQLite file.
  const dataFile = dataFileOf(location);
  const dataCopy = dataFileBackupOf(target);
  if (existsSync(dataFile)) {
    if (existsSync(dataCopy)) throw new BackupError(`${dataCopy} exists; choose a new file name.`);
    await copyDataFile(dataFile, dataCopy);
  }
  const database = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
  try {
    await database.backup(target);
  } finally {
    database.close();
  }
  chmodSync(target, 0o600);
  return {
    engine: "sqlite",
    file: target,
    bytes: statSync(target).size,
    ...(existsSync(dataCopy) ? { dataFile: dataCopy } : {}),
  };
}

/** Whether the store in this SQLite file keeps some dataset's rows in a DuckDB data file. */
function keepsRowsInDataFile(database: BetterSqlite3.Database): boolean {
  const columns = database.prepare("select name from pragma_table_info('datasets')").all() as {
    name: string;
  }[];
  if (!columns.some((column) => column.name === "rows_generation")) return false;
  return (
    database.prepare("select 1 from datasets where rows_generation > 0 limit 1").get() !== undefined
  );
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
  let backup: BetterSqlite3.Database;
  let rowsInDataFile = false;
  try {
    backup = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
    const ok =
      hasStoreTables(backup) && backup.pragma("integrity_check", { simple: true }) === "ok";
    rowsInDataFile = ok && keepsRowsInDataFile(backup);
    backup.close();
    if (!ok) throw new Error("no store tables, or it fails SQLite's integrity check");
  } catch (error) {
    throw new BackupError(
      `${source} is not a Seed Charts SQLite backup (${error instanceof Error ? error.message : error}); nothing was changed.`,
    );
  }
  const sourceRows = dataFileBackupOf(source);
  if (rowsInDataFile && !existsSync(sourceRows)) {
    throw new BackupError(
      `${source} keeps dataset rows in a DuckDB data file, and its copy ${sourceRows} is missing; nothing was changed.`,
    );
  }
  const target = sqliteFile(location);
  if (existsSync(target) && !options.replace) {
    throw new BackupError(`${target} exists; pass --replace to overwrite it (stop the app first).`);
  }
  const targetRows = dataFileOf(location);
  if (existsSync(targetRows)) {
    // The app must be stopped: its DuckDB lock on the file says whether it is running.
    const held = await openDataFileAlone(targetRows);
    await held.close();
  }
  if (existsSync(sourceRows)) {
    // The copy must open, as a DuckDB file, before anything is replaced.
    const check = await openDataFileAlone(sourceRows);
    await check.close();
  }
  mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
  // Both files are staged beside their targets, then renamed over them one after the other.
  const staging = `${target}.restoring`;
  copyFileSync(source, staging);
  chmodSync(staging, 0o600);
  const rowsStaging = `${targetRows}.restoring`;
  if (existsSync(sourceRows)) {
    copyFileSync(sourceRows, rowsStaging);
    chmodSync(rowsStaging, 0o600);
  }
  for (const journal of [`${target}-wal`, `${target}-shm`, `${targetRows}.wal`]) {
    rmSync(journal, { force: true });
  }
  if (existsSync(rowsStaging)) renameSync(rowsStaging, targetRows);
  // A backup without a data file keeps its rows in SQLite: an old data file would only be clutter.
  else rmSync(targetRows, { force: true });
  renameSync(staging, target);
  return { engine: "sqlite" };
}
