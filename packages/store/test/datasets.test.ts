import { ConflictError, InUseError, NotFoundError, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { editor, otherEditor } from "./actors.js";
import {
  columnsOf,
  createChartAndDataset,
  engines,
  errorOf,
  openTestStore,
  salesInput,
  sumStat,
} from "./helpers.js";

describe.each(engines)("datasets on %s", (dialect) => {
  it("creates a dataset at version 1 and reads it back with its rows", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const created = await store.createDataset(salesInput(), editor);
    const loaded = await store.getDataset(created.id);

    expect(created.version).toBe(1);
    expect(loaded).toEqual(created);
    expect(loaded?.rows[1]).toEqual({
      month: "2025-02-01",
      region: "South",
      revenue: 150,
      orders: 6,
    });
    expect(loaded?.rowCount).toBe(3);
  });

  it("lists datasets by name without their rows", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.createDataset(salesInput("Zebra"), editor);
    await store.createDataset(salesInput("Apple"), editor);

    const list = await store.listDatasets();

    expect(list.map((dataset) => dataset.name)).toEqual(["Apple", "Zebra"]);
    expect(list[0]).not.toHaveProperty("rows");
    expect(list[0]?.rowCount).toBe(3);
  });

  it("fills missing cells with null and keeps the declared columns only", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const created = await store.createDataset(
      { ...salesInput(), rows: [{ month: "2025-01-01", revenue: 5 }] },
      editor,
    );

    expect(created.rows).toEqual([{ month: "2025-01-01", region: null, revenue: 5, orders: null }]);
  });

  it("rejects cells of the wrong type with the row and column named, and writes nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const error = await errorOf(
      store.createDataset(
        {
          ...salesInput(),
          rows: [
            { month: "2025-01-01", region: "North", revenue: 1, orders: 1 },
            { month: "2025-13-01", region: "North", revenue: "abc", orders: 1 },
          ],
        },
        editor,
      ),
    );

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors.rows).toEqual([
      'Row 2, column "month": expected a date (yyyy-mm-dd), got "2025-13-01".',
      'Row 2, column "revenue": expected a number, got "abc".',
    ]);
    expect(await store.listDatasets()).toEqual([]);
    expect((await store.getOverviewCounts()).auditEvents).toBe(0);
  });

  it("rejects duplicate column names and a missing name", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const error = await errorOf(
      store.createDataset(
        {
          name: "  ",
          columns: [
            { name: "a", type: "number" },
            { name: "a", type: "string" },
          ],
        },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors).toEqual({
      name: ["Enter a name."],
      "columns.1.name": ['Column name "a" is used twice.'],
    });
  });

  it("updates the name and bumps the version", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDataset(salesInput(), editor);

    const updated = await store.updateDataset(created.id, 1, { name: "Sales 2025" }, editor);

    expect(updated).toMatchObject({ name: "Sales 2025", version: 2, rowCount: 3 });
    expect((await store.getDataset(created.id))?.name).toBe("Sales 2025");
    expect((await store.getDataset(created.id))?.rows).toEqual(created.rows);
  });

  it("fails with ConflictError when the version is stale and keeps the other edit", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDataset(salesInput(), editor);
    await store.updateDataset(created.id, 1, { name: "First edit wins" }, editor);

    const error = await errorOf(
      store.updateDataset(created.id, 1, { name: "Stale edit" }, otherEditor),
    );

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ entityType: "dataset", expectedVersion: 1, currentVersion: 2 });
    expect((await store.getDataset(created.id))?.name).toBe("First edit wins");
  });

  it("lets exactly one of two concurrent edits of the same version win", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDataset(salesInput(), editor);

    const results = await Promise.allSettled([
      store.updateDataset(created.id, 1, { name: "A" }, editor),
      store.updateDataset(created.id, 1, { name: "B" }, otherEditor),
    ]);

    const fulfilled = results.filter((result) => result.status === "fulfilled");
    const rejected = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason] : [],
    );
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toBeInstanceOf(ConflictError);
    expect((await store.getDataset(created.id))?.version).toBe(2);
  });

  it("replaces rows, checking them against the columns", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDataset(salesInput(), editor);

    const replaced = await store.replaceDatasetRows(
      created.id,
      1,
      [{ month: "2026-01-31", region: "East", revenue: 9.5, orders: 1 }],
      editor,
    );
    const invalid = await errorOf(
      store.replaceDatasetRows(created.id, 2, [{ revenue: "lots" }], editor),
    );

    expect(replaced.rows).toEqual([
      { month: "2026-01-31", region: "East", revenue: 9.5, orders: 1 },
    ]);
    expect(replaced.version).toBe(2);
    expect((invalid as ValidationError).fieldErrors.rows).toEqual([
      'Row 1, column "revenue": expected a number, got "lots".',
    ]);
    expect((await store.getDataset(created.id))?.rowCount).toBe(1);
  });

  it("edits single rows: set, remove and append in one versioned write", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDataset(salesInput(), editor);

    const edited = await store.editDatasetRows(
      created.id,
      1,
      {
        set: [{ key: 1, row: { month: "2025-01-01", region: "West", revenue: 1, orders: 1 } }],
        remove: [2],
        append: [{ month: "2025-04-01", region: "North", revenue: 7, orders: 2 }],
      },
      editor,
    );
    const outOfRange = await errorOf(
      store.editDatasetRows(created.id, 2, { remove: [11] }, editor),
    );

    const rows = (await store.getDataset(created.id))?.rows ?? [];
    expect(rows.map((row) => row.region)).toEqual(["West", "North", "North"]);
    expect(rows.map((row) => row.revenue)).toEqual([1, 120, 7]);
    expect(edited.rowCount).toBe(3);
    expect(edited.version).toBe(2);
    expect((outOfRange as ValidationError).fieldErrors.rows).toEqual(["Row 11 does not exist."]);
    expect((outOfRange as ValidationError).problems).toEqual([
      { field: "rows.11", code: "missing_row", message: "Row 11 does not exist." },
    ]);
    const badCells = await errorOf(
      store.editDatasetRows(
        created.id,
        2,
        {
          set: [
            { key: 1, row: { month: "2025-01-01", region: "West", revenue: "lots", orders: 1 } },
          ],
          append: [
            { month: "2025-05-01", region: "North", revenue: 1, orders: 1 },
            { month: "2025-05-01", region: "North", revenue: 1, orders: "two", colour: "red" },
          ],
        },
        editor,
      ),
    );
    // Each bad cell has its own field path and code, so a form marks it without reading text.
    expect((badCells as ValidationError).problems).toEqual([
      {
        field: "rows.1.revenue",
        code: "invalid_cell",
        message: 'Row 1, column "revenue": expected a number, got "lots".',
      },
      {
        field: "rows.new-2.colour",
        code: "unknown_column",
        message: 'New row 2: unknown column "colour".',
      },
      {
        field: "rows.new-2.orders",
        code: "invalid_cell",
        message: 'New row 2, column "orders": expected a number, got "two".',
      },
    ]);
    expect((await store.getDataset(created.id))?.version).toBe(2);
  });

  it("refuses a column change that would break a chart using the dataset", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { dataset } = await createChartAndDataset(store);

    const error = await errorOf(
      store.updateDataset(
        dataset.id,
        1,
        { columns: [{ name: "month", type: "date" }], rows: [{ month: "2025-01-01" }] },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors.columns).toEqual([
      'Chart "Revenue" would break: The dataset has no column "revenue".',
    ]);
    expect((await store.getDataset(dataset.id))?.columns).toHaveLength(4);
  });

  it("deletes an unused dataset and refuses one still used by a chart", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const unused = await store.createDataset(salesInput("Unused"), editor);
    const used = await store.createDataset(salesInput("Used"), editor);
    await store.createChart(
      {
        title: "Orders",
        type: "bar",
        datasetId: used.id,
        indexColumn: "region",
        seriesColumns: ["orders"],
      },
      editor,
    );

    await store.deleteDataset(unused.id, 1, editor);
    const inUse = await errorOf(store.deleteDataset(used.id, 1, editor));
    const missing = await errorOf(store.deleteDataset(unused.id, 1, editor));

    expect(await store.getDataset(unused.id)).toBeNull();
    expect(inUse).toBeInstanceOf(InUseError);
    expect((inUse as Error).message).toContain('chart "Orders"');
    expect(await store.getDataset(used.id)).not.toBeNull();
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it("protects stat tiles too: column changes and deletes that would break them are refused", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const dashboard = await store.createDashboard(
      {
        title: "KPIs",
        slug: "kpis",
        tiles: [sumStat(dataset.id, "orders", "Orders")],
      },
      editor,
    );

    const retyped = await errorOf(
      store.updateDataset(
        dataset.id,
        1,
        {
          columns: columnsOf({ month: "date", orders: "string" }),
          rows: [{ month: "2025-01-01", orders: "four" }],
        },
        editor,
      ),
    );
    const deleted = await errorOf(store.deleteDataset(dataset.id, 1, editor));

    expect((retyped as ValidationError).fieldErrors.columns).toEqual([
      'Stat tile "Orders" on "KPIs" would break: "orders" is a string column; sum needs a number column.',
    ]);
    expect((deleted as InUseError).usedBy).toEqual([
      { entityType: "dashboard", id: dashboard.id, title: "KPIs" },
    ]);
    expect((await store.getDataset(dataset.id))?.version).toBe(1);
  });

  it("rejects a stale delete", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    await store.updateDataset(dataset.id, 1, { description: "changed" }, editor);

    const error = await errorOf(store.deleteDataset(dataset.id, 1, editor));

    expect(error).toBeInstanceOf(ConflictError);
    expect(await store.getDataset(dataset.id)).not.toBeNull();
  });
});
