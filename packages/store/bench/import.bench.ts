// Import of a 1,000,000-row, 5-column CSV through the store, next to each engine's own bulk load
// of the same file (sqlite3 .import, psql \copy = COPY FROM). Prints times and the ratio; the
// target (store within 3x of the engine) is checked here, never in tests.
// Run: pnpm --filter @seed/store bench bench/import.bench.ts   (SEED_BENCH_ROWS to change size)
import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, bench, describe, inject } from "vitest";
import { openStore } from "../src/index.js";

const rows = Number(process.env.SEED_BENCH_ROWS ?? 1_000_000);
const actor = { id: "bench", email: "bench@example.com" };
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const dir = mkdtempSync(path.join(tmpdir(), "seed-import-bench-"));
const csvFile = path.join(dir, "rows.csv");
const seconds: Record<string, number> = {};

/** Random-walk numbers, skewed categories (Zipf-like), consecutive dates; a fixed seed. */
function writeCsv() {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const regions = ["North", "South", "East", "West", "Central", "Islands", "Overseas", "Online"];
  const parts = ["day,region,revenue,orders,price\n"];
  let revenue = 1_000;
  let price = 20;
  for (let index = 0; index < rows; index++) {
    revenue = Math.max(0, revenue + (random() - 0.5) * 50);
    price = Math.max(1, price + (random() - 0.5));
    const day = new Date(Date.UTC(1990, 0, 1) + (index % 20_000) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const region = regions[Math.min(regions.length - 1, Math.floor(-Math.log(random()) * 1.5))];
    parts.push(
      `${day},${region},${revenue.toFixed(2)},${Math.floor(random() * 40)},${price.toFixed(3)}\n`,
    );
  }
  writeFileSync(csvFile, parts.join(""));
}
writeCsv();

async function timed(label: string, work: () => Promise<unknown> | unknown) {
  const start = performance.now();
  await work();
  seconds[label] = (performance.now() - start) / 1_000;
}

// The anchors load into the table an import makes: a row key, typed columns, an index on the date
// column (built after the load, as the store does), so both sides end with the same data and index.
const typedTable =
  "create table bulk (%key%, day %date%, region text, revenue %num%, orders %num%, price %num%)";
const dateIndex = "create index bulk_day on bulk (day)";

async function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("postgresUrl");
  const name = `bench_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

describe(`import ${rows.toLocaleString("en-US")} rows × 5 columns`, () => {
  bench(
    "sqlite: store import (papaparse stream, prepared multi-row INSERTs, one transaction)",
    async () => {
      const dataDir = mkdtempSync(path.join(dir, "store-"));
      const store = await openStore({ databaseUrl: null, dataDir, seedDemo: false });
      await timed("sqlite store", () =>
        store.importNewDataset({ name: "bench", source: createReadStream(csvFile) }, actor),
      );
      await store.close();
    },
    once,
  );
  bench(
    "sqlite: sqlite3 .import + date index (the engine's own bulk load)",
    async () => {
      const file = path.join(mkdtempSync(path.join(dir, "shell-")), "bulk.db");
      // sqlite3 .import fills columns by position, so the key is the implicit rowid here (the
      // store's "_row integer primary key" is an alias of it).
      const create = typedTable
        .replace("%key%, ", "")
        .replace("%date%", "text")
        .replaceAll("%num%", "real");
      await timed("sqlite engine", () =>
        execFileSync("sqlite3", [
          file,
          `${create};`,
          ".mode csv",
          `.import --skip 1 ${csvFile} bulk`,
          `${dateIndex};`,
        ]),
      );
    },
    once,
  );
  bench(
    "postgres: store import (papaparse stream, COPY FROM STDIN, one transaction)",
    async () => {
      const database = await postgresDatabase();
      const store = await openStore({ databaseUrl: database.url, seedDemo: false });
      await timed("postgres store", () =>
        store.importNewDataset({ name: "bench", source: createReadStream(csvFile) }, actor),
      );
      await store.close();
      await database.drop();
    },
    once,
  );
  bench(
    "postgres: psql \\copy + date index (COPY FROM, the engine's own bulk load)",
    async () => {
      const database = await postgresDatabase();
      const create = typedTable
        .replace("%key%", "_row bigint generated by default as identity primary key")
        .replace("%date%", "date")
        .replaceAll("%num%", "double precision");
      execFileSync("psql", [database.url, "-qc", create]);
      await timed("postgres engine", () =>
        execFileSync("psql", [
          database.url,
          "-qc",
          `\\copy bulk (day, region, revenue, orders, price) from '${csvFile}' csv header`,
          "-qc",
          dateIndex,
        ]),
      );
      await database.drop();
    },
    once,
  );
});

afterAll(() => {
  const megabytes = statSync(csvFile).size / 1024 / 1024;
  const lines = [
    `\nImport of ${rows.toLocaleString("en-US")} rows (${megabytes.toFixed(1)} MB CSV):`,
  ];
  for (const engine of ["sqlite", "postgres"]) {
    const store = seconds[`${engine} store`];
    const native = seconds[`${engine} engine`];
    if (store === undefined || native === undefined) continue;
    const ratio = store / native;
    lines.push(
      `  ${engine.padEnd(8)} store ${store.toFixed(2)} s · engine ${native.toFixed(2)} s · ratio ${ratio.toFixed(2)}x · ${ratio <= 3 ? "meets" : "MISSES"} the 3x target`,
    );
  }
  console.log(lines.join("\n"));
  rmSync(dir, { recursive: true, force: true });
});
