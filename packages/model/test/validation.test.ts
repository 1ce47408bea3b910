import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  chartInputSchema,
  checkRows,
  checkStatTileColumn,
  dashboardInputSchema,
  datasetInputSchema,
  formatZodError,
  iconNames,
  isIsoDate,
  localeCurrency,
  numberFormatIn,
  numberFormatSchema,
  slugify,
  tileInputSchema,
} from "../src/index.js";
import { checkQuery } from "../src/query/spec.js";

describe("formatZodError", () => {
  it("groups messages by dotted field path and puts root problems in formError", () => {
    const schema = z
      .object({ tiles: z.array(z.object({ chartId: z.string().min(1, "Choose a chart.") })) })
      .refine(() => false, "The dashboard is not valid.");
    const result = schema.safeParse({ tiles: [{ chartId: "a" }, { chartId: "" }] });

    const errors = result.success ? null : formatZodError(result.error);

    expect(errors).toEqual({
      fieldErrors: { "tiles.1.chartId": ["Choose a chart."] },
      formError: "The dashboard is not valid.",
    });
    const rootOnly = schema.safeParse({ tiles: [] });
    expect(rootOnly.success ? null : formatZodError(rootOnly.error)).toEqual({
      fieldErrors: {},
      formError: "The dashboard is not valid.",
    });
  });
});

describe("dashboardInputSchema", () => {
  it("gives readable messages for each bad field", () => {
    const result = dashboardInputSchema.safeParse({
      title: "",
      slug: "Bad--Slug",
      icon: "rocket",
      tiles: [{ kind: "stat", label: "x", datasetId: "d", column: "c", aggregation: "mode" }],
    });

    expect(result.success ? null : formatZodError(result.error).fieldErrors).toEqual({
      title: ["Enter a title."],
      slug: ["Use lowercase letters, digits and single hyphens, e.g. store-performance."],
      icon: ["Choose one of the listed icons."],
      "tiles.0.aggregation": [
        "Aggregation must be sum, avg, median, p25, p75, p90, p95, p99, last, min, max or count.",
      ],
    });
  });

  it("accepts every icon of @seed/ui's list and fills defaults", () => {
    for (const icon of iconNames) {
      expect(dashboardInputSchema.safeParse({ title: "T", slug: "t", icon }).success).toBe(true);
    }
    expect(dashboardInputSchema.parse({ title: " T ", slug: "t" })).toEqual({
      title: "T",
      timeZone: null,
      slug: "t",
      description: "",
      icon: null,
      embedOrigins: [],
      refreshSeconds: null,
      filters: { dateColumn: null, categories: [] },
      published: false,
      tiles: [],
    });
    expect(iconNames).toHaveLength(17);
  });
});

describe("tileInputSchema", () => {
  it("names the kind field when a tile is neither a chart, a stat nor text", () => {
    const result = tileInputSchema.safeParse({ kind: "image" });

    expect(result.success ? null : formatZodError(result.error).fieldErrors).toEqual({
      kind: ['A tile\'s kind must be "chart", "stat" or "text".'],
    });
  });
});

describe("datasetInputSchema", () => {
  it("checks cell types against columns", () => {
    const result = datasetInputSchema.safeParse({
      name: "D",
      columns: [{ name: "n", type: "number" }],
      rows: [{ n: 1 }, { n: Number.NaN }, { x: 1 }],
    });

    expect(result.success ? null : formatZodError(result.error).fieldErrors.rows).toEqual([
      'Row 2, column "n": expected a number, got NaN.',
      'Row 3: unknown column "x".',
    ]);
  });
});

describe("checkRows", () => {
  it("reads form text: numeric text becomes a number, blanks become null, dates are trimmed", () => {
    const columns = [
      { name: "n", type: "number" },
      { name: "d", type: "date" },
      { name: "s", type: "string" },
    ] as const;

    const result = checkRows(columns, [
      { n: " 12.5 ", d: " 2025-01-31 ", s: " kept as typed " },
      { n: "", d: "", s: "" },
      { n: "1e999", d: "2025-01-01", s: "x" },
    ]);

    expect(result.rows.slice(0, 2)).toEqual([
      { n: 12.5, d: "2025-01-31", s: " kept as typed " },
      { n: null, d: null, s: null },
    ]);
    expect(result.problems).toEqual([
      { row: 3, column: "n", code: "invalid_cell", detail: 'expected a number, got "1e999".' },
    ]);
  });
});

describe("chart checks", () => {
  it("rejects a series that is also the index, and duplicate series", () => {
    const result = chartInputSchema.safeParse({
      title: "C",
      type: "bar",
      datasetId: "d",
      indexColumn: "a",
      seriesColumns: ["a", "b", "b"],
    });

    expect(result.success ? null : formatZodError(result.error).fieldErrors.seriesColumns).toEqual([
      'Series "b" is listed twice.',
      '"a" is the index column; it cannot also be a series.',
    ]);
  });

  it("takes a table's rows per page from the listed sizes only, and no other type's", () => {
    const chart = (type: string, pageSize: unknown) =>
      chartInputSchema.safeParse({
        title: "C",
        type,
        datasetId: "d",
        indexColumn: "a",
        seriesColumns: ["b"],
        options: { pageSize },
      });
    const pageSizeErrors = (type: string, pageSize: unknown) => {
      const result = chart(type, pageSize);
      return result.success ? null : formatZodError(result.error).fieldErrors["options.pageSize"];
    };
    for (const size of [10, 25, 50, 100]) expect(chart("table", size).success).toBe(true);
    for (const bad of [0, 30, -25, 25.5, 1e9, "25", null, Number.NaN]) {
      expect(pageSizeErrors("table", bad)).toEqual(["Rows per page must be 10, 25, 50 or 100."]);
    }
    expect(pageSizeErrors("line", 25)).toEqual(["A line chart has no pageSize option."]);
  });

  it("takes a combo's bars or line and axis per measure, never more entries than measures", () => {
    const combo = (comboSeries: unknown, measures = 2) =>
      chartInputSchema.safeParse({
        title: "C",
        type: "combo",
        datasetId: "d",
        query: {
          x: { column: "month" },
          measures: Array.from({ length: measures }, () => ({ column: "n", aggregate: "sum" })),
        },
        options: { comboSeries },
      });
    const comboErrors = (comboSeries: unknown, measures = 2) => {
      const result = combo(comboSeries, measures);
      return result.success ? null : formatZodError(result.error).fieldErrors;
    };
    expect(combo([]).success).toBe(true);
    expect(combo([{ type: "bar" }, { type: "line", axis: "right" }]).success).toBe(true);
    expect(combo([{}, { axis: "right" }]).success).toBe(true);
    expect(comboErrors([{ type: "area" }])?.["options.comboSeries.0.type"]).toEqual([
      "Draw a measure as bar or line.",
    ]);
    expect(comboErrors([{ axis: "top" }])?.["options.comboSeries.0.axis"]).toEqual([
      "Measure a series on the left or the right axis.",
    ]);
    expect(comboErrors([{ type: "bar", colour: "red" }])).not.toBeNull();
    expect(comboErrors([{}, {}, { type: "line" }])?.["options.comboSeries"]).toEqual([
      "This chart has 2 measures; comboSeries says how to draw 3. Remove the last entry.",
    ]);
    expect(comboErrors("bars")?.["options.comboSeries"]).toEqual([
      "comboSeries must be a list, one entry per measure.",
    ]);
    // only a combo draws its measures as bars or lines
    const line = chartInputSchema.safeParse({
      title: "C",
      type: "line",
      datasetId: "d",
      indexColumn: "a",
      seriesColumns: ["b"],
      options: { comboSeries: [{ type: "bar" }] },
    });
    expect(
      line.success ? null : formatZodError(line.error).fieldErrors["options.comboSeries"],
    ).toEqual(["A line chart has no comboSeries option."]);
    // the simple form: two series columns at least
    const simple = chartInputSchema.safeParse({
      title: "C",
      type: "combo",
      datasetId: "d",
      indexColumn: "a",
      seriesColumns: ["b"],
    });
    expect(simple.success ? null : formatZodError(simple.error).fieldErrors.seriesColumns).toEqual([
      "A combo chart shows at least 2 series columns (bars and a line).",
    ]);
  });

  it("checks columns: any index, number series", () => {
    const columns = [
      { name: "day", type: "date" },
      { name: "n", type: "number" },
      { name: "s", type: "string" },
    ] as const;

    const raw = (x: string, series: string) =>
      checkQuery(
        { x: { column: x }, measures: [{ column: series, aggregate: "none" }], filters: [] },
        columns,
      );
    expect(raw("s", "n")).toEqual({});
    expect(raw("day", "s")).toEqual({
      "measures.0.aggregate": ['"s" is a string column; raw series needs numbers.'],
    });
    expect(checkStatTileColumn({ column: "s", aggregation: "count" }, columns)).toBeNull();
    expect(checkStatTileColumn({ column: "s", aggregation: "avg" }, columns)).toBe(
      '"s" is a string column; avg needs a number column.',
    );
  });
});

describe("numberFormatSchema", () => {
  it("takes currency style with or without a code, and sane fraction digits only", () => {
    const result = numberFormatSchema.safeParse({
      style: "currency",
      minimumFractionDigits: 3,
      maximumFractionDigits: 1,
    });

    expect(result.success ? null : formatZodError(result.error).fieldErrors).toEqual({
      maximumFractionDigits: ["Maximum fraction digits must be at least the minimum."],
    });
    expect(numberFormatSchema.safeParse({ style: "currency", currency: "EUR" }).success).toBe(true);
    expect(numberFormatSchema.safeParse({ style: "currency" }).success).toBe(true);
    expect(numberFormatSchema.safeParse({ style: "currency", currency: "euro" }).success).toBe(
      false,
    );
  });

  it("writes a currency without a code in the locale's own currency", () => {
    const cases = [
      ["en-US", "USD", "$"],
      ["en-GB", "GBP", "£"],
      ["de-DE", "EUR", "€"],
      ["fr-FR", "EUR", "€"],
      ["ja-JP", "JPY", "￥"],
      ["pt-BR", "BRL", "R$"],
      ["zh-CN", "CNY", "¥"],
      ["de-CH", "CHF", "CHF"],
      ["en", "USD", "$"],
    ] as const;
    for (const [locale, currency, sign] of cases) {
      const options = numberFormatIn({ style: "currency" }, locale);
      expect(options.currency, locale).toBe(currency);
      const parts = new Intl.NumberFormat(locale, options).formatToParts(1234.5);
      expect(parts.find((part) => part.type === "currency")?.value, locale).toBe(sign);
    }
    // A code given is kept; other styles are left alone; a locale with no country reads USD.
    expect(numberFormatIn({ style: "currency", currency: "EUR" }, "ja-JP").currency).toBe("EUR");
    expect(numberFormatIn({ style: "percent" }, "de-DE")).toEqual({ style: "percent" });
    expect(localeCurrency("not a locale")).toBeUndefined();
    expect(numberFormatIn({ style: "currency" }, "und").currency).toMatch(/^[A-Z]{3}$/);
  });
});

describe("isIsoDate and slugify", () => {
  it("accepts calendar days and ISO date-times only", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(isIsoDate("2025-01-01T12:30:00.123+02:00")).toBe(true);
    expect(isIsoDate("01/02/2025")).toBe(false);
  });

  it("suggests URL-safe slugs", () => {
    expect(slugify("  Store Performance: Q1 2025!  ")).toBe("store-performance-q1-2025");
    expect(slugify("Café Crème")).toBe("cafe-creme");
  });
});
