#!/usr/bin/env node
// Moves a SQLite install into an empty PostgreSQL database, then checks every table's row count
// and checksum and prints them. Usage (from the repository root):
//   pnpm db:migrate-to-postgres [--from <seed.db>] [--to <postgres url>]
// Defaults follow the app: SEED_DATA_DIR/seed.db (default apps/web/data) and DATABASE_URL.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  MigrationRefusedError,
  MigrationVerificationError,
  migrateSqliteToPostgres,
} from "@seed/store";
import { getMigrations } from "better-auth/db/migration";
import { createCliAuthOptions } from "../src/server/auth-options.mjs";

const appRoot = path.resolve(import.meta.dirname, "..");
const usage =
  "Usage: pnpm db:migrate-to-postgres [--from <seed.db>] [--to <postgres url>]\n" +
  "--from defaults to SEED_DATA_DIR/seed.db (SEED_DATA_DIR defaults to apps/web/data), --to to DATABASE_URL.\n" +
  "The target must be an empty database; stop the app first. The SQLite file is only read.";

/**
 * better-auth's own migrations with the app's auth options, on the migration's transaction: the
 * same path the app and create-admin take, so there is one auth schema.
 * @param {import("@seed/store").AnyKysely} db
 */
async function createAuthSchema(db) {
  // The tables do not depend on the secret; none is read or made, so the data folder is untouched.
  const secret = randomBytes(32).toString("base64url");
  const options = createCliAuthOptions({
    store: { authDatabase: { db, type: "postgres" } },
    secret,
    env: { ...process.env, BETTER_AUTH_URL: process.env.BETTER_AUTH_URL || "http://localhost" },
  });
  const { runMigrations } = await getMigrations(options);
  await runMigrations();
}

/** @param {string} url */
function withoutPassword(url) {
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}

/** @param {import("@seed/store").MigratedTable[]} tables */
function formatReport(tables) {
  const width = Math.max(5, ...tables.map((table) => table.table.length));
  const lines = [
    `${"table".padEnd(width)}  ${"sqlite rows".padStart(12)}  ${"postgres rows".padStart(13)}  checksum      result`,
  ];
  for (const table of tables) {
    const result = table.matches
      ? "ok"
      : `MISMATCH (postgres ${table.targetChecksum.slice(0, 12)})`;
    lines.push(
      `${table.table.padEnd(width)}  ${String(table.sourceRows).padStart(12)}  ${String(
        table.targetRows,
      ).padStart(13)}  ${table.sourceChecksum.slice(0, 12)}  ${result}`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      from: { type: "string" },
      to: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  // Relative paths are relative to where the command was typed (pnpm runs root scripts at the root).
  const typedIn = process.env.INIT_CWD || process.cwd();
  const dataDir = path.resolve(process.env.SEED_DATA_DIR || path.join(appRoot, "data"));
  const from = values.from ? path.resolve(typedIn, values.from) : path.join(dataDir, "seed.db");
  const to = (values.to ?? process.env.DATABASE_URL ?? "").trim();
  if (!to) {
    console.error(`No target: pass --to <postgres url> or set DATABASE_URL.\n${usage}`);
    return 2;
  }

  console.error(`Copying ${from} into ${withoutPassword(to)} ...`);
  let result;
  try {
    result = await migrateSqliteToPostgres({
      sqliteFile: from,
      postgresUrl: to,
      createAuthSchema,
      onTableCopied: (table, rows) => console.error(`  copied ${table} (${rows} rows)`),
    });
  } catch (error) {
    if (error instanceof MigrationVerificationError) console.error(formatReport(error.tables));
    if (error instanceof MigrationRefusedError) console.error(`Refused: ${error.message}`);
    else console.error(error instanceof Error ? error.message : error);
    return 1;
  }

  console.log(formatReport(result.tables));
  console.log(
    `All ${result.tables.length} tables match: the same row counts and checksums on both sides.`,
  );
  const advanced = result.sequences.filter((sequence) => sequence.next !== "1");
  if (advanced.length > 0) {
    console.log(
      `Sequences advanced past the copied ids: ${advanced
        .map((sequence) => `${sequence.table}.${sequence.column} -> ${sequence.next}`)
        .join(", ")}.`,
    );
  }
  const secretFile = path.join(path.dirname(from), "auth-secret");
  console.log(`Next: start the app with DATABASE_URL=${withoutPassword(to)}.`);
  if (process.env.BETTER_AUTH_SECRET) {
    console.log("Keep the same BETTER_AUTH_SECRET so signed-in users stay signed in.");
  } else if (existsSync(secretFile)) {
    console.log(
      `Sessions are signed with ${secretFile}: keep SEED_DATA_DIR pointing at that folder, or set BETTER_AUTH_SECRET to its content, so signed-in users stay signed in.`,
    );
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
