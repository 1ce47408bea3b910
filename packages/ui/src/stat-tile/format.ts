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
