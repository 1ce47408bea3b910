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
    if (format.style === "currency" && format.currency === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["currency"],
        message: "Enter a currency code for currency style.",
      });
    }
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
