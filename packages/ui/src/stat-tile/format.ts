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

/** A stat tile's figures: what StatTile shows and statTileWords says. */
export interface StatTileFigures {
  label: string;
  /** The figure; null (or a non-finite number) shows an em dash read out as "no data". */
  value: number | null;
  /** Intl.NumberFormat options, e.g. { style: "currency", currency: "EUR" }. */
  format?: Intl.NumberFormatOptions;
  /** BCP 47 locale for the value and delta. Default "en-US" (fixed so server and client agree). */
  locale?: string;
  /** Change as a fraction: -0.12 means a 12% fall. */
  delta?: number;
  /** What the change compares with, e.g. "vs last month". */
  deltaLabel?: string;
  /** Why there is no value, shown under the dash: "No rows in the last 30 days (...)". */
  emptyReason?: string;
  /** How the value stands against a target, in words: { label: "below target" }. */
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
