import {
  type ChartForm,
  chartAnnotationSchema,
  chartFormOf,
  chartOfForm,
  chartOptionNames,
  chartQuerySchema,
  chartTypes,
  checkQuery,
  drawsOneMeasure,
  type FormColumn,
  formMeasureNames,
  formQuery,
  formShape,
  newFilterForm,
  newMeasureForm,
  numericAggregates,
  offeredOptions,
  queryAggregates,
  showsFor,
  withDefaultOptions,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  previewBlocker,
  previewView,
  typedByHand,
  withAggregate,
  withBreakdown,
  withDataset,
  withIndexColumn,
  withMeasureAggregate,
  withoutMeasure,
  withoutStaleOptions,
  withSeries,
  withType,
} from "./draft";

const seed = Number(process.env.SEED ?? 20261125);
console.log(`chart editor draft property seed: ${seed}`);

const columns: FormColumn[] = [
  { name: "day", type: "date" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
  { name: "orders", type: "number" },
  { name: "price", type: "number" },
  // a number x (never offered as a series here, as the form does not offer the index)
  { name: "year", type: "number" },
];
const numberNames = ["revenue", "orders", "price"];

const start = chartFormOf(null, { id: "sales", columns });

/** Any sequence of what a person does in the editor. */
const step: fc.Arbitrary<(draft: ChartForm) => ChartForm> = fc.oneof(
  fc
    .constantFrom(...chartTypes)
    .map((type) => (draft: ChartForm) => withType(draft, type, columns)),
  fc
    .constantFrom("day", "region", "year")
    .map((name) => (draft: ChartForm) => withIndexColumn(draft, name)),
  fc.tuple(fc.constantFrom(...numberNames), fc.boolean()).map(
    ([name, checked]) =>
      (draft: ChartForm) =>
        withSeries(draft, name, checked),
  ),
  fc.constantFrom("", "region").map((name) => (draft: ChartForm) => withBreakdown(draft, name)),
  fc
    .constantFrom("sum" as const, "none" as const, "avg" as const)
    .map((aggregate) => (draft: ChartForm) => ({ ...draft, aggregate })),
  // A further measure: added, its aggregate changed, its conditions set, or the first removed.
  fc.nat(1_000).map((key) => (draft: ChartForm) => ({
    ...draft,
    moreMeasures: [...draft.moreMeasures, newMeasureForm(key + draft.moreMeasures.length * 1_001)],
  })),
  fc
    .tuple(
      fc.constantFrom(...queryAggregates.filter((aggregate) => aggregate !== "none")),
      fc.nat(),
    )
    .map(([aggregate, at]) => (draft: ChartForm) => ({
      ...draft,
      moreMeasures: draft.moreMeasures.map((row, index) =>
        index === at % Math.max(1, draft.moreMeasures.length)
          ? withMeasureAggregate(row, aggregate as Exclude<typeof aggregate, "none">, columns)
          : row,
      ),
    })),
  fc.constant((draft: ChartForm) => ({
    ...draft,
    moreMeasures: draft.moreMeasures.map((row) => ({
      ...row,
      show: showsFor(row.aggregate).at(-1) ?? "value",
      where: [
        { ...newFilterForm(1, columns), column: "region", op: "eq" as const, value: "North" },
      ],
    })),
  })),
  fc.constant((draft: ChartForm) =>
    draft.moreMeasures[0] ? withoutMeasure(draft, draft.moreMeasures[0].key) : draft,
  ),
  fc.constant((draft: ChartForm) => ({ ...draft, stack: "stacked" as const, donut: true })),
  fc.constant((draft: ChartForm) => ({ ...draft, dateFormat: "year" as const })),
  fc.constant((draft: ChartForm) => ({ ...draft, xNumberFormat: "plain" as const })),
  fc.constant(addLaunch),
  fc.constant((draft: ChartForm) => ({
    ...draft,
    comboSeries: [
      { type: "line" as const, axis: "left" as const },
      { type: "bar" as const, axis: "right" as const },
    ],
  })),
);

/** Types an annotation: the one step that adds a row to the draft's annotations. */
function addLaunch(draft: ChartForm): ChartForm {
  const row = { key: draft.annotations.length, at: "2024-02-01", to: "", label: "Launch" };
  return { ...draft, annotations: [...draft.annotations, row] };
}

function edit(steps: ((draft: ChartForm) => ChartForm)[]): ChartForm {
  return steps.reduce((draft, change) => withoutStaleOptions(change(draft), columns), start);
}

describe("the chart editor's draft", () => {
  it("never keeps an option the chart types table does not offer for its query", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const draft = edit(steps);
        const offered = new Set(offeredOptions(draft.type, formShape(draft, columns)));
        // rows typed by hand stay while not offered: the save leaves them out instead
        const stale = chartOptionNames.filter(
          (name) => !offered.has(name) && !typedByHand.has(name),
        );
        expect(withDefaultOptions(draft, stale)).toEqual(draft);
        expect(withoutStaleOptions(draft, columns)).toBe(draft);
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("loses no typed annotation to any edit, and saves them only over a date x", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const draft = edit(steps);
        expect(draft.annotations).toHaveLength(
          steps.filter((change) => change === addLaunch).length,
        );
        const { chart } = chartOfForm(draft, columns);
        const offered = offeredOptions(draft.type, formShape(draft, columns)).includes(
          "annotations",
        );
        expect(chart.options?.annotations?.length ?? 0).toBe(
          offered ? draft.annotations.length : 0,
        );
      }),
      { seed, numRuns: 500 },
    );
  });

  it("draws each further measure as its own, and a saved chart opens with the same measures", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const draft = edit(steps);
        const query = formQuery(draft, columns);
        const more = query.measures.slice(query.measures.length - draft.moreMeasures.length);
        for (const [index, row] of draft.moreMeasures.entries()) {
          const measure = more[index];
          expect(measure?.aggregate).toBe(row.aggregate);
          // Its way of showing fits its aggregate, and an aggregate of numbers measures numbers.
          expect(showsFor(row.aggregate)).toContain(row.show);
          if (numericAggregates.includes(row.aggregate)) {
            expect(columns.find((column) => column.name === row.column)?.type).toBe("number");
          }
        }
        // Whatever the editor built comes back as it was when the saved chart is opened again.
        const parsed = chartQuerySchema.safeParse(query);
        if (
          parsed.success &&
          Object.keys(checkQuery(parsed.data, columns, draft.type)).length === 0
        ) {
          const reopened = chartFormOf(
            { title: "t", type: draft.type, datasetId: "sales", query, options: {} },
            undefined,
          );
          expect(formQuery(reopened, columns).measures).toEqual(query.measures);
        }
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("keeps an order by value on the measure it named when another measure is removed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), fc.nat(), (count, sortAt, removeAt) => {
        const draft: ChartForm = {
          ...start,
          aggregate: "sum",
          sort: "value_desc",
          moreMeasures: Array.from({ length: count }, (_, index) => ({
            ...newMeasureForm(index),
            label: `Measure ${index}`,
          })),
        };
        const names = formMeasureNames(draft, columns);
        const sorted = { ...draft, sortMeasure: String(sortAt % names.length) };
        const gone = draft.moreMeasures[removeAt % count];
        if (!gone) throw new Error("no measure to remove");
        const next = withoutMeasure(sorted, gone.key);
        const followed = names[Number(sorted.sortMeasure)];
        expect(formMeasureNames(next, columns)).not.toContain(gone.label);
        expect(formMeasureNames(next, columns)[Number(next.sortMeasure)]).toBe(
          followed === gone.label ? names[0] : followed,
        );
      }),
      { seed, numRuns: 500 },
    );
  });

  it("draws one series on a pie or with a breakdown, and never the index as a series", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const draft = edit(steps);
        // a breakdown kept in the form of a type that takes none (a combo) splits nothing
        if (drawsOneMeasure(draft)) {
          expect(draft.seriesColumns.length).toBeLessThanOrEqual(1);
        }
        expect(draft.seriesColumns).not.toContain(draft.indexColumn);
        expect(new Set(draft.seriesColumns).size).toBe(draft.seriesColumns.length);
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("turns any draft into a pie a person would draw: text slice names and sums", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const draft = edit(steps);
        const pie = withType(draft, "pie", columns);
        if (draft.type === "pie") {
          expect(pie).toEqual(draft);
          return;
        }
        // Dates make poor slice names: the text column names them instead; other choices stay.
        expect(pie.indexColumn).toBe(draft.indexColumn === "day" ? "region" : draft.indexColumn);
        expect(pie.aggregate).toBe(draft.aggregate === "none" ? "sum" : draft.aggregate);
        expect(pie.seriesColumns).toEqual(
          draft.seriesColumns.filter((name) => name !== pie.indexColumn).slice(0, 1),
        );
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("previews the annotations typed so far that the store would keep, whatever else is typed", () => {
    const typed = fc.record({
      at: fc.oneof(fc.constantFrom("2024-02-01", "2024-02-30", ""), fc.string({ maxLength: 10 })),
      to: fc.constantFrom("", "2024-03-01", "2024-01-01"),
      label: fc.oneof(fc.constantFrom("Launch", "", "  "), fc.string({ maxLength: 90 })),
    });
    fc.assert(
      fc.property(fc.array(typed, { maxLength: 6 }), (rows) => {
        const draft: ChartForm = {
          ...withIndexColumn(start, "day"),
          type: "line",
          annotations: rows.map((row, key) => ({ key, ...row })),
        };
        const { options } = previewView(draft, columns);
        const kept = rows.filter(
          (row) =>
            chartAnnotationSchema.safeParse({
              at: row.at,
              ...(row.to.trim() ? { to: row.to } : {}),
              label: row.label,
            }).success,
        );
        expect(options.annotations?.length ?? 0).toBe(kept.length);
        expect(options.annotations?.map((annotation) => annotation.label)).toEqual(
          kept.length > 0 ? kept.map((row) => row.label.trim()) : undefined,
        );
      }),
      { seed, numRuns: 500 },
    );
  });

  it("previews only options the store accepts, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 4 }), (other, digits) => {
        const draft: ChartForm = {
          ...start,
          type: "pie",
          otherPercent: other,
          formatStyle: "currency",
          formatCurrency: other,
          formatMaxDigits: digits,
        };
        const { options } = previewView(draft, columns);
        if (options.otherThreshold !== undefined) {
          expect(options.otherThreshold).toBeGreaterThanOrEqual(0);
          expect(options.otherThreshold).toBeLessThanOrEqual(0.5);
        }
        if (options.numberFormat) new Intl.NumberFormat("en-US", options.numberFormat);
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("offers plain x numbers on line, area and bar charts over a number x, and drops them otherwise", () => {
    const years: FormColumn[] = [
      { name: "year", type: "number" },
      { name: "day", type: "date" },
      { name: "people", type: "number" },
    ];
    const line = withoutStaleOptions(
      {
        ...withIndexColumn(chartFormOf(null, { id: "census", columns: years }), "year"),
        seriesColumns: ["people"],
        xNumberFormat: "plain",
      },
      years,
    );
    const offeredFor = (draft: ChartForm) =>
      offeredOptions(draft.type, formShape(draft, years)).includes("xNumberFormat");

    expect(line.xNumberFormat).toBe("plain");
    expect(previewView(line, years).options).toEqual({ xNumberFormat: "plain" });
    expect(offeredFor(withType(line, "area"))).toBe(true);
    expect(offeredFor(withType(line, "bar"))).toBe(true);
    expect(offeredFor(withType(line, "pie"))).toBe(false);
    // A pie, or dates on x: the option goes back to automatic and the preview draws without it.
    expect(withoutStaleOptions(withType(line, "pie"), years).xNumberFormat).toBe("auto");
    const byDay = withoutStaleOptions(withIndexColumn(line, "day"), years);
    expect(byDay.xNumberFormat).toBe("auto");
    expect(previewView(byDay, years).options).toEqual({});
    // Automatic restates the default, so nothing is stored for it.
    expect(previewView({ ...line, xNumberFormat: "auto" }, years).options).toEqual({});
  });

  it("starts a formula from what was drawn, saves it as the one measure and reads it back", () => {
    const summed = withSeries(
      withSeries({ ...start, aggregate: "sum" }, "orders", true),
      "price",
      true,
    );
    const drawn = summed.seriesColumns[0] as string;
    const formula = withAggregate(summed, "formula");
    expect(formula.formula).toBe(`sum([${drawn}])`);
    expect(previewBlocker(formula)).toBeNull();
    // A formula already written is kept when the aggregate comes back to it.
    const typed = { ...formula, formula: "sum([revenue]) / sum([orders])" };
    expect(withAggregate(withAggregate(typed, "avg"), "formula").formula).toBe(typed.formula);
    const query = formQuery(typed, columns);
    expect(query.measures).toEqual([
      { column: null, aggregate: "formula", formula: "sum([revenue]) / sum([orders])" },
    ]);
    expect(
      checkQuery({ filters: [], ...query } as Parameters<typeof checkQuery>[0], columns),
    ).toEqual({});
    const back = chartFormOf(
      { title: "", type: typed.type, datasetId: "sales", query, options: {} },
      undefined,
    );
    expect(back).toMatchObject({ aggregate: "formula", formula: typed.formula });
    expect(withAggregate({ ...start, seriesColumns: [] }, "formula").formula).toBe("count()");
    expect(previewBlocker({ ...typed, formula: " " })).toBe("Write a formula to see the preview.");
  });

  it("draws every series column on a combo, a breakdown kept in the form for a type that takes one", () => {
    const split = withSeries(
      withBreakdown({ ...start, aggregate: "sum" }, "region"),
      "revenue",
      true,
    );
    const combo = withSeries(withType(split, "combo", columns), "orders", true);
    expect(combo.seriesColumns).toEqual(expect.arrayContaining(["revenue", "orders"]));
    const query = chartOfForm(combo, columns).chart.query;
    expect(query?.breakdown).toBeUndefined();
    expect(query?.measures.map((measure) => measure.column)).toEqual(combo.seriesColumns);
    // back to a bar: the split is there again, over one measure
    expect(withType(combo, "bar", columns).breakdown).toBe("region");
  });

  it("starts another dataset from its own columns", () => {
    const next = withDataset(start, {
      id: "other",
      name: "Other",
      columns: [
        { name: "when", type: "date" },
        { name: "count", type: "number" },
      ],
    });
    expect(next).toMatchObject({
      datasetId: "other",
      indexColumn: "when",
      seriesColumns: ["count"],
    });
  });
});
