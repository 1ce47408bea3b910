import countryToCurrency from "country-to-currency";
import { z } from "zod";

/** A subset of Intl.NumberFormatOptions that is safe to store and pass to Intl.NumberFormat. */
export const numberFormatSchema = z
  .object({
    style: z
      .enum(["decimal", "percent", "currency"], {
        error: "Style must be decimal, percent or currency.",
      })
      .optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "Use a three-letter currency code such as USD.")
      .optional(),
    notation: z
      .enum(["standard", "compact"], { error: "Notation must be standard or compact." })
      .optional(),
    minimumFractionDigits: z.number().int().min(0).max(20).optional(),
    maximumFractionDigits: z.number().int().min(0).max(20).optional(),
  })
  .strict()
  .superRefine((format, ctx) => {
    // A currency style without a code writes the locale's own currency (localeCurrency).
    if (
      format.minimumFractionDigits !== undefined &&
      format.maximumFractionDigits !== undefined &&
      format.minimumFractionDigits > format.maximumFractionDigits
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["maximumFractionDigits"],
        message: "Maximum fraction digits must be at least the minimum.",
      });
    }
  });
export type NumberFormat = z.infer<typeof numberFormatSchema>;

/**
 * The currency of a locale's country (ISO 4217): de-DE and fr-FR write EUR, en-GB GBP, ja-JP JPY;
 * a language alone is read with its likely country (en is en-US). Undefined when the locale names
 * no country with a currency of its own.
 */
export function localeCurrency(locale: string): string | undefined {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    return undefined;
  }
  return region === undefined
    ? undefined
    : (countryToCurrency as Readonly<Record<string, string>>)[region];
}

/**
 * The Intl options a stored format stands for in a locale: a currency style without a code
 * takes the locale's currency (USD where the locale has none), so "Currency" alone is never
 * silently plain numbers.
 */
export function numberFormatIn(format: NumberFormat, locale: string): Intl.NumberFormatOptions {
  if (format.style !== "currency" || format.currency !== undefined) return format;
  return { ...format, currency: localeCurrency(locale) ?? "USD" };
}

/** The number format fields of a form: "" is the default format; "compact" is a notation. */
export const formatStyles = ["", "decimal", "compact", "percent", "currency"] as const;
export type FormatStyle = (typeof formatStyles)[number];

const digitsMessage = "Enter a whole number from 0 to 20.";

/**
 * The format a form's fields stand for (charts and stat tiles alike), or undefined for the
 * default; a bad digit count goes into fieldErrors, the rest the schema above checks.
 */
export function numberFormatOfFields(
  fields: { formatStyle: string; formatCurrency: string; formatMaxDigits: string },
  fieldErrors: Record<string, string[]>,
): NumberFormat | undefined {
  if (fields.formatStyle === "") return undefined;
  // "compact" is a notation of plain numbers (1.2K), not an Intl style.
  const format: Record<string, unknown> =
    fields.formatStyle === "compact" ? { notation: "compact" } : { style: fields.formatStyle };
  const currency = fields.formatCurrency.trim().toUpperCase();
  if (fields.formatStyle === "currency" && currency !== "") format.currency = currency;
  const digits = fields.formatMaxDigits.trim();
  if (digits !== "") {
    if (/^\d{1,2}$/.test(digits) && Number(digits) <= 20) {
      format.maximumFractionDigits = Number(digits);
    } else {
      fieldErrors["format.maximumFractionDigits"] = [digitsMessage];
    }
  }
  return format as NumberFormat;
}
