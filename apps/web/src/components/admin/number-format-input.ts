import type { NumberFormat } from "@seed/model";
import { z } from "zod";
import { formText } from "@/lib/form-state";

const fractionDigitsMessage = "Enter a whole number from 0 to 20.";
const fractionDigitsSchema = z.coerce
  .number({ error: fractionDigitsMessage })
  .int({ error: fractionDigitsMessage })
  .min(0, { error: fractionDigitsMessage })
  .max(20, { error: fractionDigitsMessage });

/**
 * The number format fields (formatStyle, formatCurrency, formatMaxDigits) as a stored format;
 * blank style means default formatting. Digit problems go into fieldErrors; the rest the store checks.
 */
export function readNumberFormat(
  formData: FormData,
  fieldErrors: Record<string, string[]>,
): NumberFormat | undefined {
  const style = formText(formData, "formatStyle");
  if (style === "") return undefined;
  // "compact" is a notation of plain numbers (1.2K), not an Intl style
  const format: Record<string, unknown> = style === "compact" ? { notation: "compact" } : { style };
  const currency = formText(formData, "formatCurrency").trim().toUpperCase();
  if (style === "currency" && currency !== "") format.currency = currency;
  const digits = formText(formData, "formatMaxDigits").trim();
  if (digits !== "") {
    const parsed = fractionDigitsSchema.safeParse(digits);
    if (parsed.success) format.maximumFractionDigits = parsed.data;
    else fieldErrors["format.maximumFractionDigits"] = [fractionDigitsMessage];
  }
  return format as NumberFormat;
}
