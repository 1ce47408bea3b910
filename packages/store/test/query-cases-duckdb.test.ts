import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  columnIdsFor,
  type DatasetTable,
  datasetTableName,
  type TableColumn,
} from "../src/db/dataset-table.js";
import { dialectOf } from "../src/db/dialect.js";
import { openDuckDbKysely } from "../src/db/duckdb.js";
import {
  clearRowsTable,
  countRows,
  createRowsTable,
  insertRows,
  readRows,
  rowsById,
  storedBytes,
} from "../src/db/rows-table.js";
import { compileChartQuery } from "../src/engine/compile.js";
import { runQuery } from "../src/engine/execute.js";
import { runStat } from "../src/engine/stat.js";
import {
  cases,
  columns,
  expectAverageBreakdown,
  expectDuplicateX,
  expectStatTiles,
  type RunCase,
  rows,
  sum,
} from "./query-cases.js";

// The case table (query-cases.ts) on DuckDB: the dataset's table made and filled by the store's
// own rows-table code in an in-memory DuckDB, every case run through the query engine.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime.
type AnyExecutor = Kysely<any>;

describe("query engine on duckdb", () => {
  let db: AnyExecutor;
  let close: () => Promise<void>;
  const ids = columnIdsFor(columns.map((column) => column.name));
  const tableColumns: TableColumn[] = columns.map((column, index) => ({
    id: ids[index] as string,
    name: column.name,
    type: column.type,
  }));
  const descriptor: DatasetTable = { table: datasetTableName("cases"), columns: tableColumns };
  const run: RunCase = (query, options) => runQuery(db, descriptor, query, options);

  beforeAll(async () => {
    ({ db, close } = await openDuckDbKysely(":memory:"));
    await createRowsTable(db, descriptor);
    await insertRows(db, descriptor, rowsById(tableColumns, rows));
  });
  afterAll(() => close());

  it("is recognised as DuckDB and reads the rows back as stored", async () => {
    expect(dialectOf(db).engine).toBe("duckdb");
    expect(await countRows(db, descriptor)).toBe(rows.length);
    const [first] = await readRows(db, descriptor, { limit: 1 });
    expect(first).toEqual(rows[0]);
    expect(await readRows(db, descriptor, { limit: 2, search: "wes" })).toEqual(
      rows.filter((row) => row.region === "West"),
    );
  });

  it.each(cases)("$name", async (testCase) => {
    const result = await run(testCase.query, testCase.options);
    expect(result.rows).toEqual(testCase.rows);
    if (testCase.series) {
      expect(result.series.map((series) => series.label)).toEqual(testCase.series);
    }
  });

  it("computes stat tiles in the database, with a previous-period comparison", () =>
    expectStatTiles((query, options) => runStat(db, descriptor, query, options)));

  it("ranks a breakdown by an average (not foldable: ranked in SQL first)", () =>
    expectAverageBreakdown(run));

  it("counts raw rows that share an x value and says so", () => expectDuplicateX(run));

  it("compiles to DuckDB SQL with $n parameters and the zone's offsets over the data's range", async () => {
    const compiled = await compileChartQuery(
      db,
      descriptor,
      {
        x: { column: "at", grain: "month" },
        measures: [sum("revenue")],
        filters: [{ column: "region", op: "eq", value: "North" }],
      },
      { timeZone: "Europe/Paris" },
    );
    // Paris's wall time as micros: +1 h, and +2 h from the last Sunday of March 2024 on.
    expect(compiled.sql).toContain(
      'make_timestamp((epoch_us("c_at") + case when epoch_us("c_at") < 1711846800000000 then 3600000000',
    );
    expect(compiled.sql).not.toContain("timezone(");
    expect(compiled.sql).toContain("= cast($1 as varchar)");
    expect(compiled.parameters).toEqual(["North"]);
    const result = await db.executeQuery(compiled);
    expect(result.rows).toEqual([
      // 2023-12-31T23:30Z is already January in Paris.
      { x: "2024-01-01", m0: 30 },
      { x: "2024-10-01", m0: 8 },
      { x: "2024-12-01", m0: 16 },
    ]);
  });

  it("counts stored bytes and restarts row keys after clearing, in a transaction", async () => {
    const copy: DatasetTable = { ...descriptor, table: datasetTableName("copy") };
    await createRowsTable(db, copy);
    await insertRows(db, copy, rowsById(tableColumns, rows.slice(0, 2)));
    // Two filled cells of 8 bytes in each column but region (5 bytes of "North" each).
    expect(await storedBytes(db, copy)).toBe(2 * (8 * 4 + 5));
    await db.transaction().execute(async (trx) => {
      await clearRowsTable(trx, copy.table);
      await insertRows(trx, copy, rowsById(tableColumns, rows.slice(2, 3)));
    });
    const keys = await db.selectFrom(copy.table).select("_row").execute();
    expect(keys).toEqual([{ _row: 1 }]);
  });
});
