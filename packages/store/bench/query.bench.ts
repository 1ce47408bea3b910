// A month-by-region sum over 1,000,000 rows through the query engine, next to the same SQL typed
// by hand, on SQLite and PostgreSQL. Prints medians and the ratio; the target (engine within 1.5x
// of the hand-typed SQL) is checked here, never in tests.
// Run: pnpm --filter @seed/store exec vitest bench --run bench/query.bench.ts  (SEED_BENCH_ROWS)

import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, bench, describe, inject } from "vitest";
import { openStore, type Store } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { createPostgresDatabase } from "../test/postgres-database.js";
import { writeSalesCsv } from "./data.js";

const rows = Number(process.env.SEED_BENCH_ROWS ?? 1_000_000);
const runs = 7;
const actor = { id: "bench", email: "bench@example.com", role: "editor" } as const;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const dir = mkdtempSync(path.join(tmpdir(), "seed-query-bench-"));
const csvFile = path.join(dir, "rows.csv");
writeSalesCsv(csvFile, rows);
const lines: string[] = [];

const query = {
  x: { column: "day", grain: "month" as const },
  measures: [{ column: "revenue", aggregate: "sum" as const }],
  breakdown: { column: "region", top: 8 },
};

async function median(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const uncached = { resultCacheBytes: 0 };

async function measure(engine: "sqlite" | "postgres", store: Store) {
  const imported = await store.importNewDataset(
    { name: "bench", source: createReadStream(csvFile) },
    actor,
  );
  const table = await store.getDatasetTable(imported.datasetId);
  if (!table) throw new Error("no table");
  const id = (name: string) =>
    sql.id(table.columns.find((column) => column.name === name)?.id ?? "");
  const month =
    engine === "sqlite"
      ? sql`strftime('%Y-%m-01', ${id("day")})`
      : sql`to_char(date_trunc('month', cast(${id("day")} as timestamp)), 'YYYY-MM-DD')`;
  const byHand = sql`select ${month} as m, ${id("region")} as r, sum(${id("revenue")}) as v from ${sql.table(table.table)} group by 1, 2`;
  let groups = 0;
  const engineMs = await median(async () => {
    groups = (await store.runChartQuery(imported.datasetId, query)).rows.length;
  });
  const handMs = await median(() => byHand.execute(internalsOf(store).db));
  const ratio = engineMs / handMs;
  lines.push(
    `  ${engine.padEnd(8)} engine ${engineMs.toFixed(0)} ms · by hand ${handMs.toFixed(0)} ms · ratio ${ratio.toFixed(2)}x · ${groups} months · ${ratio <= 1.5 ? "meets" : "MISSES"} the 1.5x target`,
  );
}

describe(`month x region sum over ${rows.toLocaleString("en-US")} rows`, () => {
  bench(
    "sqlite: query engine vs hand-typed SQL",
    async () => {
      const dataDir = mkdtempSync(path.join(dir, "store-"));
      // No result cache: every run asks the database, as the hand-typed SQL does.
      const store = await openStore({
        databaseUrl: null,
        dataDir,
        datasetEngine: "sqlite",
        seedDemo: false,
        ...uncached,
      });
      await measure("sqlite", store);
      await store.close();
    },
    once,
  );
  bench(
    "postgres: query engine vs hand-typed SQL",
    async () => {
      const database = await createPostgresDatabase(inject("postgresUrl"), "bench");
      const store = await openStore({ databaseUrl: database.url, seedDemo: false, ...uncached });
      await measure("postgres", store);
      await store.close();
      await database.drop();
    },
    once,
  );
});

afterAll(() => {
  console.log(
    [
      `\nMonth x region sum over ${rows.toLocaleString("en-US")} rows (median of ${runs}):`,
      ...lines,
    ].join("\n"),
  );
  rmSync(dir, { recursive: true, force: true });
});
