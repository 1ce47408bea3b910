import { type CalculatedFieldInput, type ChartQueryInput, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { editor } from "./actors.js";
import { errorOf, salesInput, storesOnEveryEngine } from "./helpers.js";

// Calculated fields (issue 26): kept with the dataset, checked with messages that point at the
// place, and usable wherever a query names a column: x, measure, breakdown, filter, stat tile and
// dashboard filter, with the same answers on SQLite, PostgreSQL and DuckDB.

const fields = [
  { name: "price", expression: "[revenue] / [orders]" },
  { name: "big", expression: "[revenue] >= 120" },
  { name: "half", expression: 'if(month([month]) <= 2, "early", "late")' },
  { name: "next month", expression: 'dateAdd([month], 1, "month")' },
];

/** The Sales dataset with these calculated fields, made and changed by `editor`. */
async function salesWithFields(store: Store, calculatedFields: CalculatedFieldInput[]) {
  const created = await store.createDataset(salesInput(), editor);
  return store.updateDataset(created.id, created.version, { calculatedFields }, editor);
}

describe("calculated fields", () => {
  const stores = storesOnEveryEngine();

  it("refuses a bad list with an error on each field at fault, and writes nothing", async () => {
    for (const { store } of stores) {
      const dataset = await store.createDataset(salesInput(), editor);
      const error = await errorOf(
        store.updateDataset(
          dataset.id,
          dataset.version,
          {
            calculatedFields: [
              { name: "price", expression: "[revenue] / [order]" },
              { name: "region", expression: "1" },
              { name: "odd", expression: '[revenue] + "a"' },
              { name: "odd", expression: "[orders] +" },
              { name: "fine", expression: "[orders] * 2" },
            ],
          },
          editor,
        ),
      );
      expect(error).toBeInstanceOf(ValidationError);
      const errors = (error as ValidationError).fieldErrors;
      expect(errors["calculatedFields.0.expression"]?.[0]).toContain(
        'Unknown column "order" at 13–19',
      );
      expect(errors["calculatedFields.1.name"]).toEqual([
        '"region" is already a column of the dataset; pick another name.',
      ]);
      expect(errors["calculatedFields.2.expression"]?.[0]).toMatch(/at 13–15/);
      expect(errors["calculatedFields.3.name"]).toEqual(['Field name "odd" is used twice.']);
      expect(errors["calculatedFields.3.expression"]).toHaveLength(1);
      expect(Object.keys(errors).some((key) => key.startsWith("calculatedFields.4"))).toBe(false);
      const after = await store.getDataset(dataset.id);
      expect(after?.version).toBe(dataset.version);
      expect(after?.calculatedFields).toEqual([]);
    }
  });

  it("answer queries wherever a column goes, the same on every engine", async () => {
    const answers: unknown[] = [];
    for (const { store } of stores) {
      const dataset = await salesWithFields(store, fields);
      expect(
        dataset.calculatedFields.map(({ name, type, problem }) => [name, type, problem]),
      ).toEqual([
        ["price", "number", null],
        ["big", "boolean", null],
        ["half", "string", null],
        ["next month", "date", null],
      ]);
      const run = (query: ChartQueryInput) => store.runChartQuery(dataset.id, query);
      const byMonth = await run({
        x: { column: "month", grain: "month" },
        measures: [{ column: "price", aggregate: "avg" }],
        filters: [{ column: "price", op: "gte", value: 24.5 }],
      });
      expect(byMonth.rows.map((row) => [row.x, row.m0])).toEqual([
        ["2025-01-01", 25],
        ["2025-02-01", 25],
      ]);
      const byHalf = await run({
        x: { column: "half" },
        measures: [{ column: "revenue", aggregate: "sum" }],
      });
      expect(byHalf.rows.map((row) => [row.x, row.m0])).toEqual([
        ["early", 250],
        ["late", 120],
      ]);
      const broken = await run({
        x: { column: "next month" },
        measures: [{ column: "orders", aggregate: "sum" }],
        breakdown: { column: "big" },
      });
      const rendered = await store.createDashboard(
        {
          title: "Prices",
          slug: `prices-${dataset.id.slice(0, 8)}`,
          published: true,
          tiles: [
            {
              kind: "stat",
              label: "Median price",
              datasetId: dataset.id,
              column: "price",
              aggregation: "median",
              filters: [{ column: "big", op: "eq", value: false }],
            },
          ],
          filters: { dateColumn: "next month", categories: ["half"] },
        },
        editor,
      );
      const page = await store.getDashboardBySlug(rendered.slug);
      expect(page?.tiles[0]).toMatchObject({ value: 25 });
      // A calculated text field offers its values as a category filter, on every engine.
      expect(page?.filterBar.categories[0]?.values.length).toBeGreaterThan(0);
      answers.push([byMonth.rows, byHalf.rows, broken.series, broken.rows]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("a new expression answers at once (the cached answer is of the old version)", async () => {
    for (const { store } of stores) {
      const first = await salesWithFields(store, [
        { name: "price", expression: "[revenue] / [orders]" },
      ]);
      const query: ChartQueryInput = {
        x: { column: "region" },
        measures: [{ column: "price", aggregate: "max" }],
      };
      const before = await store.runChartQuery(first.id, query);
      expect(before.rows.map((row) => [row.x, row.m0])).toEqual([
        ["North", 25],
        ["South", 25],
      ]);
      await store.updateDataset(
        first.id,
        first.version,
        { calculatedFields: [{ name: "price", expression: "[revenue] * 2" }] },
        editor,
      );
      const after = await store.runChartQuery(first.id, query);
      expect(after.rows.map((row) => [row.x, row.m0])).toEqual([
        ["North", 240],
        ["South", 300],
      ]);
    }
  });

  it("keeps the charts on a field working: removing it is refused, a broken one says why", async () => {
    for (const { store } of stores) {
      const dataset = await salesWithFields(store, fields);
      await store.createChart(
        {
          title: "Price by month",
          type: "line",
          datasetId: dataset.id,
          query: { x: { column: "region" }, measures: [{ column: "price", aggregate: "avg" }] },
        },
        editor,
      );
      const removed = await errorOf(
        store.updateDataset(dataset.id, dataset.version, { calculatedFields: [] }, editor),
      );
      expect((removed as ValidationError).fieldErrors.calculatedFields).toEqual([
        'Chart "Price by month" would break: The dataset has no column "price".',
      ]);
      // Retyping a column the chart does not use but a field does: the field says why it broke.
      const input = salesInput();
      const unused = await store.updateDataset(
        dataset.id,
        dataset.version,
        {
          columns: input.columns.map((column) =>
            column.name === "month" ? { ...column, type: "string" as const } : column,
          ),
          rows: input.rows,
        },
        editor,
      );
      expect(unused.calculatedFields.find((field) => field.name === "half")).toMatchObject({
        type: null,
        problem: '"month" takes a date or a timestamp, got text at 10–16.',
      });
    }
  });

  it("bounds a formula that repeats a large field, as the field's own expression is bounded", async () => {
    for (const { store } of stores) {
      const big = `${"[revenue] + ".repeat(160)}1`;
      const dataset = await salesWithFields(store, [{ name: "f", expression: big }]);
      const run = (times: number) =>
        store.runChartQuery(dataset.id, {
          x: { column: "region" },
          measures: [
            {
              column: null,
              aggregate: "formula",
              formula: Array.from({ length: times }, () => "sum([f])").join(" + "),
            },
          ],
        });
      const fine = await run(2);
      expect(fine.rows.map((row) => row.m0)).toEqual([2 * (220 * 160 + 2), 2 * (150 * 160 + 1)]);
      const refused = await errorOf(run(71));
      expect((refused as ValidationError).fieldErrors.query).toEqual([
        "The formula is too complex to run: the calculated fields it names repeat too many of their parts.",
      ]);
    }
  });
});
