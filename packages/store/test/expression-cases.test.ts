import { type DatasetRow, parseExpression } from "@seed/model";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  columnIdsFor,
  type DatasetTable,
  datasetTableName,
  rowKeyColumn,
  type TableColumn,
} from "../src/db/dataset-table.js";
import { dialectOf, type Engine } from "../src/db/dialect.js";
import { openDuckDbKysely } from "../src/db/duckdb.js";
import { createRowsTable, insertRows, rowsById } from "../src/db/rows-table.js";
import { registerSqliteFunctions } from "../src/db/sqlite-functions.js";
import { type ExpressionContext, readExpression } from "../src/engine/expression.js";
import { columns, expressionCases, rows, timeZone } from "./expression-cases.js";
import { createPostgresDatabase } from "./postgres-database.js";

// The expression case table (expression-cases.ts) on each engine: a dataset table made and filled
// by the store's rows-table code, each expression selected over its rows in row order.

// biome-ignore lint/suspicious/noExplicitAny: dataset tables are made at runtime.
type AnyExecutor = Kysely<any>;

async function open(engine: Engine): Promise<{ db: AnyExecutor; close: () => Promise<void> }> {
  if (engine === "sqlite") {
    const database = new BetterSqlite3(":memory:");
    registerSqliteFunctions(database);
    const db = new Kysely({ dialect: new SqliteDialect({ database }) });
    return { db, close: () => db.destroy() };
  }
  if (engine === "duckdb") return openDuckDbKysely(":memory:");
  const database = await createPostgresDatabase(inject("postgresUrl"), "expr");
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    close: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}

const ids = columnIdsFor(columns.map((column) => column.name));
const tableColumns: TableColumn[] = columns.map((column, index) => ({
  id: ids[index] as string,
  name: column.name,
  type: column.type,
}));
const descriptor: DatasetTable = { table: datasetTableName("expr"), columns: tableColumns };

for (const engine of ["sqlite", "postgres", "duckdb"] as const) {
  describe(`expressions on ${engine}`, () => {
    let db: AnyExecutor;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, close } = await open(engine));
      await createRowsTable(db, descriptor);
      // Boolean cells come only from live sources' tables; the dialects store them as they are.
      await insertRows(db, descriptor, rowsById(tableColumns, rows as unknown as DatasetRow[]));
    });
    afterAll(() => close());

    const evaluate = async (expression: string) => {
      const parsed = parseExpression(expression, columns);
      if (!parsed.ok) throw new Error(parsed.errors.map((error) => error.message).join(" "));
      const context: ExpressionContext = {
        dialect: dialectOf(db),
        column: (name) => sql.id(tableColumns.find((column) => column.name === name)?.id ?? ""),
        timeZone,
      };
      const value = readExpression(parsed.tree, context);
      const result = await sql<{
        v: unknown;
      }>`select ${value} as v from ${sql.table(descriptor.table)} order by ${sql.id(rowKeyColumn)}`.execute(
        db,
      );
      return result.rows.map((row) => row.v);
    };

    it.each(expressionCases)("$expression", async ({ expression, values }) => {
      expect(await evaluate(expression)).toEqual(values);
    });

    it("runs the longest and deepest expressions the checker lets through", async () => {
      expect(await evaluate(`${"[m] + ".repeat(330)}1`)).toEqual([661, 1, null, -1319, 2641]);
      const deep = `${"abs(".repeat(60)}[m]${")".repeat(60)}`;
      expect(await evaluate(deep)).toEqual([2, 0, null, 4, 8]);
    });
  });
}
