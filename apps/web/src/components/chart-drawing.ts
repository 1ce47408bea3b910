import type {
  AreaChartProps,
  BarChartProps,
  ChartAnnotation,
  LineChartProps,
  PieChartProps,
} from "@seed/charts";
import type { CalendarHeatmapProps } from "@seed/charts/calendar-heatmap";
import type { ComboChartProps } from "@seed/charts/combo-chart";
import type { ScatterChartProps } from "@seed/charts/scatter-chart";
import type { CalendarSvgOptions, ChartSvgOptions, ScatterSvgOptions } from "@seed/charts/svg";
import type { TableChartProps } from "@seed/charts/table-chart";
import {
  comboSeriesOf,
  type DateFormat,
  isTimeType,
  optionsWithDefaults,
  withMissingBuckets,
} from "@seed/model";
import type { QueryResult } from "@seed/store";
import {
  chartDateFormatter,
  chartIndexAxis,
  chartValueFormatter,
  resolveChartLocale,
} from "./chart-format";
import type { ChartView } from "./chart-view";

// The one home of how a stored chart and its result become the kit's props: the client draws
// them with @seed/charts, the server draws the same as SVG for the page's HTML (chartSvg).

type ResultRow = QueryResult["rows"][number];

/** Periods filled in as empty past this many rows would cost more than the gap says: drawn as is. */
const maxFilledRows = 5_000;

/** How shares of a total are written when the chart sets no number format: 41.2%. */
const shareFormat = { style: "percent", maximumFractionDigits: 1 } as const;
/** How changes from the period before are written when the chart sets no format: +12.5%. */
const changeFormat = { ...shareFormat, signDisplay: "exceptZero" } as const;

/**
 * The kit's props for one chart, by type; what every type shares is already in each. The
 * annotations are data: the client hands them to the kit through `annotate`, a client function.
 */
export type ChartDrawing = (
  | { type: "line"; props: LineChartProps<ResultRow> }
  | { type: "area"; props: AreaChartProps<ResultRow> }
  | { type: "bar"; props: BarChartProps<ResultRow> }
  | { type: "pie"; props: PieChartProps<ResultRow> }
  | { type: "table"; props: TableChartProps<ResultRow> }
  | { type: "scatter"; props: ScatterChartProps<ResultRow> }
  | { type: "combo"; props: ComboChartProps<ResultRow> }
  | { type: "calendar"; props: CalendarHeatmapProps<ResultRow> }
) & { annotations: readonly ChartAnnotation[] };

/** Keys of a scatter's point rows: a breakdown's wide rows become one row per group and x. */
const scatterKeys = { y: "y", group: "group" } as const;

/**
 * A scatter's points from the query's rows: as they are (x, the first measure as y, a second
 * as size) or, split by a breakdown, one point per row and series with a value, coloured by the
 * series' name (its label: what the legend and tooltip say).
 */
export function scatterPoints(
  result: Pick<QueryResult, "rows" | "series">,
  split: boolean,
): ResultRow[] {
  if (!split) return result.rows;
  const points: ResultRow[] = [];
  for (const row of result.rows) {
    for (const entry of result.series) {
      const value = row[entry.key];
      if (value === null || value === undefined) continue;
      points.push({ x: row.x ?? null, [scatterKeys.y]: value, [scatterKeys.group]: entry.label });
    }
  }
  return points;
}

/** How a table writes periods when the chart sets no date format: by the query's grain. */
const grainDateFormats: Record<string, DateFormat> = {
  year: "year",
  quarter: "month",
  month: "month",
  week: "day",
  day: "day",
};

/** The x values of a query's rows, written by the date format (a pie names its slices by them). */
function rowsWithNames(
  rows: readonly ResultRow[],
  format: ((value: number | string) => string) | undefined,
): readonly ResultRow[] {
  if (!format) return rows;
  return rows.map((row) =>
    typeof row.x === "string" || typeof row.x === "number" ? { ...row, x: format(row.x) } : row,
  );
}

/**
 * The kit's props for a stored chart and its result, in a locale (`visitorLocale` counts when the
 * chart says "visitor"), at a drawing height.
 */
export function chartDrawing(
  chart: ChartView,
  result: QueryResult,
  visitorLocale: string,
  height: number,
): ChartDrawing {
  const { dateFormat, xNumberFormat, locale: choice } = chart.options;
  const locale = resolveChartLocale(choice, visitorLocale);
  // Shares and changes are fractions: drawn as percentages unless the chart sets a format.
  const units = new Set(result.series.map((entry) => entry.unit));
  const only = units.size === 1 ? [...units][0] : undefined;
  const numberFormat =
    chart.options.numberFormat ??
    (only === "share" ? shareFormat : only === "change" ? changeFormat : undefined);
  const valueFormatter = chartValueFormatter(numberFormat, locale);
  // Measures of their own unit beside others (a combo's margin line over dollars) read as theirs.
  const unitFormatter = (unit: QueryResult["series"][number]["unit"]) =>
    chart.options.numberFormat === undefined && unit !== undefined && only === undefined
      ? chartValueFormatter(unit === "share" ? shareFormat : changeFormat, locale)
      : undefined;
  // Bars stand side by side, a tick under each shown one: periods of a month or a quarter are
  // written as months ("Jan 2012"), never as a year repeated under each (a time axis, a line's,
  // places its ticks itself). A chart's own date format comes first.
  const bandPeriods =
    (chart.type === "bar" || chart.type === "combo") &&
    (chart.grain === "month" || chart.grain === "quarter" || chart.grain === "year");
  const indexFormatter = chartDateFormatter(
    dateFormat ?? (bandPeriods && chart.grain ? grainDateFormats[chart.grain] : undefined),
    locale,
  );
  const indexAxis = chartIndexAxis(
    xNumberFormat,
    result.rows.map((row) => row.x),
  );
  // Defaults come from the model, so the editor shows what pages draw.
  const options = optionsWithDefaults(chart.type, chart.options);
  const legend = options.showLegend === false ? false : options.legendPosition;
  const { stack } = options;
  const series = result.series.map((entry) => ({ key: entry.key, label: entry.label }));
  const common = {
    data: result.rows,
    title: chart.title,
    height,
    locale,
    legend,
    valueFormatter,
  } as const;
  if (chart.type === "pie") {
    return {
      type: "pie",
      annotations: [],
      props: {
        ...common,
        data: rowsWithNames(result.rows, indexFormatter),
        index: "x",
        indexLabel: result.x.label,
        value: series[0] ?? "",
        variant: options.donut ? "donut" : "pie",
        labels: options.valueLabels === "none" ? false : options.valueLabels,
        otherThreshold: options.otherThreshold,
      },
    };
  }
  if (chart.type === "table") {
    // The x column first (each row's header), then a column per series: sorted and paged by
    // the reader, the same numbers as every other type draws.
    const time = isTimeType(result.x.type) || chart.grain !== undefined;
    const dates =
      indexFormatter ??
      (chart.grain ? chartDateFormatter(grainDateFormats[chart.grain], locale) : undefined);
    return {
      type: "table",
      annotations: [],
      props: {
        data: result.rows,
        title: chart.title,
        locale,
        pageSize: options.pageSize,
        columns: [
          {
            key: "x",
            label: result.x.label,
            ...(time ? { kind: "date" as const } : {}),
            ...(time && dates ? { formatter: (value: number) => dates(value) } : {}),
            // years (or a chart that says "plain") without grouping: 1900, not 1,900
            ...(indexAxis ?? {}),
          },
          ...result.series.map((entry) => {
            // m2 is the third measure's; a breakdown's series (s0, other) are all the first's.
            const measure = /^m(\d+)$/.exec(entry.key)?.[1];
            const rules = (options.colorRules ?? []).filter(
              (rule) => rule.measure === (measure === undefined ? 0 : Number(measure)),
            );
            return {
              key: entry.key,
              label: entry.label,
              kind: "number" as const,
              formatter: valueFormatter,
              ...(rules.length > 0
                ? {
                    rules: rules.map(({ when, value, tone, label }) => ({
                      when,
                      value,
                      tone,
                      ...(label ? { label } : {}),
                    })),
                  }
                : {}),
            };
          }),
        ],
      },
    };
  }
  if (chart.type === "calendar") {
    // A cell per day coloured by the one measure; the kit adds up rows of one day.
    const [first] = result.series;
    return {
      type: "calendar",
      annotations: [],
      props: {
        data: result.rows,
        title: chart.title,
        height,
        locale,
        valueFormatter,
        date: "x",
        value: first?.key ?? "m0",
        valueLabel: first?.label ?? "",
        legend: options.showLegend !== false,
      },
    };
  }
  if (chart.type === "scatter") {
    // x is a position: numbers (years written plain) or dates; y the first measure, a second
    // sizes the points, a breakdown's series colour them.
    const split = chart.colorSplit;
    const [first, second] = result.series;
    return {
      type: "scatter",
      annotations: [],
      props: {
        ...common,
        data: scatterPoints(result, split !== undefined),
        x: "x",
        xLabel: result.x.label,
        xType: isTimeType(result.x.type) ? "time" : "number",
        ...(indexFormatter ? { xFormatter: (value: number) => indexFormatter(value) } : {}),
        ...(indexAxis ? { xAxis: indexAxis } : {}),
        ...(split
          ? {
              y: scatterKeys.y,
              yLabel: split.measure,
              color: scatterKeys.group,
              colorLabel: split.column,
            }
          : {
              y: first?.key ?? "m0",
              yLabel: first?.label ?? "",
              ...(second ? { size: second.key, sizeLabel: second.label } : {}),
            }),
      },
    };
  }
  // Lines (and a combo's) and areas over dated periods break where a period has no data, unless
  // told to connect.
  const gapped =
    (chart.type === "line" || chart.type === "area" || chart.type === "combo") &&
    chart.grain !== undefined &&
    options.gaps !== "connect";
  const indexed = {
    ...common,
    data:
      gapped && chart.grain
        ? withMissingBuckets(
            result.rows,
            chart.grain,
            result.series.map((entry) => entry.key),
            maxFilledRows,
          )
        : result.rows,
    index: "x",
    indexLabel: result.x.label,
    series,
    indexFormatter,
  } as const;
  const connectNulls = options.gaps === "connect";
  // typed by hand, then those read from the events' dataset (options.annotationSource)
  const annotations = [...(options.annotations ?? []), ...(result.annotations ?? [])];
  if (chart.type === "line") {
    return {
      type: "line",
      annotations,
      props: { ...indexed, xAxis: indexAxis, curve: options.curve, connectNulls },
    };
  }
  if (chart.type === "combo") {
    // Measures are the series (no breakdown): each drawn as its position in comboSeries says.
    const kinds = comboSeriesOf(options.comboSeries, result.series.length);
    return {
      type: "combo",
      annotations,
      props: {
        ...indexed,
        xAxis: indexAxis,
        curve: options.curve,
        connectNulls,
        series: result.series.map((entry, position) => {
          const formatter = unitFormatter(entry.unit);
          return {
            key: entry.key,
            label: entry.label,
            ...(kinds[position] ?? {}),
            ...(formatter ? { formatter } : {}),
          };
        }),
      },
    };
  }
  if (chart.type === "area") {
    return {
      type: "area",
      annotations,
      props: { ...indexed, xAxis: indexAxis, curve: options.curve, stack, connectNulls },
    };
  }
  return {
    type: "bar",
    annotations,
    props: {
      ...indexed,
      // horizontal bars hold the index on the vertical axis
      ...(options.horizontal ? { yAxis: indexAxis } : { xAxis: indexAxis }),
      stack,
      horizontal: options.horizontal,
      valueLabels: options.valueLabels === "value",
    },
  };
}

/** A calendar's drawing as options of `calendarSvg`, at a plot width. */
export function calendarSvgOptions(
  drawing: Extract<ChartDrawing, { type: "calendar" }>,
  width: number,
): CalendarSvgOptions {
  const { props } = drawing;
  return {
    data: props.data,
    width,
    ...(props.height ? { height: props.height } : {}),
    title: props.title,
    locale: props.locale,
    valueFormatter: props.valueFormatter,
    date: props.date,
    value: props.value,
  };
}

/** A scatter's drawing as options of `scatterSvg`, at a plot width. */
export function scatterSvgOptions(
  drawing: Extract<ChartDrawing, { type: "scatter" }>,
  width: number,
): ScatterSvgOptions {
  const { props } = drawing;
  return {
    data: props.data,
    width,
    height: props.height ?? 300,
    title: props.title,
    locale: props.locale,
    valueFormatter: props.valueFormatter,
    x: props.x,
    y: props.y,
    size: props.size,
    color: props.color,
    xType: props.xType,
    xFormatter:
      props.xFormatter ??
      (props.xAxis?.numberFormat
        ? (value: number) =>
            new Intl.NumberFormat(props.locale, props.xAxis?.numberFormat).format(value)
        : undefined),
  };
}

/** The same drawing as options of `chartSvg`, at a plot width: what the server puts in the HTML. */
export function chartSvgOptions(
  drawing: Exclude<ChartDrawing, { type: "table" | "scatter" | "calendar" }>,
  width: number,
): ChartSvgOptions {
  const { props } = drawing;
  const base = {
    data: props.data,
    width,
    height: props.height ?? 300,
    locale: props.locale,
    valueFormatter: props.valueFormatter,
  };
  if (drawing.type === "pie") {
    const { value } = drawing.props;
    return {
      ...base,
      type: "pie",
      index: drawing.props.index,
      value: typeof value === "string" ? value : value.key,
      variant: drawing.props.variant,
      otherThreshold: drawing.props.otherThreshold,
    };
  }
  const axis =
    drawing.type === "bar" && drawing.props.horizontal ? drawing.props.yAxis : drawing.props.xAxis;
  const plain = axis?.numberFormat;
  const indexFormatter =
    drawing.props.indexFormatter ??
    (plain
      ? (value: number | string) =>
          typeof value === "number"
            ? new Intl.NumberFormat(props.locale, plain).format(value)
            : String(value)
      : undefined);
  const cartesian = {
    ...base,
    index: drawing.props.index,
    indexFormatter,
    annotations: drawing.annotations,
  };
  if (drawing.type === "combo") {
    const { series, curve, connectNulls } = drawing.props;
    return { ...cartesian, type: "combo", series, curve, connectNulls };
  }
  return {
    ...cartesian,
    type: drawing.type,
    series: drawing.props.series,
    stack: drawing.type === "line" ? "none" : drawing.props.stack,
    horizontal: drawing.type === "bar" ? drawing.props.horizontal : false,
    curve: drawing.type === "bar" ? undefined : drawing.props.curve,
    connectNulls: drawing.type === "bar" ? false : drawing.props.connectNulls,
  };
}
