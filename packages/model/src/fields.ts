import { type ZodError, z } from "zod";
import type { FieldErrors } from "./errors.js";

/** Text that must be given (trimmed, `missing` when absent or blank) and at most `max` long. */
export const boundedText = (missing: string, max: number, tooLong: string) =>
  z.string({ error: missing }).trim().min(1, missing).max(max, tooLong);

/** "Enter a name." / "Keep the name under 101 characters."; `article` "the" for "Enter the host." */
export const requiredText = (label: string, max: number, article: "a" | "the" = "a") =>
  boundedText(`Enter ${article} ${label}.`, max, `Keep the ${label} under ${max + 1} characters.`);

export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, `Keep the ${label} under ${max + 1} characters.`);

export const idSchema = (label: string) =>
  z
    .string({ error: `Choose a ${label}.` })
    .trim()
    .min(1, `Choose a ${label}.`);

/** Flattens a ZodError into per-field messages keyed by dotted path ("tiles.0.chartId"). */
export function formatZodError(error: ZodError): FieldErrors {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) {
      formErrors.push(issue.message);
      continue;
    }
    const key = issue.path.map(String).join(".");
    const messages = fieldErrors[key] ?? [];
    if (!messages.includes(issue.message)) messages.push(issue.message);
    fieldErrors[key] = messages;
  }
  return formErrors.length > 0 ? { fieldErrors, formError: formErrors.join(" ") } : { fieldErrors };
}
