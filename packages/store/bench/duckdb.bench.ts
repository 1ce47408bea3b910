// DuckDB as an analytical engine: 1,000,000 sales rows (@seed/sample-data) loaded with DuckDB's own
// read_csv into a typed table made by the store's rows-table code, then (a) a month x region sum
// and (b) the top 10 days by revenue among rows with more than 10 orders, through the query engine
// (runQuery) next to the same SQL typed by hand. Prints the cold first run, the median of 5 and
// the ratio (target: the engine within 1.3x of the hand-typed SQL); the month x region query on a
// SQLite store for comparison. Timings are printed, never asserted.
// Run: pnpm --filter @seed/store exec vitest bench --run bench/duckdb.bench.ts  (SEED_BENCH_ROWS,
// SEED_BENCH_SQLITE=0 to skip SQLite)

import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ChartQueryInput, datasetLimits } from "@seed/model";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterAll, bench, describe } from "vitest";
import { columnIdsFor, type DatasetTable, datasetTableName } from "../src/db/dataset-table.js";
import { openDuckDbKysely } from "../src/db/duckdb.js";
import { createRowsTable } from "../src/db/rows-table.js";
import { runQuery } from "../src/engine/execute.js";
import { openStore } from "../src/index.js";
import { writeSalesCsv } from "./data.js";

const rows = Number(process.env.SEED_BENCH_ROWS ?? 1_000_000);
const runs = 5;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const dir = mkdtempSync(path.join(tmpdir(), "seed-duckdb-bench-"));
const csvFile = path.join(dir, "rows.csv");
writeSalesCsv(csvFile, rows);
const lines: string[] = [];
// Medians in ms of each query, by engine path, for the SQLite comparison printed at the end.
const medians: Record<string, number> = {};

const names = ["day", "region", "revenue", "orders", "price"] as const;
const types = {
  day: "date",
  region: "string",
  revenue: "number",
  orders: "number",
  price: "number",
};
const ids = columnIdsFor([...names]);
const descriptor: DatasetTable = {
  table: datasetTableName("sales"),
  columns: names.map((name, index) => ({ id: ids[index] as string, name, type: types[name] })),
} as DatasetTable;
const id = (name: (typeof names)[number]) => sql.id(ids[names.indexOf(name)] as string);

const monthByRegion: ChartQueryInput = {
  x: { column: "day", grain: "month" },
  measures: [{ column: "revenue", aggregate: "sum" }],
  breakdown: { column: "region", top: 8 },
};
const topDays: ChartQueryInput = {
  x: { column: "day", grain: "day" },
  measures: [{ column: "revenue", aggregate: "sum" }],
  filters: [{ column: "orders", op: "gt", value: 10 }],
  sort: { by: "value", direction: "desc" },
  limit: 10,
};

/** The first run's ms and the median of `runs` more. */
async function timed(work: () => Promise<unknown>): Promise<{ cold: number; median: number }> {
  let start = performance.now();
  await work();
  const cold = performance.now() - start;
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { cold, median: times[Math.floor(times.length / 2)] ?? 0 };
}

function line(label: string, engine: { cold: number; median: number }, hand: typeof engine) {
  const ratio = engine.median / hand.median;
  lines.push(
    `  ${label.padEnd(22)} engine ${engine.median.toFixed(1)} ms (cold ${engine.cold.toFixed(1)}) · by hand ${hand.median.toFixed(1)} ms (cold ${hand.cold.toFixed(1)}) · ratio ${ratio.toFixed(2)}x · ${ratio <= 1.3 ? "meets" : "MISSES"} the 1.3x target`,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the dataset table is made at runtime.
async function load(db: Kysely<any>) {
  await createRowsTable(db, descriptor, { indexes: false });
  const csvColumns = sql.raw(
    `{'day': 'DATE', 'region': 'VARCHAR', 'revenue': 'DOUBLE', 'orders': 'DOUBLE', 'price': 'DOUBLE'}`,
  );
  const start = performance.now();
  await sql`insert into ${sql.table(descriptor.table)} (${sql.join(names.map(id))}) select ${sql.join(
    names.map((name) => sql.id(name)),
  )} from read_csv(${sql.lit(csvFile)}, header = true, columns = ${csvColumns})`.execute(db);
  lines.push(`  load (read_csv)        ${(performance.now() - start).toFixed(0)} ms`);
}

describe(`DuckDB engine over ${rows.toLocaleString("en-US")} rows`, () => {
  bench(
    "duckdb: query engine vs hand-typed SQL",
    async () => {
      const { db, close } = await openDuckDbKysely(":memory:", { threads: 2, memoryLimit: "1GB" });
      await load(db);
      const table = sql.table(descriptor.table);
      // What a person types into DuckDB for the same answers.
      const monthHand = sql`select date_trunc('month', ${id("day")}) as m, ${id("region")} as r, sum(${id("revenue")}) as v from ${table} group by 1, 2`;
      const topHand = sql`select ${id("day")} as d, sum(${id("revenue")}) as v from ${table} where ${id("orders")} > 10 group by 1 order by 2 desc limit 10`;
      // Each pair runs engine first then by hand, so neither gets the other's warm caches first.
      const monthEngine = await timed(() => runQuery(db, descriptor, monthByRegion));
      line("month x region sum", monthEngine, await timed(() => monthHand.execute(db)));
      const topEngine = await timed(() => runQuery(db, descriptor, topDays));
      line("top 10 days, orders>10", topEngine, await timed(() => topHand.execute(db)));
      medians["duckdb month"] = monthEngine.median;
      medians["duckdb top"] = topEngine.median;
      await close();
    },
    once,
  );
  bench(
    "sqlite: the same queries on SQLite (a store up to its row limit, else the engine on a loaded file)",
    async () => {
      if (process.env.SEED_BENCH_SQLITE === "0") return;
      let month: { cold: number; median: number };
      let top: { cold: number; median: number };
      let path_: string;
      if (rows <= datasetLimits.maxImportRows) {
        path_ = "sqlite store";
        const dataDir = mkdtempSync(path.join(dir, "store-"));
        // No result cache: every run asks SQLite, as the DuckDB runs ask DuckDB.
        const store = await openStore({
          databaseUrl: null,
          dataDir,
          datasetEngine: "sqlite",
          seedDemo: false,
          resultCacheBytes: 0,
        });
        const actor = { id: "bench", email: "bench@example.com", role: "editor" } as const;
        const imported = await store.importNewDataset(
          { name: "bench", source: createReadStream(csvFile) },
          actor,
        );
        month = await timed(() => store.runChartQuery(imported.datasetId, monthByRegion));
        top = await timed(() => store.runChartQuery(imported.datasetId, topDays));
        await store.close();
      } else {
        // Past a store's row limit: the same table (column ids, types, the date index the store
        // makes) filled by sqlite3's own .import, queried by the same engine.
        path_ = "sqlite engine";
        const file = path.join(dir, "engine.db");
        const columns = descriptor.columns
          .map((column) => `"${column.id}" ${column.type === "number" ? "real" : "text"}`)
          .join(", ");
        execFileSync("sqlite3", [
          file,
          `create table "${descriptor.table}" (${columns});`,
          ".mode csv",
          `.import --skip 1 ${csvFile} ${descriptor.table}`,
          `create index "${descriptor.table}_day" on "${descriptor.table}" ("${ids[0]}");`,
        ]);
        const database = new BetterSqlite3(file);
        const db = new Kysely({ dialect: new SqliteDialect({ database }) });
        month = await timed(() => runQuery(db, descriptor, monthByRegion));
        top = await timed(() => runQuery(db, descriptor, topDays));
        await db.destroy();
      }
      medians["sqlite month"] = month.median;
      medians["sqlite top"] = top.median;
      lines.push(
        `  ${path_.padEnd(22)} month x region ${month.median.toFixed(1)} ms (cold ${month.cold.toFixed(1)}) · top 10 days ${top.median.toFixed(1)} ms (cold ${top.cold.toFixed(1)})`,
      );
    },
    once,
  );
});

afterAll(() => {
  for (const [label, key] of [
    ["month x region sum", "month"],
    ["top 10 days, orders>10", "top"],
  ] as const) {
    const duck = medians[`duckdb ${key}`];
    const lite = medians[`sqlite ${key}`];
    if (duck === undefined || lite === undefined) continue;
    const speedup = lite / duck;
    lines.push(
      `  ${label.padEnd(22)} duckdb engine ${speedup.toFixed(1)}x faster than the sqlite path · ${speedup >= 15 ? "meets" : "MISSES"} the 15x target`,
    );
  }
  console.log(
    [
      `\nDuckDB engine over ${rows.toLocaleString("en-US")} rows (median of ${runs} after a cold run):`,
      ...lines,
    ].join("\n"),
  );
  rmSync(dir, { recursive: true, force: true });
});
