/** String keys of a row type: what `index` and series keys are checked against. */
export type RowKey<Row> = Extract<keyof Row, string>;

/** Formats one value of a series for the tooltip, data table and axis. */
export type ValueFormatter = (value: number) => string;

/** A series named once and used by legend, tooltip and data table alike. */
export interface SeriesConfig<Row> {
  key: RowKey<Row>;
  /** Shown in legend, tooltip and table; defaults to the key. */
  label?: string;
  /** Any CSS colour; defaults to the next palette colour (`var(--seed-chart-N)`). */
  color?: string;
  formatter?: ValueFormatter;
}

/** A series is a row key or a full config. */
export type Series<Row> = RowKey<Row> | SeriesConfig<Row>;

/** A series with every field resolved; `dataKey` is the internal key of its value in drawn rows. */
export interface ResolvedSeries {
  key: string;
  dataKey: string;
  label: string;
  color: string;
  formatter: ValueFormatter | undefined;
}

export const PALETTE_SIZE = 8;

/** Palette colour N (0-based), as a CSS variable reference so themes can change it. */
export function paletteColor(position: number): string {
  return `var(--seed-chart-${(position % PALETTE_SIZE) + 1})`;
}

/** Resolves keys and configs; repeated keys are kept once (the first wins). */
export function resolveSeries<Row>(series: readonly Series<Row>[]): ResolvedSeries[] {
  const seen = new Set<string>();
  const resolved: ResolvedSeries[] = [];
  for (const item of series) {
    const config: SeriesConfig<Row> = typeof item === "string" ? { key: item } : item;
    if (seen.has(config.key)) continue;
    seen.add(config.key);
    const position = resolved.length;
    resolved.push({
      key: config.key,
      dataKey: `s${position}`,
      label: config.label ?? config.key,
      color: config.color ?? paletteColor(position),
      formatter: config.formatter,
    });
  }
  return resolved;
}
