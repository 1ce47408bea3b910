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
