import { truncateLabel } from "../data/format";
import type { RowKey } from "../data/series";
import { prepareTableFrame, sortTableRows, type TableColumn } from "../table-chart/prepare";
import { escapeXml, frameSvg, paintOf } from "./chart-svg";

export interface TableSvgOptions<Row = Record<string, unknown>> {
  data: readonly Row[];
  columns: readonly (RowKey<Row> | TableColumn<Row>)[];
  width: number;
  height: number;
  locale?: string;
  timeZone?: string;
  title?: string;
  /** The rows' order (default: the data's). */
  sort?: { key: RowKey<Row>; direction: "asc" | "desc" };
  /** As chartSvg's: CSS variables (default), or one theme's colours on its own background. */
  colors?: "variables" | "light" | "dark";
}

const ROW = 22;
const PAD = 8;
/** A 12 px sans-serif character, on average: how much text a column has room for. */
const CHAR = 6.6;
/** No drawing is larger than this many px a side (a size past it is taken as this). */
const MAX_SIZE = 20_000;

/**
 * A TableChart's first rows as an SVG of a given size, for a report's image or a server page:
 * the same cells (formats, missing values, tones as marks and words) as the table draws, as many
 * rows as fit, then how many more there are. Text is escaped and cut to its column.
 */
export function tableSvg<Row>(options: TableSvgOptions<Row>): string {
  const size = (value: number) =>
    Math.min(MAX_SIZE, Math.max(1, Math.round(Number.isFinite(value) ? value : 1)));
  const width = size(options.width);
  const height = size(options.height);
  const frame = prepareTableFrame(options.data, options.columns, {
    locale: options.locale,
    timeZone: options.timeZone,
  });
  const paint = paintOf(options.colors);
  const rows = sortTableRows(frame, options.sort ?? null, options.locale);
  const columns = frame.columns;
  const framed = { width, height, title: options.title, colors: options.colors };
  if (columns.length === 0 || rows.length === 0) {
    const reason = frame.emptyReason ?? "No data to display";
    return frameSvg(
      framed,
      `<text x="${width / 2}" y="${height / 2 + 4}" text-anchor="middle" fill="${paint.muted}">${escapeXml(reason)}</text>`,
    );
  }
  const marks = { good: "✓ ", warning: "! ", bad: "✕ " } as const;
  const texts = rows.map((row) =>
    row.cells.map((cell) => (cell.tone ? `${marks[cell.tone]}${cell.text}` : cell.text)),
  );
  // Each column's share of the width follows its longest text (header included), at least 4 characters.
  const wants = columns.map((column, at) =>
    Math.max(4, column.label.length, ...texts.slice(0, 50).map((cells) => cells[at]?.length ?? 0)),
  );
  const total = wants.reduce((sum, want) => sum + want, 0);
  const inner = width - PAD * 2;
  const widths = wants.map((want) => (inner * want) / total);
  const lefts = widths.map((_, at) => PAD + widths.slice(0, at).reduce((sum, w) => sum + w, 0));
  const fits = Math.max(0, Math.floor((height - ROW) / ROW) - 1);
  const shown = rows.length <= fits + 1 ? rows.length : fits;
  const cell = (text: string, at: number, y: number, weight: string) => {
    const column = columns[at];
    const room = Math.max(1, Math.floor((widths[at] ?? 0) / CHAR) - 1);
    const right = column?.kind === "number";
    const x = right ? (lefts[at] ?? 0) + (widths[at] ?? 0) - 4 : (lefts[at] ?? 0);
    return `<text x="${x.toFixed(1)}" y="${y}"${right ? ' text-anchor="end"' : ""}${weight} fill="${paint.fg}">${escapeXml(truncateLabel(text, room))}</text>`;
  };
  const parts: string[] = [];
  parts.push(
    columns.map((column, at) => cell(column.label, at, 15, ' font-weight="600"')).join(""),
  );
  parts.push(
    `<line x1="${PAD}" x2="${width - PAD}" y1="${ROW}" y2="${ROW}" stroke="${paint.axisLine}"/>`,
  );
  for (let index = 0; index < shown; index++) {
    const y = ROW * (index + 1) + 15;
    parts.push((texts[index] ?? []).map((text, at) => cell(text, at, y, "")).join(""));
  }
  if (shown < rows.length) {
    const more = rows.length - shown;
    parts.push(
      `<text x="${PAD}" y="${ROW * (shown + 1) + 15}" fill="${paint.muted}">${escapeXml(
        `…and ${more.toLocaleString("en-US")} more row${more === 1 ? "" : "s"}`,
      )}</text>`,
    );
  }
  return frameSvg(framed, parts.join(""));
}
