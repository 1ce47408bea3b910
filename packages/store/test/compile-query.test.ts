import type { ChartQueryInput } from "@seed/model";
import BetterSqlite3 from "better-sqlite3";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteDialect,
  sql,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatasetTable } from "../src/db/dataset-table.js";
import { createRowsTable } from "../src/db/rows-table.js";
import { type CompileOptions, compileChartQuery } from "../src/engine/compile.js";
import { runQuery } from "../src/engine/execute.js";

// What SQL a chart query becomes on each engine: the text and bound parameters of the statement
// runQuery runs for an aggregate chart (compileChartQuery), so a change to compilation shows in
// review. PostgreSQL is compiled without a server (DummyDriver); SQLite on an in-memory database,
// since a time bucket in a zone other than UTC reads the data's range first.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime, outside the schema type.
type AnyKysely = Kysely<any>;

const sales: DatasetTable = {
  table: "ds_sales",
  columns: [
    { id: "c_day", name: "day", type: "date" },
    { id: "c_at", name: "at", type: "timestamp" },
    { id: "c_region", name: "region", type: "string" },
    { id: "c_revenue", name: "revenue", type: "number" },
  ],
};

const monthlyRevenue: ChartQueryInput = {
  x: { column: "day", grain: "month" },
  measures: [
    { column: "revenue", aggregate: "sum" },
    { column: null, aggregate: "count" },
  ],
  filters: [{ column: "region", op: "in", values: ["North", "South"] }],
  sort: { by: "value", direction: "desc" },
  limit: 12,
};

const topRegionsThisYear: ChartQueryInput = {
  x: { column: "day", grain: "quarter" },
  measures: [{ column: "revenue", aggregate: "max" }],
  breakdown: { column: "region", top: 3 },
  filters: [{ column: "day", op: "relative", unit: "year", which: "this" }],
};
const midJune: CompileOptions = { now: new Date("2024-06-15T12:00:00Z") };

const parisDays: ChartQueryInput = {
  x: { column: "at", grain: "day" },
  measures: [{ column: null, aggregate: "count" }],
  filters: [{ column: "at", op: "gte", value: "2024-03-30T00:00:00Z" }],
};
const paris: CompileOptions = { timeZone: "Europe/Paris" };

async function compiled(db: AnyKysely, query: ChartQueryInput, options?: CompileOptions) {
  const { sql: text, parameters } = await compileChartQuery(db, sales, query, options);
  return { sql: text, parameters };
}

describe("compileChartQuery on SQLite", () => {
  let sqlite: BetterSqlite3.Database;
  let db: AnyKysely;
  const ran: string[] = [];
  beforeAll(async () => {
    sqlite = new BetterSqlite3(":memory:");
    db = new Kysely({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === "query") ran.push(event.query.sql);
      },
    });
    await createRowsTable(db, sales);
    // Paris moves to summer time at 2024-03-31T01:00Z: the range crosses one change.
    for (const at of ["2024-03-30T22:59:00.000Z", "2024-03-31T12:00:00.000Z"]) {
      await sql`insert into ds_sales (c_at) values (${Date.parse(at)})`.execute(db);
    }
  });
  afterAll(async () => {
    await db.destroy();
  });

  it("compiles sums by month, sorted by value", async () => {
    expect(await compiled(db, monthlyRevenue)).toEqual({
      sql: `select * from (select strftime('%Y-%m-01', "c_day") as x, sum("c_revenue") as "m0", count(*) as "m1" from "ds_sales" where "c_region" in (?, ?) group by 1) as grouped order by "m0" desc nulls last, "x" asc nulls last limit 13`,
      parameters: ["North", "South"],
    });
  });

  it("compiles a top-3 breakdown as one GROUP BY x, breakdown (ranked and folded afterwards)", async () => {
    expect(await compiled(db, topRegionsThisYear, midJune)).toEqual({
      sql: `select printf('%s-%02d-01', strftime('%Y', "c_day"), ((cast(strftime('%m', "c_day") as integer) - 1) / 3) * 3 + 1) as x, "c_region" as b, max("c_revenue") as v from "ds_sales" where ("c_day" >= ? and "c_day" < ?) group by 1, 2 limit 200001`,
      parameters: ["2024-01-01", "2025-01-01"],
    });
  });

  it("compiles days in Paris with the zone's offsets over the data's range", async () => {
    expect(await compiled(db, parisDays, paris)).toEqual({
      sql: `select * from (select date(("c_at" + case when "c_at" < 1711846800000 then 3600000 else 7200000 end) / 1000.0, 'unixepoch') as x, count(*) as "m0" from "ds_sales" where "c_at" >= ? group by 1) as grouped order by "x" asc nulls last limit 10001`,
      parameters: [Date.parse("2024-03-30T00:00:00Z")],
    });
  });

  it("is the statement runQuery runs", async () => {
    for (const [query, options] of [
      [monthlyRevenue, {}],
      [topRegionsThisYear, midJune],
      [parisDays, paris],
    ] as const) {
      ran.length = 0;
      await runQuery(db, sales, query, options);
      expect(ran).toContain((await compiled(db, query, options)).sql);
    }
  });

  it("refuses a raw series, which runs in steps", async () => {
    await expect(
      compileChartQuery(db, sales, {
        x: { column: "at" },
        measures: [{ column: "revenue", aggregate: "none" }],
      }),
    ).rejects.toThrow(/raw series/);
  });
});

describe("compileChartQuery on PostgreSQL", () => {
  // Compiles only: the dummy driver never connects.
  const db: AnyKysely = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

  it("compiles sums by month, sorted by value", async () => {
    expect(await compiled(db, monthlyRevenue)).toEqual({
      sql: `select * from (select to_char(date_trunc('month', cast("c_day" as timestamp)), 'YYYY-MM-DD') as x, sum("c_revenue") as "m0", count(*) as "m1" from "ds_sales" where "c_region" in ($1, $2) group by 1) as grouped order by "m0" desc nulls last, "x" collate "C" asc nulls last limit 13`,
      parameters: ["North", "South"],
    });
  });

  it("compiles a top-3 breakdown as one GROUP BY x, breakdown (ranked and folded afterwards)", async () => {
    expect(await compiled(db, topRegionsThisYear, midJune)).toEqual({
      sql: `select to_char(date_trunc('quarter', cast("c_day" as timestamp)), 'YYYY-MM-DD') as x, "c_region" as b, max("c_revenue") as v from "ds_sales" where ("c_day" >= cast($1 as date) and "c_day" < cast($2 as date)) group by 1, 2 limit 200001`,
      parameters: ["2024-01-01", "2025-01-01"],
    });
  });

  it("compiles days in Paris with AT TIME ZONE", async () => {
    expect(await compiled(db, parisDays, paris)).toEqual({
      sql: `select * from (select to_char(date_trunc('day', ("c_at" at time zone $1)), 'YYYY-MM-DD') as x, count(*) as "m0" from "ds_sales" where "c_at" >= cast($2 as timestamptz) group by 1) as grouped order by "x" collate "C" asc nulls last limit 10001`,
      parameters: ["Europe/Paris", "2024-03-30T00:00:00.000Z"],
    });
  });
});
