// A calendar heatmap as one SVG string, without React or a DOM: the same days, layout, bins and
// colours as CalendarHeatmap draws, for a page's HTML before any script and for images.
import {
  binCount,
  binsOf,
  calendarFormats,
  cellPaths,
  emptyStroke,
  layoutCalendar,
  prepareCalendarFrame,
  rampOf,
  safeLocale,
} from "../calendar-heatmap/prepare";
import { createNumberFormatter } from "../data/format";
import { type ChartSvgOptions, escapeXml, paintOf } from "./chart-svg";

export interface CalendarSvgOptions
  extends Pick<
    ChartSvgOptions,
    "title" | "locale" | "timeZone" | "valueFormatter" | "emptyMessage"
  > {
  /** Rows of data, as CalendarHeatmap takes them. Anything else draws the empty state. */
  data: unknown;
  /** Row key of each row's day (Date, ms timestamp or ISO string). */
  date: string;
  /** Row key of the value. */
  value: string;
  /** Width of the drawing in px: the plot box of the CalendarHeatmap it stands for. */
  width: number;
  /** Height in px; default the calendar's own (years stacked, legend under them). */
  height?: number;
  /** First day of the week: 1 Monday (default) or 0 Sunday. */
  weekStart?: 0 | 1;
  /**
   * Bin colours as CalendarHeatmap's `colors` (an array), or the theme: "variables" (default,
   * the stylesheet's CSS variables), "light" or "dark" written out for an image.
   */
  colors?: readonly string[] | "variables" | "light" | "dark";
  /** The bins and their ranges under the calendar, as text. Default false (the chart's legend is HTML). */
  legend?: boolean;
}

const LEGEND_ROW = 20;

function at(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "0";
}

/**
 * The calendar as an SVG string: a cell per day of the drawn years in the same bins and colours
 * as CalendarHeatmap, weekday, month and year labels; the empty state with its reason when
 * nothing can be drawn. Its viewBox holds every mark: a box narrower or shorter than the
 * calendar shows it scaled down. Never throws.
 */
export function calendarSvg(options: CalendarSvgOptions): string {
  const given = Array.isArray(options.colors) ? (options.colors as readonly string[]) : undefined;
  const theme =
    options.colors === "light" || options.colors === "dark" ? options.colors : "variables";
  const paint = paintOf(theme);
  const width = options.width > 0 && Number.isFinite(options.width) ? options.width : 1;
  const frame = prepareCalendarFrame(options.data, {
    date: options.date,
    value: options.value,
    timeZone: options.timeZone,
  });
  const bins = binsOf(frame.range, binCount(given));
  const ramp = rampOf(bins.edges.length - 1, given, theme);
  const layout = layoutCalendar(frame, bins, width, options.weekStart === 0 ? 0 : 1);
  const valueFormat =
    options.valueFormatter ??
    createNumberFormatter(safeLocale(options.locale), { maximumFractionDigits: 2 });
  const formats = calendarFormats(options.locale);
  const parts: string[] = [];
  let contentHeight = layout.height;
  if (frame.emptyReason !== null) {
    const fit = options.height && options.height > 0 ? options.height : 120;
    const lines = [options.emptyMessage ?? "No data to display", frame.emptyReason]
      .filter(Boolean)
      .slice(0, Math.max(0, Math.floor(fit / 18)));
    lines.forEach((text, i) => {
      parts.push(
        `<text x="${at(width / 2)}" y="${at(fit / 2 + i * 18)}" text-anchor="middle" fill="${paint.muted}">${escapeXml(text)}</text>`,
      );
    });
    contentHeight = fit;
  } else {
    for (const label of layout.yearLabels) {
      parts.push(
        `<text x="${at(label.x)}" y="${at(label.y)}" fill="${paint.fg}" font-size="12" font-weight="600">${label.year}</text>`,
      );
    }
    for (const label of layout.monthLabels) {
      parts.push(
        `<text x="${at(label.x)}" y="${at(label.y)}" fill="${paint.axis}">${escapeXml(formats.month(label.day))}</text>`,
      );
    }
    for (const label of layout.weekdayLabels) {
      parts.push(
        `<text x="${at(label.x)}" y="${at(label.y)}" text-anchor="end" fill="${paint.axis}">${escapeXml(formats.weekday(label.weekday))}</text>`,
      );
    }
    const stroke = emptyStroke(theme);
    for (const part of cellPaths(layout)) {
      parts.push(
        part.bin < 0
          ? `<path class="seed-calendar-cells" data-bin="none" d="${part.d}" fill="none" stroke="${escapeXml(stroke)}" stroke-width="1"/>`
          : `<path class="seed-calendar-cells" data-bin="${part.bin}" d="${part.d}" fill="${escapeXml(ramp[part.bin] ?? "")}"/>`,
      );
    }
    if (options.legend) {
      const n = bins.edges.length - 1;
      const items = ramp.slice(0, n).map((colour, k) => {
        const from = valueFormat(bins.edges[k] as number);
        const to = valueFormat(bins.edges[k + 1] as number);
        return { colour, label: from === to ? from : `${from} – ${to}` };
      });
      items.push({ colour: "", label: "No data" });
      let x = 0;
      let row = 0;
      const placed = items.map((item) => {
        const itemWidth = 16 + item.label.length * 6.5 + 12;
        if (x > 0 && x + itemWidth > layout.width) {
          x = 0;
          row++;
        }
        const place = { ...item, x, row };
        x += itemWidth;
        return place;
      });
      for (const item of placed) {
        const y = contentHeight + item.row * LEGEND_ROW;
        parts.push(
          item.colour
            ? `<rect x="${at(item.x)}" y="${at(y + 5)}" width="10" height="10" fill="${escapeXml(item.colour)}"/>`
            : `<rect x="${at(item.x + 0.5)}" y="${at(y + 5.5)}" width="9" height="9" fill="none" stroke="${escapeXml(stroke)}"/>`,
          `<text x="${at(item.x + 16)}" y="${at(y + 14)}" fill="${paint.fg}">${escapeXml(item.label)}</text>`,
        );
      }
      contentHeight += (row + 1) * LEGEND_ROW;
    }
  }
  const height =
    options.height && options.height > 0 && Number.isFinite(options.height)
      ? options.height
      : Math.max(120, contentHeight); // the chart's plot box is at least 120 px tall too
  // the viewBox holds the whole calendar: a smaller box scales it down, never cuts it
  const boxWidth = Math.max(width, layout.width);
  const boxHeight = Math.max(height, contentHeight, 1);
  const named = options.title
    ? `role="img" aria-label="${escapeXml(options.title)}"`
    : `aria-hidden="true" focusable="false"`;
  const title = options.title ? `<title>${escapeXml(options.title)}</title>` : "";
  const fill = paint.background
    ? `<rect x="0" y="0" width="${at(boxWidth)}" height="${at(boxHeight)}" fill="${paint.bg}"/>`
    : "";
  const font = paint.background
    ? "ui-sans-serif,system-ui,sans-serif"
    : "var(--seed-chart-font,ui-sans-serif,system-ui,sans-serif)";
  return `<svg xmlns="http://www.w3.org/2000/svg" class="seed-chart-svg" width="${Math.round(width)}" height="${Math.round(height)}" viewBox="0 0 ${at(boxWidth)} ${at(boxHeight)}" ${named} style="font-size:10px;font-family:${font};display:block;max-width:100%">${title}${fill}${parts.join("")}</svg>`;
}
