import {
  type ChartLocale,
  type ChartOptions,
  chartOptionDefaults,
  type DateFormat,
  numberFormatIn,
  type XNumberFormat,
} from "@seed/model";

// The one home of how a stored chart writes numbers and dates: the renderer hands these to
// @seed/charts, which uses them on axis ticks, tooltips, value labels and the data table alike.

/** What charts without a locale option format in (the same on the server and in every browser). */
export const defaultChartLocale = chartOptionDefaults.locale;

/** Names of the locale choices, in their own language so each is recognisable. */
export const chartLocaleLabels: Record<ChartLocale, string> = {
  "en-US": "English (United States): 1,234.5",
  "en-GB": "English (United Kingdom): 1,234.5",
  "de-DE": "Deutsch (Deutschland): 1.234,5",
  "fr-FR": "Français (France): 1 234,5",
  "es-ES": "Español (España): 1234,5",
  "it-IT": "Italiano (Italia): 1.234,5",
  "nl-NL": "Nederlands (Nederland): 1.234,5",
  "pt-BR": "Português (Brasil): 1.234,5",
  "ja-JP": "日本語 (日本): 1,234.5",
  "zh-CN": "中文 (中国): 1,234.5",
  visitor: "The visitor's own (from their browser)",
};

/** A BCP 47 tag Intl can use: the chosen locale, the visitor's for "visitor", else the default. */
export function resolveChartLocale(choice: ChartLocale | undefined, visitorLocale: string): string {
  if (choice === undefined) return defaultChartLocale;
  if (choice !== "visitor") return choice;
  return Intl.NumberFormat.supportedLocalesOf([visitorLocale])[0] ?? defaultChartLocale;
}

/** Values as the chart's number format says, or undefined for the kit's own default in the locale. */
export function chartValueFormatter(
  format: ChartOptions["numberFormat"],
  locale: string,
): ((value: number) => string) | undefined {
  if (!format) return undefined;
  let formatter: Intl.NumberFormat;
  try {
    formatter = new Intl.NumberFormat(locale, numberFormatIn(format, locale));
  } catch {
    // a format the store let through but this runtime rejects draws with the default
    return undefined;
  }
  return (value) => (Number.isFinite(value) ? formatter.format(value) : "–");
}

/** Whole numbers from 1000 to 2999: what a year column holds, and how few other columns look. */
function isYear(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 1000 && value <= 2999;
}

/**
 * The kit's axis options for numbers on the index (a number x column): "plain" writes them
 * without grouping separators (years read 1900, not 1,900) on ticks, tooltips and the table;
 * "auto" (and charts that do not set it) does so too when every x is a year, and leaves other
 * numbers to the kit (the locale's grouping).
 */
export function chartIndexAxis(
  format: XNumberFormat | undefined,
  xs: readonly unknown[],
): { numberFormat: Intl.NumberFormatOptions } | undefined {
  const plain = format === "plain" || (xs.length > 0 && xs.every(isYear));
  return plain ? { numberFormat: { useGrouping: false } } : undefined;
}

/** Dates are whole UTC days or instants in the query's results; UTC keeps server and browser equal. */
const dateFormatOptions: Record<DateFormat, Intl.DateTimeFormatOptions> = {
  day: { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" },
  month: { year: "numeric", month: "short", timeZone: "UTC" },
  year: { year: "numeric", timeZone: "UTC" },
};

const isoDate = /^\d{4}-\d{2}-\d{2}([T ].*)?$/;

/**
 * Index values (timestamps from the kit, or the query's ISO strings) as the chosen date format;
 * anything that is not a date is written as it is. Undefined keeps the kit's format by span.
 */
export function chartDateFormatter(
  format: DateFormat | undefined,
  locale: string,
): ((value: number | string) => string) | undefined {
  if (!format) return undefined;
  const formatter = new Intl.DateTimeFormat(locale, dateFormatOptions[format]);
  return (value) => {
    const time =
      typeof value === "number" ? value : isoDate.test(value) ? Date.parse(value) : Number.NaN;
    return Number.isFinite(time) && Math.abs(time) <= 8.64e15
      ? formatter.format(time)
      : String(value);
  };
}
