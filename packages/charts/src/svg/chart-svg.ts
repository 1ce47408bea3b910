// A chart as one SVG string, drawn without React, a DOM or a browser: for the HTML of a page
// before any script runs, and for images (mail, reports). It draws what the React charts draw from
// the same data helpers (rows, pie slices, downsampling, ticks, formats), at a size given up front.
import { type ScaleBand, type ScaleLinear, scaleBand, scaleLinear } from "d3-scale";
import {
  arc,
  area,
  curveLinear,
  curveMonotoneX,
  curveNatural,
  curveStep,
  curveStepAfter,
  curveStepBefore,
  line,
  pie,
} from "d3-shape";
import { getNiceTickValues } from "recharts";
import { annotationSpans, placeAnnotations } from "../annotations/place";
import { type ComboSeries, comboSeriesKinds } from "../combo-chart/kinds";
import { collapsedSpanTicks } from "../data/domain";
import { selectDrawnPositions } from "../data/downsample";
import {
  createNumberFormatter,
  createTickFormatter,
  createTimeFormatter,
  detectIndexKind,
  timeFormatOptions,
  timeTicks,
  toTimestamp,
} from "../data/format";
import { preparePieFrame } from "../data/pie";
import { type CartesianFrame, prepareCartesianFrame } from "../data/rows";
import { PALETTE_SIZE, paletteColor, resolveSeries, type Series } from "../data/series";
import type { CurveType } from "../line-chart/line-chart";
import type { ChartAnnotation } from "../parts/annotations";
import { charsFitting, indexLabelChars, shorten, valueAxisWidth } from "../parts/axis-tick";
import { buildDrawnRows, type DrawnRow, valueExtent } from "../parts/plot-rows";

/** What to draw: a chart type, its rows and the options the React charts take for it. */
export type ChartSvgOptions = {
  /** Rows of data, as the React charts take them. Anything else draws the empty state. */
  data: unknown;
  /** Row key of the x values (line, area, bar) or slice names (pie). */
  index: string;
  /** Size of the drawing in px: the plot box of the React chart it stands for. */
  width: number;
  height: number;
  /** Accessible name: an `img` role with this title. Without it the SVG is decorative (hidden). */
  title?: string;
  /** BCP 47 locale of numbers and dates. */
  locale?: string;
  /** Time zone of dates, as in the React charts. Default UTC. */
  timeZone?: string;
  /** Formats values on the value axis and labels; default the locale's numbers. */
  valueFormatter?: (value: number) => string;
  /** Formats x values (or slice names); default dates by their span, numbers by the locale. */
  indexFormatter?: (value: number | string) => string;
  /** Shown in the middle of an empty drawing. Default "No data to display". */
  emptyMessage?: string;
  /**
   * "variables" (default): the theme's CSS variables, with the light theme's colours as
   * fallbacks, for a page that has the kit's stylesheet. "light" or "dark": that theme's colours
   * written out, on its background, for an image.
   */
  colors?: "variables" | "light" | "dark";
  /** A legend under the drawing (series or slices, wrapped into rows), for an image. Default none. */
  legend?: boolean;
} & (
  | {
      type: "line" | "area" | "bar";
      series: readonly Series<Record<string, unknown>>[];
      stack?: "none" | "stacked" | "percent";
      /** Bars along the vertical axis. */
      horizontal?: boolean;
      curve?: CurveType;
      /** Draw lines across missing values instead of breaking them. */
      connectNulls?: boolean;
      /** Markers and bands on the index axis, placed and labelled as `annotate()` draws them. */
      annotations?: readonly ChartAnnotation[];
    }
  | {
      type: "combo";
      /** Bars and lines, as ComboChart takes them: `type` and `axis` per series. */
      series: readonly ComboSeries<Record<string, unknown>>[];
      curve?: CurveType;
      /** Draw lines across missing values instead of breaking them. */
      connectNulls?: boolean;
      /** Markers and bands on the index axis, placed and labelled as `annotate()` draws them. */
      annotations?: readonly ChartAnnotation[];
    }
  | {
      type: "pie";
      /** Row key of the slice values. */
      value: string;
      variant?: "pie" | "donut";
      /** Slices below this share (0..1) are one "Other" slice, as in PieChart. Default 0.02. */
      otherThreshold?: number;
    }
);

// CartesianPlot's MARGIN and PieChart's DONUT_HOLE, kept here as copies: a shared module moved
// LineChart's bundle 12 B past its budget, and importing those modules brings React in.
const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
/** Height of the x axis with its labels, as Recharts draws it. */
const X_AXIS_HEIGHT = 30;
/** Width of the index axis when bars lie horizontally. */
const Y_INDEX_WIDTH = 96;
const DONUT_HOLE = 0.62;
const SANS = "ui-sans-serif,system-ui,sans-serif";
/** Height of one legend row. */
const LEGEND_ROW = 20;

/** Text safe inside an SVG element or a double-quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
}

/** A coordinate with two decimals: short paths, no exponent, never NaN in the output. */
function at(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "0";
}

/** The kit's themes as styles.css writes them (its fallbacks for @seed/ui's tokens). */
export const chartThemes = {
  light: {
    series: [
      "#0290fe",
      "#d07a00",
      "#1e785b",
      "#904b87",
      "#182ae3",
      "#c5320f",
      "#939162",
      "#5b4430",
    ],
    fg: "#0f172a",
    muted: "#475569",
    bg: "#ffffff",
    axis: "#475569",
    axisLine: "#94a3b8",
    grid: "#e2e8f0",
  },
  dark: {
    series: [
      "#9bd8ff",
      "#ba9519",
      "#089e78",
      "#ed3ead",
      "#9e8fdf",
      "#ffa882",
      "#b8e10d",
      "#cebec8",
    ],
    fg: "#f1f5f9",
    muted: "#a3b0c2",
    bg: "#0b1120",
    axis: "#a3b0c2",
    axisLine: "#475569",
    grid: "#334155",
  },
} as const;

/** The light theme's palette, the fallback of each colour's CSS variable. */
export const lightPalette: readonly string[] = chartThemes.light.series;

type ChromeColour = Exclude<keyof (typeof chartThemes)["light"], "series">;
type Paint = Record<ChromeColour, string> & {
  series: (position: number, given?: string) => string;
  /** Whether the drawing fills its own background (an image), or shows the page's. */
  background: boolean;
};

const tokens: Record<ChromeColour, string> = {
  fg: "fg",
  muted: "muted",
  bg: "bg",
  axis: "axis",
  axisLine: "axis-line",
  grid: "grid",
};

/** The colours a drawing writes: CSS variables with fallbacks, or one theme's colours. */
export function paintOf(colors: ChartSvgOptions["colors"]): Paint {
  const theme = colors === "dark" ? chartThemes.dark : chartThemes.light;
  const literal = colors === "light" || colors === "dark";
  const chrome = Object.fromEntries(
    (Object.keys(tokens) as ChromeColour[]).map((name) => [
      name,
      literal ? theme[name] : `var(--seed-chart-${tokens[name]},${theme[name]})`,
    ]),
  ) as Record<ChromeColour, string>;
  return {
    ...chrome,
    background: literal,
    series: (position, given) => {
      // a caller's colour is any CSS colour, written escaped into the attribute
      if (given) return escapeXml(given);
      const slot = position % PALETTE_SIZE;
      const colour = theme.series[slot] as string;
      return literal ? colour : `var(--seed-chart-${slot + 1},${colour})`;
    },
  };
}

/** An SVG of the options' size, with its title (or hidden), background and font, around `body`. */
export function frameSvg(
  options: Pick<ChartSvgOptions, "width" | "height" | "title" | "colors">,
  body: string,
): string {
  const width = Math.max(1, Math.round(options.width));
  const height = Math.max(1, Math.round(options.height));
  const named = options.title
    ? `role="img" aria-label="${escapeXml(options.title)}"`
    : `aria-hidden="true" focusable="false"`;
  const title = options.title ? `<title>${escapeXml(options.title)}</title>` : "";
  const paint = paintOf(options.colors);
  const fill = paint.background
    ? `<rect x="0" y="0" width="${width}" height="${height}" fill="${paint.bg}"/>`
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" class="seed-chart-svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${named} style="font-size:12px;font-family:${paint.background ? SANS : `var(--seed-chart-font,${SANS})`};display:block;max-width:100%">${title}${fill}${body}</svg>`;
}

function emptySvg(options: ChartSvgOptions, reason: string | null): string {
  const message = options.emptyMessage ?? "No data to display";
  const x = at(options.width / 2);
  const middle = options.height / 2;
  // a line of 12 px text only where it fits whole
  const lines = [message, ...(reason ? [reason] : [])].slice(0, Math.floor(options.height / 18));
  const { muted } = paintOf(options.colors);
  const first = middle - ((lines.length - 1) * 18) / 2 + 4;
  return frameSvg(
    options,
    lines
      .map(
        (text, i) =>
          `<text x="${x}" y="${at(first + i * 18)}" text-anchor="middle" fill="${muted}">${escapeXml(text)}</text>`,
      )
      .join(""),
  );
}

export interface LegendLayout {
  height: number;
  draw: (top: number) => string;
}

/** Legend items (a swatch and a name, cut to fit) wrapped into rows across `width`. */
export function legendOf(
  names: readonly string[],
  colours: readonly string[],
  width: number,
  paint: Paint,
): LegendLayout {
  const items: { name: string; x: number; row: number; colour: string }[] = [];
  let x = MARGIN.left;
  let row = 0;
  const room = Math.max(40, width - MARGIN.left - MARGIN.right);
  names.forEach((name, i) => {
    const short = shorten(name, Math.max(4, Math.floor((room - 18) / 7)));
    const itemWidth = 18 + short.length * 7 + 12;
    if (x > MARGIN.left && x + itemWidth > MARGIN.left + room) {
      x = MARGIN.left;
      row++;
    }
    items.push({ name: short, x, row, colour: colours[i] ?? paint.fg });
    x += itemWidth;
  });
  const rows = items.length === 0 ? 0 : row + 1;
  return {
    height: rows * LEGEND_ROW,
    draw: (top) =>
      items
        .map((item) => {
          const y = top + item.row * LEGEND_ROW + 14;
          return `<rect x="${at(item.x)}" y="${at(y - 9)}" width="10" height="10" rx="2" fill="${item.colour}"/><text x="${at(item.x + 16)}" y="${at(y)}" fill="${paint.fg}">${escapeXml(item.name)}</text>`;
        })
        .join(""),
  };
}

export const noLegend: LegendLayout = { height: 0, draw: () => "" };

/**
 * The chart as an SVG string of exactly `width` x `height` px: axes with their ticks, grid,
 * series in the palette (CSS variables with the light theme's colours as fallbacks), and an
 * empty state with its reason when there is nothing to draw. Never throws on any data.
 */
export function chartSvg(options: ChartSvgOptions): string {
  if (!(options.width > 0 && options.height > 0)) {
    return emptySvg({ ...options, width: 1, height: 1 }, null);
  }
  return options.type === "pie" ? pieSvg(options) : cartesianSvg(options);
}

function pieSvg(options: Extract<ChartSvgOptions, { type: "pie" }>): string {
  const frame = preparePieFrame(options.data, {
    index: options.index,
    value: options.value,
    otherThreshold: options.otherThreshold ?? 0.02,
    otherLabel: "Other",
  });
  if (frame.emptyReason !== null || frame.slices.length === 0 || !(frame.total > 0)) {
    return emptySvg(options, frame.emptyReason);
  }
  const { width } = options;
  const paint = paintOf(options.colors);
  const legend = options.legend
    ? legendOf(
        frame.slices.map((slice) => slice.name),
        frame.slices.map((_, position) => paint.series(position)),
        width,
        paint,
      )
    : noLegend;
  // the legend takes rows from the bottom, never all of the drawing
  const legendHeight = legend.height <= options.height / 2 ? legend.height : 0;
  const height = options.height - legendHeight;
  const radius = Math.max(1, Math.min(width, height) / 2 - 8);
  const inner = options.variant === "donut" ? radius * DONUT_HOLE : 0;
  const arcs = pie<{ value: number }>()
    .value((slice) => slice.value)
    .sort(null)
    .padAngle(frame.slices.length > 1 ? Math.PI / 180 : 0)(frame.slices);
  const draw = arc<(typeof arcs)[number]>().innerRadius(inner).outerRadius(radius);
  const paths = arcs
    .map(
      (slice, position) =>
        `<path d="${draw(slice) ?? ""}" fill="${paint.series(position)}" stroke="${paint.bg}"/>`,
    )
    .join("");
  return frameSvg(
    options,
    `<g transform="translate(${at(width / 2)} ${at(height / 2)})">${paths}</g>${legendHeight ? legend.draw(height) : ""}`,
  );
}

/** Recharts' curve names and the d3 curves it draws them with. */
const curves = {
  monotone: curveMonotoneX,
  linear: curveLinear,
  natural: curveNatural,
  step: curveStep,
  stepBefore: curveStepBefore,
  stepAfter: curveStepAfter,
};

function cartesianSvg(
  options: Extract<ChartSvgOptions, { type: "line" | "area" | "bar" | "combo" }>,
): string {
  const series = resolve(options.series);
  const combo = options.type === "combo";
  const kinds = combo ? comboSeriesKinds(options.series) : null;
  // a band per row: bar charts, and combos (whose lines join the bands' middles)
  const bars = options.type === "bar" || combo;
  const frame = prepareCartesianFrame(options.data, {
    index: options.index,
    keys: series.map((s) => s.key),
    indexKind: bars ? "category" : undefined,
    sortByIndex: !bars,
  });
  if (frame.emptyReason !== null || frame.xs.length === 0 || series.length === 0) {
    return emptySvg(options, frame.emptyReason);
  }
  const stack = options.type === "line" || combo ? "none" : (options.stack ?? "none");
  const vertical = options.type === "bar" && options.horizontal === true;
  const { width, height } = options;
  const locale = options.locale;
  const timeZone = options.timeZone ?? "UTC";
  const valueTickFormat =
    stack === "percent"
      ? createNumberFormatter(locale, { style: "percent" })
      : (options.valueFormatter ?? createTickFormatter(locale));
  const indexFormat = indexFormatterOf(frame, options.indexFormatter, locale, timeZone);
  /** Which series are drawn as bars, and which measured on a combo's right-hand axis. */
  const isBar = series.map((s) =>
    kinds ? kinds.get(s.key)?.type === "bar" : options.type === "bar",
  );
  const onRight = series.map((s) => kinds?.get(s.key)?.axis === "right");

  // about one point per pixel of the plot's width, as the React charts draw them
  const threshold = Math.max(32, Math.round(width - 56 - 24));
  const positions =
    frame.xs.length > threshold
      ? selectDrawnPositions(frame.xs, frame.values, threshold, "minmax-lttb")
      : null;
  const drawn = buildDrawnRows(frame, positions);
  const columns = series.map((_, s) =>
    Float64Array.from(drawn, (row) => {
      const v = row[`s${s}`];
      return typeof v === "number" ? v : Number.NaN;
    }),
  );
  const stacked = stack !== "none";
  const stackedColumns = stacked ? stackColumns(columns, stack === "percent") : null;
  // as the charts bound a value axis (CartesianPlot's valueAxisOf): lines fit their data, bars,
  // areas and combos start at 0 when no value is below it; the ticks are Recharts' nice ticks
  const fromZero = stack === "percent" ? 0 : options.type === "line" ? null : 0;
  const axisOf = (measured: readonly Float64Array[]) => {
    // the extent of what is drawn: the piles' edges when stacked
    const extent = valueExtent(measured, false);
    if (!extent) return null;
    const low = fromZero !== null && fromZero <= extent[0] ? fromZero : extent[0];
    const high = extent[1];
    const ticks =
      collapsedSpanTicks(low, high) ??
      (getNiceTickValues([low, high], 5) as number[]).filter(Number.isFinite);
    const domain: [number, number] = [Math.min(low, ...ticks), Math.max(high, ...ticks)];
    return { ticks, domain };
  };
  const leftAxis = axisOf(
    stackedColumns ? stackedColumns.flat() : columns.filter((_, k) => !onRight[k]),
  );
  const rightAxis = combo ? axisOf(columns.filter((_, k) => onRight[k])) : null;
  if (!leftAxis && !rightAxis) return emptySvg(options, "No value to draw");
  // the right axis reads in its first series' own format, as ComboChart's does
  const rightFormatter = resolveSeries(Array.isArray(options.series) ? options.series : []).find(
    (_, k) => onRight[k],
  )?.formatter;
  const rightTickFormat = rightFormatter ?? valueTickFormat;

  // the plot rectangle inside the margins and axes
  const valueAxis = vertical
    ? X_AXIS_HEIGHT
    : leftAxis
      ? valueAxisWidth(leftAxis.ticks, valueTickFormat)
      : 0;
  const left = MARGIN.left + (vertical ? Y_INDEX_WIDTH : valueAxis);
  const right =
    width - MARGIN.right - (rightAxis ? valueAxisWidth(rightAxis.ticks, rightTickFormat) : 0);
  const top = MARGIN.top;
  const paint = paintOf(options.colors);
  const legend = options.legend
    ? legendOf(
        series.map((s) => s.label),
        series.map((s, k) => paint.series(k, s.color)),
        width,
        paint,
      )
    : noLegend;
  // the legend takes rows from the bottom, never all of the drawing
  const legendHeight = legend.height <= height / 2 ? legend.height : 0;
  const bottom = height - MARGIN.bottom - X_AXIS_HEIGHT - legendHeight;
  if (right - left < 8 || bottom - top < 8) return emptySvg(options, null);

  const scaleOf = (axis: { domain: [number, number] }) =>
    scaleLinear()
      .domain(
        axis.domain[0] === axis.domain[1] ? [axis.domain[0] - 1, axis.domain[1] + 1] : axis.domain,
      )
      .range(vertical ? [left, right] : [bottom, top]);
  const leftScale = leftAxis ? scaleOf(leftAxis) : null;
  const rightScale = rightAxis ? scaleOf(rightAxis) : null;
  /** Series k's axis and scale. */
  const measureOf = (k: number) =>
    (onRight[k] ? rightAxis && rightScale && { axis: rightAxis, scale: rightScale } : null) ??
    (leftAxis && leftScale ? { axis: leftAxis, scale: leftScale } : null);
  const band = scaleBand<number>()
    .domain(drawn.map((_, i) => i))
    .range(vertical ? [top, bottom] : [left, right])
    .paddingInner(0.1)
    .paddingOuter(0.05);
  const numericIndex = frame.kind !== "category";
  const xMin = frame.xs[0] as number;
  const xMax = frame.xs[frame.xs.length - 1] as number;
  const indexScale = scaleLinear()
    .domain(xMin === xMax ? [xMin - 1, xMax + 1] : [xMin, xMax])
    .range([left, right]);
  /** Where row i sits along the index axis (the middle of its band for categories and bars). */
  const place = (i: number): number => {
    const row = drawn[i];
    if (!row) return left;
    if (bars || !numericIndex) return (band(i) ?? 0) + band.bandwidth() / 2;
    return indexScale(row.__x as number);
  };

  const parts: string[] = [];
  // grid and value axes: the grid follows the left axis, or the right one when it alone measures
  const gridAxis = leftAxis && leftScale ? { axis: leftAxis, scale: leftScale } : null;
  for (const [axis, scale, format, side] of [
    [leftAxis, leftScale, valueTickFormat, "left"],
    [rightAxis, rightScale, rightTickFormat, "right"],
  ] as const) {
    if (!axis || !scale) continue;
    const grid = gridAxis === null || gridAxis.axis === axis;
    for (const tick of axis.ticks) {
      const v = scale(tick);
      const label = escapeXml(format(tick));
      const gridLine = grid
        ? vertical
          ? `<line x1="${at(v)}" x2="${at(v)}" y1="${at(top)}" y2="${at(bottom)}" stroke="${paint.grid}" stroke-dasharray="3 3"/>`
          : `<line x1="${at(left)}" x2="${at(right)}" y1="${at(v)}" y2="${at(v)}" stroke="${paint.grid}" stroke-dasharray="3 3"/>`
        : "";
      parts.push(
        gridLine +
          (vertical
            ? `<text x="${at(v)}" y="${at(bottom + 16)}" text-anchor="middle" fill="${paint.axis}">${label}</text>`
            : side === "left"
              ? `<text x="${at(left - 8)}" y="${at(v + 4)}" text-anchor="end" fill="${paint.axis}">${label}</text>`
              : `<text x="${at(right + 8)}" y="${at(v + 4)}" text-anchor="start" fill="${paint.axis}">${label}</text>`),
      );
    }
  }
  // index axis: its line and labels, thinned so none overlaps, the first and last kept
  parts.push(
    vertical
      ? `<line x1="${at(left)}" x2="${at(left)}" y1="${at(top)}" y2="${at(bottom)}" stroke="${paint.axisLine}"/>`
      : `<line x1="${at(left)}" x2="${at(right)}" y1="${at(bottom)}" y2="${at(bottom)}" stroke="${paint.axisLine}"/>`,
  );
  const maxChars = vertical
    ? charsFitting(Y_INDEX_WIDTH - 12)
    : indexLabelChars(Math.max((right - left) / drawn.length, (right - left) / 6));
  for (const tick of indexTicks(
    frame,
    drawn.length,
    vertical ? bottom - top : right - left,
    timeZone,
    maxChars,
  )) {
    const position = tick.kind === "row" ? place(tick.at) : indexScale(tick.at);
    if (!(position >= left - 0.5 && position <= right + 0.5) && !vertical) continue;
    const label = escapeXml(
      shorten(indexFormat(tick.kind === "row" ? (drawn[tick.at]?.__x ?? "") : tick.at), maxChars),
    );
    parts.push(
      vertical
        ? `<text x="${at(left - 8)}" y="${at(position + 4)}" text-anchor="end" fill="${paint.axis}">${label}</text>`
        : `<text x="${at(position)}" y="${at(bottom + 16)}" text-anchor="middle" fill="${paint.axis}">${label}</text>`,
    );
  }

  if (options.annotations?.length) {
    parts.push(
      annotationsSvg(options.annotations, {
        drawn,
        kind: frame.kind,
        bars,
        vertical,
        band,
        indexScale,
        box: { left, right, top, bottom },
        color: paint.muted,
      }),
    );
  }

  // series: bars first, side by side in each band (or piled up), then lines over them
  const barSeries = series.flatMap((_, k) => (isBar[k] ? [k] : []));
  const groups = stacked ? 1 : barSeries.length;
  const inner = band.bandwidth() / Math.max(1, groups);
  barSeries.forEach((k, slot) => {
    const measure = measureOf(k);
    if (!measure) return;
    const { domain } = measure.axis;
    const valueScale = measure.scale;
    const rects: string[] = [];
    for (let i = 0; i < drawn.length; i++) {
      const value = (columns[k] as Float64Array)[i] as number;
      if (Number.isNaN(value)) continue;
      const [from, to] = stackedColumns
        ? [
            (stackedColumns[k] as [Float64Array, Float64Array])[0][i] as number,
            (stackedColumns[k] as [Float64Array, Float64Array])[1][i] as number,
          ]
        : [0, value];
      // from the axis' edge when 0 is off it, as Recharts clips bars to the plot
      const clamp = (v: number) => Math.min(domain[1], Math.max(domain[0], v));
      const a = valueScale(clamp(from));
      const b = valueScale(clamp(to));
      const offset = (band(i) ?? 0) + (stacked ? 0 : slot * inner);
      const thickness = Math.max(0, stacked ? band.bandwidth() : inner - 1);
      rects.push(
        vertical
          ? `<rect x="${at(Math.min(a, b))}" y="${at(offset)}" width="${at(Math.abs(b - a))}" height="${at(thickness)}"/>`
          : `<rect x="${at(offset)}" y="${at(Math.min(a, b))}" width="${at(thickness)}" height="${at(Math.abs(b - a))}"/>`,
      );
    }
    parts.push(`<g fill="${paint.series(k, series[k]?.color)}">${rects.join("")}</g>`);
  });
  const curve = curves[options.curve ?? "monotone"] ?? curveMonotoneX;
  series.forEach((s, k) => {
    const measure = measureOf(k);
    if (isBar[k] || !measure) return;
    const valueScale = measure.scale;
    const { domain } = measure.axis;
    const baseline = valueScale(Math.max(domain[0], Math.min(0, domain[1])));
    const column = columns[k] as Float64Array;
    const indices = drawn.map((_, i) => i);
    const defined = (i: number) => !Number.isNaN(column[i] as number);
    const kept = options.connectNulls ? indices.filter(defined) : indices;
    const color = paint.series(k, s.color);
    const top = (i: number) =>
      valueScale(
        stackedColumns
          ? ((stackedColumns[k] as [Float64Array, Float64Array])[1][i] as number)
          : (column[i] as number),
      );
    if (options.type === "area") {
      const bottomOf = (i: number) =>
        stackedColumns
          ? valueScale((stackedColumns[k] as [Float64Array, Float64Array])[0][i] as number)
          : baseline;
      const shape = area<number>().defined(defined).curve(curve).x(place).y0(bottomOf).y1(top)(
        kept,
      );
      parts.push(`<path d="${shape ?? ""}" fill="${color}" fill-opacity="0.3" stroke="none"/>`);
    }
    const path = line<number>().defined(defined).curve(curve).x(place).y(top)(kept);
    parts.push(
      `<path d="${path ?? ""}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
    // a lone point between gaps has no line: a dot shows it
    for (let i = 0; i < drawn.length && !options.connectNulls; i++) {
      if (defined(i) && !(i > 0 && defined(i - 1)) && !(i + 1 < drawn.length && defined(i + 1))) {
        parts.push(`<circle cx="${at(place(i))}" cy="${at(top(i))}" r="2.5" fill="${color}"/>`);
      }
    }
  });
  if (legendHeight) parts.push(legend.draw(height - legendHeight));
  return frameSvg(options, parts.join(""));
}

/**
 * The annotations as the charts' layer draws them: placed among the drawn rows by the same rule
 * (a bar chart's dates read as dates, as BarChart reads them), each a dashed line or a faint band
 * with its label cut to its room, in its colour or the theme's muted text colour.
 */
function annotationsSvg(
  annotations: readonly ChartAnnotation[],
  plot: {
    drawn: readonly DrawnRow[];
    kind: CartesianFrame["kind"];
    bars: boolean;
    vertical: boolean;
    band: ScaleBand<number>;
    indexScale: ScaleLinear<number, number>;
    box: { left: number; right: number; top: number; bottom: number };
    color: string;
  },
): string {
  const { drawn, bars, vertical, band, indexScale, box } = plot;
  // bars hold their rows in the given order on a band axis; BarChart still reads dates as dates
  const kind = bars ? detectIndexKind(drawn.map((row) => row.__x)) : plot.kind;
  const rows =
    bars && kind !== "category"
      ? drawn.map((row) => ({
          ...row,
          __x: kind === "time" ? toTimestamp(row.__x) : Number(row.__x),
        }))
      : drawn;
  const bandAxis = bars || kind === "category";
  const { placed } = placeAnnotations(rows, annotations, kind, bandAxis);
  const start = vertical ? box.top : box.left;
  const length = vertical ? box.bottom - box.top : box.right - box.left;
  const spans = annotationSpans(
    placed,
    (value, where) => {
      if (!bandAxis) return indexScale(value as number);
      const i = rows.findIndex((row) => row.__x === value);
      const from = band(i);
      if (i < 0 || from === undefined) return undefined;
      // a row's whole slot, as Recharts' band axis has it (the bars leave a gap inside it)
      const middle = from + band.bandwidth() / 2;
      return middle + (where === "start" ? -0.5 : where === "end" ? 0.5 : 0) * band.step();
    },
    start,
    length,
    vertical,
  );
  return spans
    .map(({ annotation, low, high, band: isBand, text }) => {
      const color = escapeXml(annotation.color ?? plot.color);
      const shape = isBand
        ? vertical
          ? `<rect x="${at(box.left)}" y="${at(low)}" width="${at(box.right - box.left)}" height="${at(high - low)}" fill="${color}" fill-opacity="0.12"/>`
          : `<rect x="${at(low)}" y="${at(box.top)}" width="${at(high - low)}" height="${at(box.bottom - box.top)}" fill="${color}" fill-opacity="0.12"/>`
        : vertical
          ? `<line x1="${at(box.left)}" x2="${at(box.right)}" y1="${at(low)}" y2="${at(low)}" stroke="${color}" stroke-dasharray="4 3"/>`
          : `<line x1="${at(low)}" x2="${at(low)}" y1="${at(box.top)}" y2="${at(box.bottom)}" stroke="${color}" stroke-dasharray="4 3"/>`;
      const label =
        text === null
          ? ""
          : vertical
            ? `<text x="${at(box.right - 4)}" y="${at(low - 3)}" text-anchor="end" font-size="11" fill="${color}">${escapeXml(text)}</text>`
            : `<text x="${at(low + 3)}" y="${at(box.top + 11)}" font-size="11" fill="${color}">${escapeXml(text)}</text>`;
      return `<g class="seed-chart-annotation"><title>${escapeXml(annotation.label)}</title>${shape}${label}</g>`;
    })
    .join("");
}

/**
 * Series resolved by the charts' own rule (resolveSeries: repeated keys kept once, labels default
 * to keys), with the caller's colour kept only when one was given: the palette is this drawing's.
 */
function resolve(
  series: readonly Series<Record<string, unknown>>[],
): { key: string; label: string; color?: string }[] {
  return resolveSeries(Array.isArray(series) ? series : []).map((s, position) =>
    s.color === paletteColor(position)
      ? { key: s.key, label: s.label }
      : { key: s.key, label: s.label, color: s.color },
  );
}

/** Each series' lower and upper edge when piled on the ones before it (positives up, negatives down). */
function stackColumns(
  columns: readonly Float64Array[],
  percent: boolean,
): [Float64Array, Float64Array][] {
  const n = columns[0]?.length ?? 0;
  const out = columns.map(
    () => [new Float64Array(n), new Float64Array(n)] as [Float64Array, Float64Array],
  );
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (const column of columns) {
      const v = column[i] as number;
      if (!Number.isNaN(v)) total += Math.abs(v);
    }
    let up = 0;
    let down = 0;
    columns.forEach((column, k) => {
      let v = column[i] as number;
      if (Number.isNaN(v)) v = 0;
      if (percent) v = total > 0 ? v / total : 0;
      const edges = out[k] as [Float64Array, Float64Array];
      if (v >= 0) {
        edges[0][i] = up;
        up += v;
        edges[1][i] = up;
      } else {
        edges[0][i] = down;
        down += v;
        edges[1][i] = down;
      }
    });
  }
  return out;
}

function indexFormatterOf(
  frame: CartesianFrame,
  given: ((value: number | string) => string) | undefined,
  locale: string | undefined,
  timeZone: string,
): (value: number | string) => string {
  if (given) return given;
  if (frame.kind === "time") {
    const span = (frame.xs[frame.xs.length - 1] as number) - (frame.xs[0] as number);
    const format = createTimeFormatter(locale, timeFormatOptions(span, timeZone));
    return (value) => format(+value);
  }
  if (frame.kind === "number") {
    const format = createNumberFormatter(locale);
    return (value) => format(+value);
  }
  return (value) => String(value);
}

type IndexTick = { kind: "row"; at: number } | { kind: "value"; at: number };

/** The index axis ticks: time and number ticks by value, categories by row, thinned to fit. */
function indexTicks(
  frame: CartesianFrame,
  count: number,
  span: number,
  timeZone: string,
  maxChars: number,
): IndexTick[] {
  const first = frame.xs[0] as number;
  const last = frame.xs[frame.xs.length - 1] as number;
  if (frame.kind === "time") {
    return timeTicks(first, last, Math.max(2, Math.floor(span / 90)), timeZone).map((at) => ({
      kind: "value" as const,
      at,
    }));
  }
  if (frame.kind === "number") {
    const ticks =
      collapsedSpanTicks(first, last) ?? (getNiceTickValues([first, last], 5) as number[]);
    return ticks
      .filter((at) => at >= first && at <= last)
      .map((at) => ({ kind: "value" as const, at }));
  }
  // categories: every row whose label has room (about 7 px a character, 16 px apart)
  const room = Math.max(1, maxChars * 7 + 16);
  const step = Math.max(1, Math.ceil((count * room) / Math.max(1, span)));
  const rows: IndexTick[] = [];
  for (let i = 0; i < count; i += step) rows.push({ kind: "row", at: i });
  const lastRow = count - 1;
  if (lastRow > 0 && rows[rows.length - 1]?.at !== lastRow) {
    if (rows.length > 1 && lastRow - (rows[rows.length - 1] as IndexTick).at < step) rows.pop();
    rows.push({ kind: "row", at: lastRow });
  }
  return rows;
}
