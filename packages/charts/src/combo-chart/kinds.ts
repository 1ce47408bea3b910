// How a combo chart draws each series, without React: shared by ComboChart and the server's drawing.
import type { RowKey, SeriesConfig } from "../data/series";

/** A combo chart's series: a row key, or a config that also says how and against which axis. */
export interface ComboSeriesConfig<Row> extends SeriesConfig<Row> {
  /** Bars or a line (default: bars for the first series, lines for the rest). */
  type?: "bar" | "line";
  /** The value axis it is measured on (default "left"); "right" draws a second axis. */
  axis?: "left" | "right";
}

export type ComboSeries<Row> = RowKey<Row> | ComboSeriesConfig<Row>;

/** How one series is drawn: bars or a line, against the left or the right value axis. */
export interface ComboKind {
  type: "bar" | "line";
  axis: "left" | "right";
}

/** How each series is drawn, by key: the first series is bars and the rest lines unless told. */
export function comboSeriesKinds<Row>(series: readonly ComboSeries<Row>[]): Map<string, ComboKind> {
  const kinds = new Map<string, ComboKind>();
  for (const item of series) {
    const config: ComboSeriesConfig<Row> = typeof item === "string" ? { key: item } : item;
    if (kinds.has(config.key)) continue;
    kinds.set(config.key, {
      type: config.type ?? (kinds.size === 0 ? "bar" : "line"),
      axis: config.axis ?? "left",
    });
  }
  return kinds;
}
