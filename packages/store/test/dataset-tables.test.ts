import type { DatasetRow } from "@seed/model";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { datasetTableName } from "../src/db/dataset-table.js";
import { openStore, type StoreDialect } from "../src/index.js";
import { internalsOf } from "../src/raw-handles.js";
import { editor } from "./actors.js";
import {
  columnsOf,
  createOldDatabase,
  createTestDatabase,
  dialects,
  openTestStore,
  salesInput,
} from "./helpers.js";

interface LegacyDataset {
  id: string;
  name: string;
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

/** A database as the previous version of the store left it: migration 0001 and rows_json. */
interface LegacyChart {
  id: string;
  type: string;
  datasetId: string;
  indexColumn: string;
  seriesColumns: string[];
}

async function createLegacyDatabase(
  dialect: StoreDialect,
  options: { databaseUrl?: string | null; dataDir?: string },
  datasets: readonly LegacyDataset[],
  charts: readonly LegacyChart[] = [],
) {
  await createOldDatabase(dialect, options, "0002", async (db) => {
    for (const dataset of datasets) {
      await db
        .insertInto("datasets")
        .values({
          id: dataset.id,
          name: dataset.name,
          description: "",
          columns_json: JSON.stringify(dataset.columns),
          rows_json: JSON.stringify(dataset.rows),
          row_count: dataset.rows.length,
          version: 1,
          created_at: "2025-01-01T00:00:00.000Z",
          updated_at: "2025-01-01T00:00:00.000Z",
        })
        .execute();
    }
    for (const chart of charts) {
      await db
        .insertInto("charts")
        .values({
          id: chart.id,
          title: `Chart ${chart.id}`,
          type: chart.type,
          dataset_id: chart.datasetId,
          index_column: chart.indexColumn,
          series_json: JSON.stringify(chart.seriesColumns),
          options_json: "{}",
          version: 1,
          created_at: "2025-01-01T00:00:00.000Z",
          updated_at: "2025-01-01T00:00:00.000Z",
        })
        .execute();
    }
  });
}

const awkward: LegacyDataset = {
  id: "7F3A-legacy id",
  name: "Awkward",
  columns: columnsOf({
    When: "date",
    Day: "date",
    Région: "string",
    région: "string",
    "x; DROP TABLE datasets": "number",
  }),
  rows: [
    {
      When: "2024-02-29T23:59:59.123Z",
      Day: "2024-02-29",
      Région: "Nord 🌍",
      région: "",
      "x; DROP TABLE datasets": -1.5e-7,
    },
    { When: null, Day: null, Région: null, région: "it's", "x; DROP TABLE datasets": null },
    {
      When: "2025-03-30T01:30:00.000Z",
      Day: "1999-12-31",
      Région: "a,b\nc",
      région: "z",
      "x; DROP TABLE datasets": 1.7976931348623157e308,
    },
  ],
};

for (const dialect of dialects) {
  describe(`dataset tables on ${dialect}`, () => {
    it("keeps rows in the dataset's own typed table and drops the table with the dataset", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const table = datasetTableName(created.id);
      const count = await sql<{
        n: string | number;
      }>`select count(*) as n from ${sql.table(table)}`.execute(internalsOf(store).db);
      expect(Number(count.rows[0]?.n)).toBe(3);
      expect(await store.getDataset(created.id)).toMatchObject({ rows: salesInput().rows });
      await store.deleteDataset(created.id, 1, editor);
      await expect(
        sql`select 1 from ${sql.table(table)}`.execute(internalsOf(store).db),
      ).rejects.toThrow();
    });

    it("pages, sorts and searches rows in the database with their keys", async () => {
      const store = await openTestStore(dialect, { seedDemo: false });
      const created = await store.createDataset(salesInput(), editor);
      const page = await store.listDatasetRows(created.id, {
        limit: 2,
        offset: 0,
        sortBy: "revenue",
        descending: true,
      });
      expect(page).toEqual({
        total: 3,
        rows: [
          { key: 2, row: { month: "2025-02-01", region: "South", revenue: 150, orders: 6 } },
          { key: 3, row: { month: "2025-03-01", region: "North", revenue: 120, orders: 5 } },
        ],
      });
      const searched = await store.listDatasetRows(created.id, { limit: 10, search: "nor" });
      expect(searched?.total).toBe(2);
      expect(searched?.rows.map((keyed) => keyed.key)).toEqual([1, 3]);
      // Search text is data, not pattern syntax or SQL.
      expect(
        (await store.listDatasetRows(created.id, { limit: 10, search: "%' or 1=1 --" }))?.total,
      ).toBe(0);
      expect(
        (await store.listDatasetRows(created.id, { limit: 5_000, offset: 2 }))?.rows,
      ).toHaveLength(1);
    });

    it("turns old charts into queries: raw where x is unique, sums where x repeats", async () => {
      const database = await createTestDatabase(dialect);
      const daily: LegacyDataset = {
        id: "daily",
        name: "Daily",
        columns: columnsOf({ day: "date", region: "string", revenue: "number" }),
        rows: [
          { day: "2025-01-01", region: "North", revenue: 2 },
          { day: "2025-01-01", region: "South", revenue: 3 },
          { day: "2025-01-02", region: "North", revenue: 5 },
        ],
      };
      const monthly: LegacyDataset = {
        id: "monthly",
        name: "Monthly",
        columns: columnsOf({ month: "date", revenue: "number" }),
        rows: [
          { month: "2025-01-01", revenue: 7 },
          { month: "2025-02-01", revenue: 9 },
        ],
      };
      await createLegacyDatabase(
        dialect,
        database.options,
        [daily, monthly],
        [
          {
            id: "pie",
            type: "pie",
            datasetId: "daily",
            indexColumn: "region",
            seriesColumns: ["revenue"],
          },
          {
            id: "line",
            type: "line",
            datasetId: "monthly",
            indexColumn: "month",
            seriesColumns: ["revenue"],
          },
        ],
      );
      const store = await openStore(database.options);
      database.openStores.push(store);
      const pie = await store.getChart("pie");
      expect(pie?.query).toEqual({
        x: { column: "region" },
        measures: [{ column: "revenue", aggregate: "sum" }],
        filters: [],
      });
      const line = await store.getChart("line");
      expect(line?.query.measures).toEqual([{ column: "revenue", aggregate: "none" }]);
      // The pie now sums every day of a region (the old chart drew one row per region).
      expect(
        (await store.runChartQuery("daily", (pie as NonNullable<typeof pie>).query)).rows,
      ).toEqual([
        { x: "North", m0: 7 },
        { x: "South", m0: 3 },
      ]);
    });

    it("migrates a dataset of the previous store version with no loss", async () => {
      const database = await createTestDatabase(dialect);
      await createLegacyDatabase(
        dialect,
        { ...database.options, dataDir: database.dataDir ?? undefined },
        [awkward],
      );
      const store = await openStore({ ...database.options, seedDemo: false });
      database.openStores.push(store);
      const migrated = await store.getDataset(awkward.id);
      expect(migrated?.columns).toEqual([
        { name: "When", type: "timestamp" },
        { name: "Day", type: "date" },
        { name: "Région", type: "string" },
        { name: "région", type: "string" },
        { name: "x; DROP TABLE datasets", type: "number" },
      ]);
      expect(migrated?.rows).toEqual(awkward.rows);
      expect(migrated?.rowCount).toBe(3);
      await expect(
        sql`select rows_json from datasets`.execute(internalsOf(store).db),
      ).rejects.toThrow();
    });

    it("migrates the demo datasets with no loss", async () => {
      const demo = await openTestStore(dialect);
      const demoDatasets: LegacyDataset[] = [];
      for (const summary of await demo.listDatasets()) {
        const dataset = await demo.getDataset(summary.id);
        if (dataset) demoDatasets.push({ ...dataset, rows: dataset.rows as DatasetRow[] });
      }
      expect(demoDatasets.length).toBeGreaterThan(0);
      const database = await createTestDatabase(dialect);
      await createLegacyDatabase(
        dialect,
        { ...database.options, dataDir: database.dataDir ?? undefined },
        demoDatasets,
      );
      const store = await openStore({ ...database.options, seedDemo: false });
      database.openStores.push(store);
      for (const dataset of demoDatasets) {
        expect(await store.getDataset(dataset.id)).toMatchObject({
          columns: dataset.columns,
          rows: dataset.rows,
        });
      }
    });
  });
}
