import { type NumberFormat, numberFormatOfFields } from "@seed/model";
import { formText } from "@/lib/form-state";

/** A form's number format fields (formatStyle, formatCurrency, formatMaxDigits) as a stored format. */
export function readNumberFormat(
  formData: FormData,
  fieldErrors: Record<string, string[]>,
): NumberFormat | undefined {
  return numberFormatOfFields(
    {
      formatStyle: formText(formData, "formatStyle"),
      formatCurrency: formText(formData, "formatCurrency"),
      formatMaxDigits: formText(formData, "formatMaxDigits"),
    },
    fieldErrors,
  );
}
