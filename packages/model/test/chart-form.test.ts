import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acceptedOptions,
  type ChartOptions,
  type ChartQueryInput,
  chartFormOf,
  chartFormSchema,
  chartInputSchema,
  chartLimits,
  chartLocales,
  chartOfForm,
  chartOptionDefaults,
  chartOptionsSchema,
  chartTypeSpecs,
  chartTypes,
  colorRuleConditions,
  comboAxes,
  comboMarks,
  comboSeriesOf,
  curveTypes,
  dateFormats,
  type FormColumn,
  formShape,
  gapModes,
  isIsoDay,
  legendPositions,
  optionsWithDefaults,
  type QueryFilter,
  stackModes,
  tablePageSizes,
  thresholdTones,
  valueLabelModes,
  withDefaultOptions,
  xNumberFormats,
} from "../src/index.js";

const seed = Number(process.env.SEED ?? 20261125);
console.log(`chart-form property seed: ${seed}`);

const columns: FormColumn[] = [
  { name: "day", type: "date" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
  { name: "orders", type: "number" },
  { name: "year", type: "number" },
];

/** A calendar day from 1900 to 2100, as yyyy-mm-dd. */
const dayArbitrary = fc
  .date({
    min: new Date("1900-01-01T00:00:00Z"),
    max: new Date("2100-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));

/** Stored annotations: a day, or a first and last day, and a text as the store keeps it (trimmed). */
const annotationsArbitrary = fc.array(
  fc
    .record(
      {
        at: dayArbitrary,
        to: dayArbitrary,
        label: fc
          .string({
            minLength: 1,
            maxLength: chartLimits.maxAnnotationLabel,
            unit: "grapheme-ascii",
          })
          .map((text) => text.trim())
          .filter((text) => text !== ""),
      },
      { requiredKeys: ["at", "label"] },
    )
    .map((annotation) =>
      annotation.to !== undefined && annotation.to < annotation.at
        ? { ...annotation, at: annotation.to, to: annotation.at }
        : annotation,
    ),
  { minLength: 1, maxLength: chartLimits.maxAnnotations },
);

/** Stored colour rules of the first measure: any finite number, words or none. */
const colorRulesArbitrary = fc.array(
  fc.record(
    {
      measure: fc.constant(0),
      when: fc.constantFrom(...colorRuleConditions),
      // -0 reads back as 0
      value: fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => value + 0),
      tone: fc.constantFrom(...thresholdTones),
      label: fc
        .string({ minLength: 1, maxLength: chartLimits.maxColorRuleLabel, unit: "grapheme-ascii" })
        .map((text) => text.trim())
        .filter((text) => text !== ""),
    },
    { requiredKeys: ["measure", "when", "value", "tone"] },
  ),
  { minLength: 1, maxLength: chartLimits.maxColorRules },
);

const optionsArbitrary: fc.Arbitrary<ChartOptions> = fc.record(
  {
    stack: fc.constantFrom(...stackModes),
    horizontal: fc.boolean(),
    curve: fc.constantFrom(...curveTypes),
    donut: fc.boolean(),
    showLegend: fc.boolean(),
    legendPosition: fc.constantFrom(...legendPositions),
    valueLabels: fc.constantFrom(...valueLabelModes),
    otherThreshold: fc.integer({ min: 0, max: 5_000 }).map((basis) => basis / 10_000),
    locale: fc.constantFrom(...chartLocales),
    dateFormat: fc.constantFrom(...dateFormats),
    xNumberFormat: fc.constantFrom(...xNumberFormats),
    gaps: fc.constantFrom(...gapModes),
    annotations: annotationsArbitrary,
    // events from another dataset, its columns as saved (trimmed), a last day or not
    annotationSource: fc.record(
      {
        datasetId: fc.constantFrom("events", "d-2"),
        at: fc.constantFrom("day", "launched at"),
        to: fc.constantFrom("until", "ended"),
        label: fc.constantFrom("what", "headline"),
      },
      { requiredKeys: ["datasetId", "at", "label"] },
    ),
    colorRules: colorRulesArbitrary,
    pageSize: fc.constantFrom(...tablePageSizes),
    // as many entries as the fewest measures a query here has (one), each key said or not
    comboSeries: fc.array(
      fc.record(
        { type: fc.constantFrom(...comboMarks), axis: fc.constantFrom(...comboAxes) },
        { requiredKeys: [] },
      ),
      { maxLength: 1 },
    ),
    numberFormat: fc.oneof(
      fc.constant({ notation: "compact" as const }),
      fc.record({ style: fc.constantFrom("decimal" as const, "percent" as const) }),
      fc.record({
        style: fc.constant("currency" as const),
        currency: fc.constantFrom("USD", "EUR", "JPY"),
        maximumFractionDigits: fc.integer({ min: 0, max: 20 }),
      }),
    ),
  },
  { requiredKeys: [] },
);

const queryArbitrary: fc.Arbitrary<ChartQueryInput> = fc.record({
  x: fc.oneof(
    fc.constant({ column: "day" }),
    fc.constant({ column: "day", grain: "month" as const }),
    fc.constant({ column: "region" }),
    fc.constant({ column: "year" }),
  ),
  measures: fc
    .tuple(
      fc.constantFrom(
        [{ column: "revenue", aggregate: "sum" as const }],
        [
          { column: "revenue", aggregate: "avg" as const },
          { column: "orders", aggregate: "avg" as const },
        ],
      ),
      // The rows every measure counts ("count where"), the same for each as the form keeps them.
      fc.option(
        fc.constantFrom<QueryFilter[]>(
          [{ column: "region", op: "eq", value: "North" }],
          [
            { column: "orders", op: "gt", value: 10 },
            { column: "region", op: "in", values: ["North", "East"] },
          ],
          [
            {
              column: "day",
              op: "relative",
              unit: "day",
              which: "last_n",
              n: 30,
              anchor: "latest",
            },
          ],
          [{ column: "revenue", op: "not_empty" }],
        ),
        { nil: undefined },
      ),
    )
    .map(([measures, where]) =>
      measures.map((measure) => (where ? { ...measure, where } : measure)),
    ),
  filters: fc.constant([]),
});

/** What a stored chart means once defaults are filled in and only accepted options count. */
function meaning(type: (typeof chartTypes)[number], options: ChartOptions, query: ChartQueryInput) {
  const form = chartFormOf({ title: "t", type, datasetId: "d", query, options }, undefined);
  return drawn(
    type,
    acceptedOptions(type, options, formShape(form, columns)),
    query.measures.length,
  );
}

/**
 * Options as drawn: defaults filled in, no legend position for a hidden legend, and a combo's
 * bars and lines for each of its measures.
 */
function drawn(type: (typeof chartTypes)[number], options: ChartOptions, measures: number) {
  const { legendPosition, comboSeries, ...rest } = optionsWithDefaults(type, options);
  const combo = type === "combo" ? { comboSeries: comboSeriesOf(comboSeries, measures) } : {};
  return rest.showLegend ? { ...rest, legendPosition, ...combo } : { ...rest, ...combo };
}

describe("the chart <-> editor form converter", () => {
  it("turns any stored chart into a form and back into a chart that draws the same", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...chartTypes),
        optionsArbitrary,
        queryArbitrary,
        (type, options, query) => {
          const form = chartFormOf(
            { title: "Sales", type, datasetId: "d1", query, options },
            undefined,
          );
          expect(chartFormSchema.safeParse(form).success).toBe(true);
          const { chart, fieldErrors } = chartOfForm(form, columns);
          expect(fieldErrors).toEqual({});
          // a type of one measure (a pie, a calendar) draws the first
          const single = !chartTypeSpecs[type].accepts.multipleMeasures
            ? { ...query, measures: query.measures.slice(0, 1) }
            : query;
          // a grain the type takes none of (a scatter's x is a position) is not asked for
          const { grain, ...ungrained } = single.x;
          expect(chart.query?.x).toEqual(
            grain !== undefined && !chartTypeSpecs[type].accepts.grain ? ungrained : single.x,
          );
          expect(chart.query?.measures).toEqual(single.measures);
          expect(chartOptionsSchema.safeParse(chart.options).success).toBe(true);
          // Only what the form can express is compared: the shape the query draws decides the rest.
          expect(drawn(type, chart.options ?? {}, single.measures.length)).toEqual(
            meaning(type, options, single),
          );
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it("gives back any list of measures as it was, each with its own aggregate and conditions", () => {
    const conditions: QueryFilter[][] = [
      [{ column: "region", op: "eq", value: "North" }],
      [
        { column: "orders", op: "gt", value: 10 },
        { column: "region", op: "in", values: ["North", "East"] },
      ],
      [{ column: "day", op: "relative", unit: "day", which: "last_n", n: 30, anchor: "latest" }],
    ];
    const measure = fc
      .record({
        column: fc.constantFrom<string | null>("revenue", "orders", null),
        aggregate: fc.constantFrom(
          "sum" as const,
          "count" as const,
          "avg" as const,
          "median" as const,
          "p90" as const,
          "formula" as const,
        ),
        label: fc.option(fc.constantFrom("Late orders", "Median basket", "Å share"), {
          nil: undefined,
        }),
        where: fc.option(fc.constantFrom(...conditions), { nil: undefined }),
        show: fc.option(
          fc.constantFrom(
            "share_of_total" as const,
            "running_total" as const,
            "change_from_previous" as const,
          ),
          { nil: undefined },
        ),
      })
      // Only measures the store accepts: a column except for counts of rows and formulas, and
      // shares and running totals of sums and counts.
      .map(({ column, aggregate, label, where, show }) => ({
        column:
          aggregate === "formula" ? null : aggregate === "count" ? column : (column ?? "revenue"),
        aggregate,
        ...(label ? { label } : {}),
        ...(aggregate === "formula" ? { formula: "sum([revenue]) / sum([orders])" } : {}),
        ...(where ? { where } : {}),
        ...(show &&
        (show === "change_from_previous" || aggregate === "sum" || aggregate === "count")
          ? { show }
          : {}),
      }));
    fc.assert(
      fc.property(
        fc.constantFrom("line" as const, "bar" as const, "area" as const),
        fc.array(measure, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (type, measures, sortAt) => {
          const sort = {
            by: "value" as const,
            direction: "desc" as const,
            measure: sortAt % measures.length,
          };
          const query: ChartQueryInput = {
            x: { column: "region" },
            measures,
            filters: [],
            sort: sort.measure === 0 ? { by: "value", direction: "desc" } : sort,
          };
          const form = chartFormOf(
            { title: "t", type, datasetId: "d1", query, options: {} },
            undefined,
          );
          expect(chartFormSchema.safeParse(form).success).toBe(true);
          const { chart } = chartOfForm(form, columns);
          expect(chart.query?.measures).toEqual(measures);
          expect(chart.query?.sort).toEqual(query.sort);
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it("stores no option that only restates a default", () => {
    for (const type of chartTypes) {
      const query = {
        x: { column: "day" },
        measures: [{ column: "revenue", aggregate: "sum" as const }],
      };
      const form = chartFormOf(
        { title: "t", type, datasetId: "d1", query, options: {} },
        undefined,
      );
      const { chart } = chartOfForm(form, columns);
      expect(chart.options).toEqual({});
    }
  });

  it("puts a form back to its defaults option by option", () => {
    const form = chartFormOf(
      {
        title: "t",
        type: "bar",
        datasetId: "d",
        query: { x: { column: "region" }, measures: [{ column: "revenue", aggregate: "sum" }] },
        options: { stack: "stacked", locale: "de-DE", numberFormat: { notation: "compact" } },
      },
      undefined,
    );
    const reset = withDefaultOptions(form, ["stack", "numberFormat"]);
    expect(reset.stack).toBe(chartOptionDefaults.stack);
    expect(reset.formatStyle).toBe("");
    expect(reset.locale).toBe("de-DE");
  });

  it("keeps typed annotations, names every bad one at its row and field, and lets the good pass", () => {
    // Rows as people type them: good days, days no calendar has, text, blanks, long texts.
    const typedDay = fc.oneof(
      dayArbitrary,
      fc.constantFrom("", " 2024-02-01 ", "2024-02-30", "2023-02-29", "2024-13-01", "1 March"),
      fc.string({ maxLength: 12 }),
    );
    const rowArbitrary = fc.record({
      at: typedDay,
      to: fc.oneof(fc.constant(""), typedDay),
      label: fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.string({ minLength: 78, maxLength: 84, unit: "grapheme-ascii" }),
        fc.constantFrom("", "   ", " Launch "),
      ),
    });
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 8 }), (rows) => {
        const form = {
          ...chartFormOf(null, { id: "d1", columns }),
          type: "line" as const,
          indexColumn: "day",
          annotations: rows.map((row, key) => ({ key, ...row })),
        };
        expect(chartFormSchema.safeParse(form).success).toBe(true);
        const { chart } = chartOfForm(form, columns);
        const parsed = chartInputSchema.safeParse(chart);
        const bad = new Set(
          parsed.success
            ? []
            : parsed.error.issues.map((issue) => issue.path.slice(0, 4).join(".")),
        );
        rows.forEach((row, index) => {
          const at = row.at.trim();
          const to = row.to.trim();
          const label = row.label.trim();
          const fine = {
            at: isIsoDay(at),
            to: to === "" || (isIsoDay(to) && (!isIsoDay(at) || to >= at)),
            label: label.length >= 1 && label.length <= chartLimits.maxAnnotationLabel,
          };
          for (const field of ["at", "to", "label"] as const) {
            expect(
              bad.has(`options.annotations.${index}.${field}`),
              `${index}.${field} ${JSON.stringify(row)}`,
            ).toBe(!fine[field]);
          }
        });
        if (parsed.success) {
          expect(parsed.data.options.annotations).toEqual(
            rows.length === 0
              ? undefined
              : rows.map((row) => ({
                  at: row.at.trim(),
                  ...(row.to.trim() ? { to: row.to.trim() } : {}),
                  label: row.label.trim(),
                })),
          );
        }
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("keeps typed colour rules, names every bad one at its row and field, and lets the good pass", () => {
    // Rows as people type them: numbers in any spelling, blanks, words, a measure the query lacks.
    const rowArbitrary = fc.record({
      measure: fc.constantFrom("0", "1", "2", "7"),
      when: fc.constantFrom(...colorRuleConditions),
      value: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
        fc.constantFrom("", "  ", " 12 ", "1e3", "-0.5", "abc", "1,5", "Infinity", "NaN", "0x10"),
      ),
      tone: fc.constantFrom(...thresholdTones),
      label: fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.string({ minLength: 38, maxLength: 44, unit: "grapheme-ascii" }),
        fc.constantFrom("", "   ", " loss "),
      ),
    });
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 6 }), (rows) => {
        const form = {
          ...chartFormOf(null, { id: "d1", columns }),
          type: "table" as const,
          indexColumn: "region",
          seriesColumns: ["revenue", "orders"],
          aggregate: "sum" as const,
          colorRules: rows.map((row, key) => ({ key, ...row })),
        };
        expect(chartFormSchema.safeParse(form).success).toBe(true);
        const { chart, fieldErrors } = chartOfForm(form, columns);
        const parsed = chartInputSchema.safeParse(chart);
        const bad = new Set([
          ...Object.keys(fieldErrors),
          ...(parsed.success
            ? []
            : parsed.error.issues.map((issue) => issue.path.slice(1, 4).join("."))),
        ]);
        rows.forEach((row, index) => {
          const value = row.value.trim();
          const label = row.label.trim();
          const fine = {
            measure: Number(row.measure) < 2,
            value: value !== "" && Number.isFinite(Number(value)),
            label: label.length <= chartLimits.maxColorRuleLabel,
          };
          for (const field of ["measure", "value", "label"] as const) {
            expect(
              bad.has(`colorRules.${index}.${field}`),
              `${index}.${field} ${JSON.stringify(row)}`,
            ).toBe(!fine[field]);
          }
        });
        if (parsed.success && Object.keys(fieldErrors).length === 0) {
          expect(parsed.data.options.colorRules).toEqual(
            rows.length === 0
              ? undefined
              : rows.map((row) => ({
                  measure: Number(row.measure),
                  when: row.when,
                  value: Number(row.value.trim()),
                  tone: row.tone,
                  ...(row.label.trim() ? { label: row.label.trim() } : {}),
                })),
          );
        }
      }),
      { seed, numRuns: 1_000 },
    );
  });

  it("names a bad digit count and a bad Other share at their fields", () => {
    const form = chartFormOf(null, { id: "d1", columns });
    const { fieldErrors } = chartOfForm(
      { ...form, type: "pie", formatStyle: "decimal", formatMaxDigits: "x", otherPercent: "lots" },
      columns,
    );
    expect(Object.keys(fieldErrors).sort()).toEqual([
      "format.maximumFractionDigits",
      "otherThreshold",
    ]);
  });
});
