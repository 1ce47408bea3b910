import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  columnIdsFor,
  type DatasetTable,
  datasetTableName,
  type TableColumn,
} from "../src/db/dataset-table.js";
import { openDuckDbKysely } from "../src/db/duckdb.js";
import { createRowsTable } from "../src/db/rows-table.js";
import { runQuery } from "../src/engine/execute.js";
import { QueryError } from "../src/engine/parse.js";

// A query past DuckDB's memory_limit fails for its tile with a reason; the engine stays up and the
// next query answers.

describe("duckdb under its memory limit", () => {
  const names = ["day", "id", "amount"];
  const ids = columnIdsFor(names);
  const columns: TableColumn[] = [
    { id: ids[0] as string, name: "day", type: "date" },
    { id: ids[1] as string, name: "id", type: "string" },
    { id: ids[2] as string, name: "amount", type: "number" },
  ];
  const table: DatasetTable = { table: datasetTableName("memory"), columns };
  let db: Awaited<ReturnType<typeof openDuckDbKysely>>;

  beforeAll(async () => {
    db = await openDuckDbKysely(":memory:", { memoryLimit: "64MB", threads: 1 });
    await createRowsTable(db.db, table);
    const [day, id, amount] = columns.map((column) => sql.id(column.id));
    // 3,000,000 distinct ids over a year of days, made in the engine.
    await sql`insert into ${sql.table(table.table)} (${day}, ${id}, ${amount})
      select date '2024-01-01' + cast(i % 366 as integer), 'customer-' || i, i % 97
      from range(3000000) t(i)`.execute(db.db);
    await sql`set memory_limit = '24MB'`.execute(db.db);
  });
  afterAll(() => db.close());

  it("refuses the query with a reason and answers the next one", async () => {
    const heavy = runQuery(db.db, table, {
      x: { column: "day" },
      measures: [{ column: "amount", aggregate: "avg" }],
      breakdown: { column: "id", top: 5 },
    });
    const error = await heavy.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).fieldErrors.query?.[0]).toMatch(/more memory than/);

    const light = await runQuery(db.db, table, {
      x: { column: "day", grain: "month" },
      measures: [{ column: "amount", aggregate: "sum" }],
    });
    expect(light.rows).toHaveLength(12);
  });
});
