import {
  acceptedOptions,
  type ChartInput,
  ConflictError,
  chartTypeSpecs,
  chartTypes,
  InUseError,
  offeredOptions,
  ValidationError,
} from "@seed/model";
import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { createChartAndDataset, dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

/** A bar chart of orders by region, for createChartAndDataset. */
const ordersByRegion: Partial<ChartInput> = {
  title: "Orders",
  type: "bar",
  indexColumn: "region",
  seriesColumns: ["orders"],
};

const launch = { at: "2024-02-01", label: "Launch" };
/** Annotations each refused on one field: a day no calendar has, a band ending before it starts, no text, too long a text, too many, one key too many, and a pie. */
const annotationCases = [
  {
    type: "line",
    options: { annotations: [{ ...launch, at: "2024-02-30" }] },
    field: "options.annotations.0.at",
  },
  {
    type: "line",
    options: { annotations: [launch, { ...launch, at: "1 March" }] },
    field: "options.annotations.1.at",
  },
  {
    type: "bar",
    options: { annotations: [{ ...launch, to: "2024-01-31" }] },
    field: "options.annotations.0.to",
  },
  {
    type: "area",
    options: { annotations: [{ ...launch, label: "   " }] },
    field: "options.annotations.0.label",
  },
  {
    type: "line",
    options: { annotations: [{ ...launch, label: "x".repeat(81) }] },
    field: "options.annotations.0.label",
  },
  {
    type: "line",
    options: { annotations: Array.from({ length: 31 }, () => launch) },
    field: "options.annotations",
  },
  {
    type: "line",
    options: { annotations: [{ ...launch, html: "<b>x</b>" }] },
    field: "options.annotations.0",
  },
  { type: "line", options: { annotations: launch }, field: "options.annotations" },
  { type: "pie", options: { annotations: [launch] }, field: "options.annotations" },
] as const;

const belowZero = { measure: 0, when: "below", value: 0, tone: "bad" } as const;
/** Colour rules each refused on one field: a measure the query lacks, no number, a tone or words it cannot take, and a line. */
const colorRuleCases = [
  {
    type: "table",
    options: { colorRules: [belowZero, { ...belowZero, measure: 1 }] },
    field: "options.colorRules.1.measure",
  },
  {
    type: "table",
    options: { colorRules: [{ ...belowZero, value: "zero" }] },
    field: "options.colorRules.0.value",
  },
  {
    type: "table",
    options: { colorRules: [{ ...belowZero, tone: "purple" }] },
    field: "options.colorRules.0.tone",
  },
  {
    type: "table",
    options: { colorRules: [{ ...belowZero, label: "x".repeat(41) }] },
    field: "options.colorRules.0.label",
  },
  {
    type: "table",
    options: { colorRules: Array.from({ length: 11 }, () => belowZero) },
    field: "options.colorRules",
  },
  { type: "line", options: { colorRules: [belowZero] }, field: "options.colorRules" },
] as const;

describe.each(dialects)("charts on %s", (dialect) => {
  it("refuses options a chart type does not take, from the one chart-types table", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const base = { datasetId: dataset.id, indexColumn: "month", seriesColumns: ["revenue"] };
    const cases = [
      { type: "line", options: { donut: true }, field: "options.donut" },
      { type: "pie", options: { stack: "stacked" }, field: "options.stack" },
      { type: "area", options: { horizontal: true }, field: "options.horizontal" },
      { type: "bar", options: { curve: "step" }, field: "options.curve" },
      { type: "pie", options: { xNumberFormat: "plain" }, field: "options.xNumberFormat" },
    ] as const;
    for (const { type, options, field } of cases) {
      const error = await errorOf(
        store.createChart({ ...base, title: type, type, options }, editor),
      );
      expect(
        (error as { fieldErrors?: Record<string, string[]> }).fieldErrors?.[field],
        type,
      ).toHaveLength(1);
    }
    expect(await store.listCharts()).toEqual([]);
    // What each type accepts for a date x passes, and is stored as given (a pie draws one series).
    const monthShape = { series: "many", timeIndex: true, numberIndex: false } as const;
    for (const type of chartTypes) {
      const spec = chartTypeSpecs[type];
      const options = acceptedOptions(
        type,
        {
          stack: "stacked" as const,
          horizontal: true,
          curve: "step" as const,
          donut: true,
          showLegend: false,
          legendPosition: "left" as const,
          valueLabels: spec.valueLabels.at(-1) ?? "none",
          otherThreshold: 0.05,
          locale: "de-DE" as const,
          dateFormat: "month" as const,
          xNumberFormat: "plain" as const,
          gaps: "connect" as const,
          numberFormat: { style: "decimal" as const, maximumFractionDigits: 1 },
          annotations: [
            { at: "2024-02-01", label: "Launch" },
            { at: "2024-03-01", to: "2024-03-31", label: "Spring sale" },
          ],
          // the chart's own dataset holds events too: its months, named by region
          annotationSource: { datasetId: dataset.id, at: "month", label: "region" },
          colorRules: [{ measure: 1, when: "above" as const, value: 100, tone: "good" as const }],
          pageSize: 25 as const,
          comboSeries: [
            { type: "line" as const },
            { type: "bar" as const, axis: "right" as const },
          ],
        },
        monthShape,
      );
      const seriesColumns = spec.accepts.multipleMeasures ? ["revenue", "orders"] : ["revenue"];
      const created = await store.createChart(
        { ...base, seriesColumns, title: type, type, options },
        editor,
      );
      expect(Object.keys(created.options).sort(), type).toEqual(
        offeredOptions(type, monthShape).sort(),
      );
      expect((await store.getChart(created.id))?.options, type).toEqual(options);
    }
  });

  it("refuses bad values of legend, labels, Other, locale, date format and annotations, each on its field", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const base = { datasetId: dataset.id, indexColumn: "month", seriesColumns: ["revenue"] };
    const cases = [
      { type: "line", options: { legendPosition: "middle" }, field: "options.legendPosition" },
      { type: "bar", options: { valueLabels: "percent" }, field: "options.valueLabels" },
      { type: "line", options: { valueLabels: "value" }, field: "options.valueLabels" },
      { type: "pie", options: { valueLabels: "everything" }, field: "options.valueLabels" },
      { type: "pie", options: { otherThreshold: 0.9 }, field: "options.otherThreshold" },
      { type: "pie", options: { otherThreshold: -0.01 }, field: "options.otherThreshold" },
      { type: "pie", options: { otherThreshold: "3" }, field: "options.otherThreshold" },
      { type: "bar", options: { otherThreshold: 0.05 }, field: "options.otherThreshold" },
      { type: "area", options: { locale: "xx-XX" }, field: "options.locale" },
      { type: "area", options: { locale: "de-DE".repeat(50) }, field: "options.locale" },
      { type: "line", options: { dateFormat: "fortnight" }, field: "options.dateFormat" },
      { type: "bar", options: { xNumberFormat: "roman" }, field: "options.xNumberFormat" },
      ...annotationCases,
      ...colorRuleCases,
    ] as const;
    for (const { type, options, field } of cases) {
      const error = await errorOf(
        store.createChart(
          { ...base, title: type, type, options: options as Record<string, unknown> },
          editor,
        ),
      );
      expect(error, `${type} ${field}`).toBeInstanceOf(ValidationError);
      expect(Object.keys((error as ValidationError).fieldErrors), `${type} ${field}`).toEqual([
        field,
      ]);
    }
    expect(await store.listCharts()).toEqual([]);
  });

  it("drops options the query does not draw: stacking one series, date formats of a non-date x", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const options = {
      stack: "stacked",
      dateFormat: "year",
      valueLabels: "value",
      annotations: [{ at: "2024-02-01", label: "Launch" }] as { at: string; label: string }[],
    } as const;
    const oneSeries = await store.createChart(
      {
        title: "One series",
        type: "bar",
        datasetId: dataset.id,
        indexColumn: "region",
        seriesColumns: ["revenue"],
        options,
      },
      editor,
    );
    const split = await store.createChart(
      {
        title: "Split by region",
        type: "bar",
        datasetId: dataset.id,
        query: {
          x: { column: "month", grain: "month" },
          measures: [{ column: "revenue", aggregate: "sum" }],
          breakdown: { column: "region", top: 5 },
        },
        options,
      },
      editor,
    );

    expect((await store.getChart(oneSeries.id))?.options).toEqual({ valueLabels: "value" });
    expect((await store.getChart(split.id))?.options).toEqual(options);
    // A change of columns drops what no longer applies; the rest stays.
    const updated = await store.updateChart(
      split.id,
      1,
      { query: { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] } },
      editor,
    );
    expect(updated.options).toEqual({ valueLabels: "value" });
    expect((await store.getChart(split.id))?.options).toEqual({ valueLabels: "value" });
  });

  it("keeps the x number format over a number x only", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const input = {
      title: "Revenue by orders",
      type: "line" as const,
      datasetId: dataset.id,
      indexColumn: "orders",
      seriesColumns: ["revenue"],
      options: { xNumberFormat: "plain" as const },
    };
    const byOrders = await store.createChart(input, editor);
    const byMonth = await store.createChart({ ...input, indexColumn: "month" }, editor);

    expect((await store.getChart(byOrders.id))?.options).toEqual({ xNumberFormat: "plain" });
    expect((await store.getChart(byMonth.id))?.options).toEqual({});
  });

  it("creates a chart over existing columns and reads it back", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);

    const chart = await store.createChart(
      {
        title: "Revenue and orders",
        type: "area",
        datasetId: dataset.id,
        indexColumn: "month",
        seriesColumns: ["revenue", "orders"],
        options: {
          stack: "stacked",
          curve: "monotone",
          numberFormat: { style: "currency", currency: "EUR" },
        },
      },
      editor,
    );

    expect(await store.getChart(chart.id)).toEqual(chart);
    expect(chart).toMatchObject({ version: 1, seriesColumns: ["revenue", "orders"] });
    expect((await store.listCharts({ datasetId: dataset.id })).map((item) => item.id)).toEqual([
      chart.id,
    ]);
  });

  it("keeps 100% stacking and horizontal bars, and names an unknown stacking", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const input = {
      title: "Share of revenue",
      type: "bar" as const,
      datasetId: dataset.id,
      indexColumn: "month",
      seriesColumns: ["revenue", "orders"],
    };

    const chart = await store.createChart(
      { ...input, options: { stack: "percent", horizontal: true } },
      editor,
    );
    const error = await errorOf(
      store.createChart({ ...input, options: { stack: "sideways" as "percent" } }, editor),
    );

    expect((await store.getChart(chart.id))?.options).toEqual({
      stack: "percent",
      horizontal: true,
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors["options.stack"]).toEqual([
      "Stacking must be none, stacked or percent.",
    ]);
    expect(await store.listCharts()).toHaveLength(1);
  });

  it("names the fields when columns are missing or not numbers", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);

    const error = await errorOf(
      store.createChart(
        {
          title: "Broken",
          type: "line",
          datasetId: dataset.id,
          indexColumn: "week",
          seriesColumns: ["region", "profit"],
        },
        editor,
      ),
    );

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual({
      indexColumn: ['The dataset has no column "week".'],
      seriesColumns: [
        '"region" is a string column; raw series needs numbers.',
        'The dataset has no column "profit".',
      ],
    });
    expect(await store.listCharts()).toEqual([]);
  });

  it("allows exactly one series on a pie chart", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);

    const error = await errorOf(
      store.createChart(
        {
          title: "Share",
          type: "pie",
          datasetId: dataset.id,
          indexColumn: "region",
          seriesColumns: ["revenue", "orders"],
        },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors.seriesColumns).toEqual([
      "A pie chart shows exactly one series column.",
    ]);
  });

  it("keeps a table's colour rules as given, and its rows are the query's", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    const colorRules = [
      { measure: 0, when: "at_or_above", value: 1e6, tone: "good", label: "a million" },
      { ...belowZero, value: -0.5 },
    ] as const;
    const table = await store.createChart(
      {
        title: "Revenue table",
        type: "table",
        datasetId: dataset.id,
        indexColumn: "month",
        seriesColumns: ["revenue"],
        options: { colorRules: [...colorRules] },
      },
      editor,
    );
    expect(table.options.colorRules).toEqual(colorRules);
    expect((await store.getChart(table.id))?.options.colorRules).toEqual(colorRules);
    const result = await store.runChartQuery(dataset.id, table.query);
    expect(result.series.map((entry) => entry.key)).toEqual(["m0"]);
  });

  it("reports an unknown dataset on the datasetId field", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const error = await errorOf(
      store.createChart(
        { title: "Orphan", type: "bar", datasetId: "nope", indexColumn: "a", seriesColumns: ["b"] },
        editor,
      ),
    );

    expect((error as ValidationError).fieldErrors).toEqual({
      datasetId: ["Choose an existing dataset."],
    });
  });

  it("updates a chart with a version check and validates the merged result", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store, ordersByRegion);

    const updated = await store.updateChart(
      chart.id,
      1,
      { type: "pie", title: "Order share" },
      editor,
    );
    const invalid = await errorOf(
      store.updateChart(chart.id, 2, { seriesColumns: ["orders", "revenue"] }, editor),
    );
    const stale = await errorOf(store.updateChart(chart.id, 1, { title: "Late" }, editor));

    expect(updated).toMatchObject({ type: "pie", title: "Order share", version: 2 });
    expect((invalid as ValidationError).fieldErrors.seriesColumns).toEqual([
      "A pie chart shows exactly one series column.",
    ]);
    expect(stale).toBeInstanceOf(ConflictError);
    expect((await store.getChart(chart.id))?.title).toBe("Order share");
  });

  it("refuses to delete a chart shown on a dashboard, deletes it once removed", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store, ordersByRegion);
    const dashboard = await store.createDashboard(
      { title: "Ops", slug: "ops", tiles: [{ kind: "chart", chartId: chart.id }] },
      editor,
    );

    const inUse = await errorOf(store.deleteChart(chart.id, 1, editor));
    const tileId = dashboard.tiles[0]?.id ?? "";
    await store.removeDashboardTile(dashboard.id, 1, tileId, editor);
    await store.deleteChart(chart.id, 1, editor);

    expect(inUse).toBeInstanceOf(InUseError);
    expect((inUse as InUseError).usedBy).toEqual([
      { entityType: "dashboard", id: dashboard.id, title: "Ops" },
    ]);
    expect(await store.getChart(chart.id)).toBeNull();
  });
});
