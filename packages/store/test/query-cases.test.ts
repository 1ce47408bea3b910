import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryResult, Store } from "../src/index.js";
import { QueryError, runStat } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import { dialects, errorOf, openSuiteStore } from "./helpers.js";
import {
  cases,
  columns,
  count,
  expectAverageBreakdown,
  expectDuplicateX,
  expectStatTiles,
  rows,
  sum,
} from "./query-cases.js";

// The case table (query-cases.ts) on SQLite and on PostgreSQL, through whole stores.

for (const dialect of dialects) {
  describe(`query engine on ${dialect}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let datasetId: string;
    afterAll(() => close());
    beforeAll(async () => {
      ({ store, close } = await openSuiteStore(dialect, { seedDemo: false }));
      const dataset = await store.createDataset(
        { name: "Cases", columns: columns.map((column) => ({ ...column })), rows },
        editor,
      );
      datasetId = dataset.id;
    });

    it.each(cases)("$name", async (testCase) => {
      const result: QueryResult = await store.runChartQuery(
        datasetId,
        testCase.query,
        testCase.options,
      );
      expect(result.rows).toEqual(testCase.rows);
      if (testCase.series) {
        expect(result.series.map((series) => series.label)).toEqual(testCase.series);
      }
    });

    it("computes stat tiles in the database, with a previous-period comparison", async () => {
      const table = await store.getDatasetTable(datasetId);
      if (!table) throw new Error("no table");
      await expectStatTiles((query, options) =>
        runStat(internalsOf(store).db, table, query, options),
      );
    });

    it("ranks a breakdown by an average (not foldable: ranked in SQL first)", () =>
      expectAverageBreakdown((query, options) => store.runChartQuery(datasetId, query, options)));

    it("counts raw rows that share an x value and says so", () =>
      expectDuplicateX((query, options) => store.runChartQuery(datasetId, query, options)));

    it("refuses a query that does not fit the dataset, naming the column and field", async () => {
      const missing = await errorOf(
        store.runChartQuery(datasetId, { x: { column: "gone" }, measures: [sum("revenue")] }),
      );
      expect(missing).toBeInstanceOf(QueryError);
      expect((missing as QueryError).fieldErrors).toEqual({
        "x.column": ['The dataset has no column "gone".'],
      });
      const wrongType = await errorOf(
        store.runChartQuery(datasetId, {
          x: { column: "day", grain: "hour" },
          measures: [sum("region")],
        }),
      );
      expect((wrongType as QueryError).fieldErrors).toMatchObject({
        "x.grain": [expect.stringMatching(/holds days/)],
        "measures.0.aggregate": [expect.stringMatching(/"region" is a string column/)],
      });
      const badZone = await errorOf(
        store.runChartQuery(
          datasetId,
          { x: { column: "day" }, measures: [count] },
          { timeZone: "Mars/Olympus" },
        ),
      );
      expect((badZone as QueryError).fieldErrors).toEqual({
        timeZone: ['Unknown time zone "Mars/Olympus".'],
      });
    });
  });
}
