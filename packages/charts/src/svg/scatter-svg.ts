// A scatter chart as one SVG string, without React or a DOM: the same frame, density thinning,
// axes and point paths as ScatterChart draws, for a page's HTML before any script and for images.
import { scaleLinear } from "d3-scale";
import {
  createTickFormatter,
  createTimeFormatter,
  timeFormatOptions,
  timeTicks,
} from "../data/format";
import { valueAxisWidth } from "../parts/axis-tick";
import {
  type AxisBounds,
  niceDomain,
  pointLimit,
  pointPaths,
  prepareScatterFrame,
  radiiOf,
  type ScatterXKind,
  thinScatter,
} from "../scatter-chart/prepare";
import {
  type ChartSvgOptions,
  escapeXml,
  frameSvg,
  legendOf,
  noLegend,
  paintOf,
} from "./chart-svg";

/** What scatterSvg shares with chartSvg: size, name, locale and zone, y format, empty text, colours. */
type SharedSvgOptions = Pick<
  ChartSvgOptions,
  | "width"
  | "height"
  | "title"
  | "locale"
  | "timeZone"
  | "valueFormatter"
  | "emptyMessage"
  | "colors"
  | "legend"
>;

export interface ScatterSvgOptions extends SharedSvgOptions {
  /** Rows of data, as ScatterChart takes them. Anything else draws the empty state. */
  data: unknown;
  x: string;
  y: string;
  size?: string;
  color?: string;
  xType?: ScatterXKind;
  /** Formats x values on the axis; default dates by their span, numbers by the locale. */
  xFormatter?: (value: number) => string;
  /** Axis bounds, as ScatterChart's `xAxis` and `yAxis` take them. */
  xAxis?: AxisBounds;
  yAxis?: AxisBounds;
  /** Most points drawn one by one, as ScatterChart's `maxPoints` (default 2,000). */
  maxPoints?: number;
}

// ScatterChart's margin and axis height, as Recharts lays them out
const MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
const X_AXIS_HEIGHT = 30;

function at(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "0";
}

/**
 * The scatter chart as an SVG string of exactly `width` x `height` px: grid, both axes with their
 * ticks, and the points (thinned by density past `maxPoints`, shaded by how many each stands for)
 * in the palette; the empty state with its reason when nothing can be drawn. Never throws.
 */
export function scatterSvg(options: ScatterSvgOptions): string {
  // no size draws an empty 1 x 1 box, as chartSvg does
  const drawable = options.width > 0 && options.height > 0;
  const width = drawable ? options.width : 1;
  const height = drawable ? options.height : 1;
  const frame = prepareScatterFrame(options.data, {
    x: options.x,
    y: options.y,
    size: options.size,
    color: options.color,
    xKind: options.xType,
  });
  const paint = paintOf(options.colors);
  const sized = { ...options, width, height };
  if (!drawable) return frameSvg(sized, "");
  if (frame.emptyReason !== null || !frame.xRange || !frame.yRange) {
    const lines = [options.emptyMessage ?? "No data to display", frame.emptyReason ?? ""]
      .filter(Boolean)
      .slice(0, Math.max(0, Math.floor(height / 18)));
    return frameSvg(
      sized,
      lines
        .map(
          (text, i) =>
            `<text x="${at(width / 2)}" y="${at(height / 2 + i * 18)}" text-anchor="middle" fill="${paint.muted}">${escapeXml(text)}</text>`,
        )
        .join(""),
    );
  }
  const { locale } = options;
  const timeZone = options.timeZone ?? "UTC";
  const yTick = options.valueFormatter ?? createTickFormatter(locale);
  let xTick: (value: number) => string;
  if (options.xFormatter) xTick = options.xFormatter;
  else if (frame.xKind === "time") {
    const format = createTimeFormatter(
      locale,
      timeFormatOptions(frame.xRange[1] - frame.xRange[0], timeZone),
    );
    xTick = format;
  } else xTick = createTickFormatter(locale);

  const yNice = niceDomain(frame.yRange, options.yAxis);
  const xNice =
    frame.xKind === "time"
      ? {
          domain: [frame.xRange[0], frame.xRange[1]] as [number, number],
          ticks: timeTicks(
            frame.xRange[0],
            frame.xRange[1],
            Math.max(2, Math.floor(width / 90)),
            timeZone,
          ),
        }
      : niceDomain(frame.xRange, options.xAxis);
  const left = MARGIN.left + valueAxisWidth(yNice.ticks, (v) => yTick(+v));
  const right = width - MARGIN.right;
  const top = MARGIN.top;
  // a legend only where colours stand for groups; it takes rows from the bottom, never half
  const legend =
    options.legend && options.color !== undefined
      ? legendOf(
          frame.groups,
          frame.groups.map((_, k) => paint.series(k)),
          width,
          paint,
        )
      : noLegend;
  const legendHeight = legend.height <= height / 2 ? legend.height : 0;
  const bottom = height - MARGIN.bottom - X_AXIS_HEIGHT - legendHeight;
  // a box smaller than its axes has no room for a point
  if (right - left < 1 || bottom - top < 1) return frameSvg(sized, "");
  const xScale = scaleLinear()
    .domain(
      xNice.domain[0] === xNice.domain[1]
        ? [xNice.domain[0] - 1, xNice.domain[0] + 1]
        : xNice.domain,
    )
    .range([left, right]);
  const yScale = scaleLinear()
    .domain(
      yNice.domain[0] === yNice.domain[1]
        ? [yNice.domain[0] - 1, yNice.domain[0] + 1]
        : yNice.domain,
    )
    .range([bottom, top]);

  const parts: string[] = [];
  for (const tick of yNice.ticks) {
    const y = yScale(tick);
    parts.push(
      `<line x1="${at(left)}" x2="${at(right)}" y1="${at(y)}" y2="${at(y)}" stroke="${paint.grid}" stroke-dasharray="3 3"/><text x="${at(left - 8)}" y="${at(y + 4)}" text-anchor="end" fill="${paint.axis}">${escapeXml(yTick(tick))}</text>`,
    );
  }
  // x labels at least 16 px apart (Recharts' minTickGap), about 7 px a character
  let lastEnd = -Infinity;
  for (const tick of xNice.ticks) {
    const x = xScale(tick);
    if (!(x >= left - 0.5 && x <= right + 0.5)) continue;
    parts.push(
      `<line x1="${at(x)}" x2="${at(x)}" y1="${at(top)}" y2="${at(bottom)}" stroke="${paint.grid}" stroke-dasharray="3 3"/>`,
    );
    const label = xTick(tick);
    const half = (label.length * 7) / 2;
    if (x - half < lastEnd + 16) continue;
    lastEnd = x + half;
    parts.push(
      `<text x="${at(x)}" y="${at(bottom + 16)}" text-anchor="middle" fill="${paint.axis}">${escapeXml(label)}</text>`,
    );
  }
  parts.push(
    `<line x1="${at(left)}" x2="${at(right)}" y1="${at(bottom)}" y2="${at(bottom)}" stroke="${paint.axisLine}"/><line x1="${at(left)}" x2="${at(left)}" y1="${at(top)}" y2="${at(bottom)}" stroke="${paint.axisLine}"/>`,
  );

  const sample = thinScatter(frame, right - left, bottom - top, pointLimit(options.maxPoints));
  const radii = radiiOf(frame, sample);
  const px = Float64Array.from(sample.points, (point) => xScale(frame.xs[point] as number));
  const py = Float64Array.from(sample.points, (point) => yScale(frame.ys[point] as number));
  for (const { group, shade, d } of pointPaths(frame, sample, radii, px, py)) {
    const colour = paint.series(group);
    parts.push(
      `<path d="${d}" fill="${colour}" fill-opacity="${shade}" stroke="${colour}" stroke-opacity="0.9" stroke-width="0.75"/>`,
    );
  }
  if (legendHeight) parts.push(legend.draw(height - legendHeight));
  return frameSvg(sized, parts.join(""));
}
