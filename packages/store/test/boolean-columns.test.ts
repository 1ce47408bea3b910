import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { byteChunks, columnsOf, storeOn, storesOnEveryEngine } from "./helpers.js";

// Booleans as a column type (issue 25): a file's true/false or yes/no column (any case, empty
// markers empty) comes in as a boolean column on every engine, through the store's reader and the
// DuckDB file's own CSV reader alike; rows, pushes and charts then read it as true and false.

const stores = storesOnEveryEngine();
const encode = (text: string) => new TextEncoder().encode(text);

describe.each(["sqlite", "postgres", "duckdb"])("boolean columns on %s", (engine) => {
  const store = () => storeOn(stores, engine);

  it("a yes/no and a TRUE/False column import as booleans, count by value and filter", async () => {
    const csv = "region,paid,shipped\nNorth,yes,TRUE\nSouth,No,false\nEast,YES,True\nWest,NA,\n";
    const imported = await store().importNewDataset(
      { name: `Booleans ${engine}`, source: byteChunks(encode(csv), 4) },
      editor,
    );
    const dataset = await store().getDataset(imported.datasetId);
    expect(dataset?.columns).toEqual(
      columnsOf({ region: "string", paid: "boolean", shipped: "boolean" }),
    );
    expect(dataset?.rows).toEqual([
      { region: "North", paid: "true", shipped: "true" },
      { region: "South", paid: "false", shipped: "false" },
      { region: "East", paid: "true", shipped: "true" },
      { region: "West", paid: null, shipped: null },
    ]);
    const byPaid = await store().runChartQuery(imported.datasetId, {
      x: { column: "paid" },
      measures: [{ aggregate: "count" }],
    });
    const counts = Object.fromEntries(byPaid.rows.map((row) => [String(row.x), row.m0]));
    expect(counts).toEqual({ true: 2, false: 1, null: 1 });
    const onlyPaid = await store().runChartQuery(imported.datasetId, {
      x: { column: "region" },
      measures: [{ aggregate: "count" }],
      filters: [{ column: "paid", op: "eq", value: true }],
    });
    expect(onlyPaid.rows.map((row) => row.x).sort()).toEqual(["East", "North"]);
  });

  it("rows pushed or edited as JSON booleans or words are stored as booleans; other text is refused", async () => {
    const imported = await store().importNewDataset(
      { name: `Pushed booleans ${engine}`, source: byteChunks(encode("id,ok\n1,true\n")) },
      editor,
    );
    const edited = await store().editDatasetRows(
      imported.datasetId,
      imported.version,
      {
        append: [
          { id: 2, ok: false },
          { id: 3, ok: "Yes" },
          { id: 4, ok: "no" },
        ],
      },
      editor,
    );
    const dataset = await store().getDataset(imported.datasetId);
    expect(dataset?.rows.map((row) => row.ok)).toEqual(["true", "false", "true", "false"]);
    const refused = await store()
      .editDatasetRows(
        imported.datasetId,
        edited.version,
        { append: [{ id: 5, ok: "maybe" }] },
        editor,
      )
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: "invalid" });
    expect(JSON.stringify((refused as { fieldErrors: unknown }).fieldErrors)).toContain(
      "true or false",
    );
  });
});
