export const DEFAULT_LOCALE = "en-US";

/** A number formatter that falls back to defaults instead of throwing on a bad locale or options. */
export function createNumberFormat(
  locale: string | undefined,
  options: Intl.NumberFormatOptions | undefined,
): Intl.NumberFormat {
  const requested = locale ?? DEFAULT_LOCALE;
  try {
    return new Intl.NumberFormat(requested, options);
  } catch {
    try {
      return new Intl.NumberFormat(requested);
    } catch {
      return new Intl.NumberFormat(DEFAULT_LOCALE);
    }
  }
}

export type Trend = "up" | "down" | "flat";

export function trendOf(delta: number): Trend {
  if (delta > 0) return "up";
  if (delta < 0) return "down";
  return "flat";
}

/** Formats a fraction as a signed percent, e.g. -0.12 -> "-12%" and 0.034 -> "+3.4%". */
export function formatSignedPercent(delta: number, locale: string | undefined): string {
  return createNumberFormat(locale, {
    style: "percent",
    signDisplay: "exceptZero",
    maximumFractionDigits: 1,
  }).format(delta);
}

/** What a stat tile says, in words: for places that show it without the tile (an email, a PDF). */
export interface StatTileWords {
  label: string;
  /** The figure as the tile writes it, or "—" when there is none. */
  value: string;
  /** Why there is no figure, when there is none and a reason. */
  empty: string | null;
  /** The change and what it compares with: "+12% vs last month". */
  change: string | null;
  /** How the figure stands against its target: "below target". */
  status: string | null;
}

export interface StatTileFigures {
  label: string;
  value: number | null;
  format?: Intl.NumberFormatOptions;
  locale?: string;
  delta?: number;
  deltaLabel?: string;
  emptyReason?: string;
  status?: { label: string };
}

/** A figure as a stat tile writes it; null when there is none (null or not finite). */
export function formatStatValue(
  value: number | null,
  locale: string | undefined,
  format: Intl.NumberFormatOptions | undefined,
): string | null {
  return value !== null && Number.isFinite(value)
    ? createNumberFormat(locale, format).format(value)
    : null;
}

/** A stat tile's words, written exactly as the tile writes them. */
export function statTileWords(figures: StatTileFigures): StatTileWords {
  const value = formatStatValue(figures.value, figures.locale, figures.format);
  const delta =
    figures.delta !== undefined && Number.isFinite(figures.delta)
      ? formatSignedPercent(figures.delta, figures.locale)
      : null;
  return {
    label: figures.label,
    value: value ?? "—",
    empty: value === null ? (figures.emptyReason ?? null) : null,
    change: delta === null ? null : [delta, figures.deltaLabel?.trim()].filter(Boolean).join(" "),
    status: value !== null ? (figures.status?.label ?? null) : null,
  };
}
