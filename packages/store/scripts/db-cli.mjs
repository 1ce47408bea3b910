#!/usr/bin/env node
// pnpm db:backup <file> / pnpm db:restore <file> [--replace]: the whole database (store and
// sign-in tables) of the web app, on SQLite or PostgreSQL, read from the same environment as the
// app: DATABASE_URL, else SEED_DATA_DIR (default apps/web/data).
import path from "node:path";
import { parseArgs } from "node:util";
import { backupDatabase, restoreDatabase } from "../dist/index.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const usage =
  "Usage: pnpm db:backup <file> | pnpm db:restore <file> [--replace]\n" +
  "Reads DATABASE_URL (PostgreSQL) or SEED_DATA_DIR (SQLite; default apps/web/data).\n" +
  "Restore wants the app stopped and an empty target, unless --replace.";

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { replace: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  const [command, file] = positionals;
  if (values.help || !file || (command !== "backup" && command !== "restore")) {
    console.log(usage);
    return values.help ? 0 : 2;
  }
  const location = {
    databaseUrl: process.env.DATABASE_URL?.trim() || null,
    dataDir: path.resolve(process.env.SEED_DATA_DIR || path.join(repoRoot, "apps/web/data")),
  };
  // Relative to where the command was typed (pnpm runs root scripts from the repository root).
  const target = path.resolve(process.env.INIT_CWD || process.cwd(), file);
  if (command === "backup") {
    const result = await backupDatabase(location, target);
    console.log(
      `Backed up the ${result.engine} database to ${result.file} (${result.bytes} bytes)${
        result.dataFile ? `, and its DuckDB data file to ${result.dataFile}` : ""
      }.`,
    );
  } else {
    const result = await restoreDatabase(location, target, { replace: values.replace === true });
    console.log(`Restored the ${result.engine} database from ${target}.`);
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
