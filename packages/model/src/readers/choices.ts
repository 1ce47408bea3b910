import { z } from "zod";
import { datasetLimits } from "../limits.js";
import { setOwn } from "../values.js";
import { type ColumnType, columnTypes } from "../vocabulary.js";
import {
  type ColumnFormat,
  currencySigns,
  datePatterns,
  formatExample,
  formatName,
  isNumberTextFormat,
  type NumberTextFormat,
  serialTimeFormats,
  thousandsSeparators,
} from "./formats.js";

// What a person may choose for the columns of a file before it is imported (the preview's type
// and format pickers): one schema for the import form, the routes that take the choice and the
// store that reads the file with it.

export const numberTextFormatSchema = z
  .object({
    decimal: z.enum([".", ","]),
    thousands: z.enum(thousandsSeparators).nullable(),
    currency: z
      .string()
      .length(1)
      .refine((sign) => currencySigns.includes(sign), "Not a currency sign this reader knows.")
      .nullable(),
    percent: z.boolean(),
  })
  .strict();

export const timeFormatSchema = z.enum([...datePatterns, ...serialTimeFormats]);

export const columnFormatSchema = z.union([timeFormatSchema, numberTextFormatSchema]);

/** Whether a column of `type` reads values in `format` (numbers' formats, dates' patterns). */
export function formatFitsType(type: ColumnType, format: ColumnFormat): boolean {
  if (type === "number") return isNumberTextFormat(format);
  if (type === "date" || type === "timestamp") return typeof format === "string";
  return false;
}

/** The name a new dataset saves a column under: trimmed, never blank, never cut (too long is refused). */
export const columnNameChoiceSchema = z
  .string()
  .trim()
  .min(1, "a column's name cannot be blank.")
  .max(
    datasetLimits.maxColumnNameLength,
    `a column's name has at most ${datasetLimits.maxColumnNameLength} characters.`,
  );

/** One column's choice: the name a new dataset saves it under, its type, and the format its cells
 * are written in (each optional). */
export const importColumnChoiceSchema = z
  .object({
    name: columnNameChoiceSchema.optional(),
    type: z.enum(columnTypes).optional(),
    format: columnFormatSchema.optional(),
  })
  .strict()
  .refine(
    (choice) =>
      choice.type === undefined ||
      choice.format === undefined ||
      formatFitsType(choice.type, choice.format),
    { message: "The format is not one a column of this type reads.", path: ["format"] },
  );
export type ImportColumnChoice = z.infer<typeof importColumnChoiceSchema>;

/** The choices for a file's columns, by the header that names each. */
export type ImportColumnChoices = Record<string, ImportColumnChoice>;

/**
 * `choices` with `header`'s choice set (or removed, for null) as its own property: a column may be
 * named anything a header holds, "__proto__" included, and plain assignment would set the
 * object's prototype instead, losing the choice silently.
 */
export function withColumnChoice(
  choices: ImportColumnChoices,
  header: string,
  choice: ImportColumnChoice | null,
): ImportColumnChoices {
  const next: ImportColumnChoices = {};
  for (const [name, kept] of Object.entries(choices)) {
    if (name !== header) setOwn(next, name, kept);
  }
  if (choice !== null) setOwn(next, header, choice);
  return next;
}

/** The choice for `header`, only when the choices hold one of their own. */
export function columnChoiceOf(
  choices: ImportColumnChoices,
  header: string,
): ImportColumnChoice | undefined {
  return Object.hasOwn(choices, header) ? choices[header] : undefined;
}

/**
 * The choices for a file's columns, by the header that names each: at most maxColumns, each
 * header as long as a column name may be. Read key by key from the input's own properties (zod's
 * record rebuilds by assignment, which drops a "__proto__" header), so every header keeps its
 * choice.
 */
export const importColumnChoicesSchema = z
  .unknown()
  .transform((value, context): ImportColumnChoices => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      context.addIssue({ code: "custom", message: "Give the column choices as an object." });
      return z.NEVER;
    }
    const headers = Object.keys(value);
    if (headers.length > datasetLimits.maxColumns) {
      context.addIssue({ code: "custom", message: `At most ${datasetLimits.maxColumns} columns.` });
      return z.NEVER;
    }
    const choices: ImportColumnChoices = {};
    for (const header of headers) {
      if (header.length < 1 || header.length > datasetLimits.maxColumnNameLength) {
        context.addIssue({
          code: "custom",
          message: `A column name has 1 to ${datasetLimits.maxColumnNameLength} characters.`,
        });
        return z.NEVER;
      }
      const parsed = importColumnChoiceSchema.safeParse(
        Object.getOwnPropertyDescriptor(value, header)?.value,
      );
      if (!parsed.success) {
        const reason = parsed.error.issues[0]?.message ?? "it does not fit.";
        context.addIssue({ code: "custom", message: `Column "${header}": ${reason}` });
        return z.NEVER;
      }
      setOwn(choices, header, parsed.data);
    }
    return choices;
  });

const numberChoices: readonly NumberTextFormat[] = [
  { decimal: ".", thousands: null, currency: null, percent: false },
  { decimal: ".", thousands: ",", currency: null, percent: false },
  { decimal: ",", thousands: null, currency: null, percent: false },
  { decimal: ",", thousands: ".", currency: null, percent: false },
  { decimal: ",", thousands: " ", currency: null, percent: false },
  { decimal: ".", thousands: "'", currency: null, percent: false },
  { decimal: ".", thousands: ",", currency: "$", percent: false },
  { decimal: ".", thousands: ",", currency: "£", percent: false },
  { decimal: ",", thousands: ".", currency: "€", percent: false },
  { decimal: ".", thousands: null, currency: null, percent: true },
  { decimal: ",", thousands: null, currency: null, percent: true },
];

/**
 * The formats a picker offers for a column of `type` (none for text); `detected`, when it is
 * not among them (a rarer currency, say), comes first so the file's own reading stays on offer.
 */
export function formatChoicesFor(
  type: ColumnType,
  detected: ColumnFormat | null = null,
): ColumnFormat[] {
  const offered: ColumnFormat[] =
    type === "number"
      ? [...numberChoices]
      : type === "date" || type === "timestamp"
        ? [...datePatterns, ...serialTimeFormats]
        : [];
  if (detected === null || !formatFitsType(type, detected)) return offered;
  const key = formatKey(detected);
  return offered.some((format) => formatKey(format) === key) ? offered : [detected, ...offered];
}

/** A format as one string: to compare two and to stand as a select's value. */
export function formatKey(format: ColumnFormat): string {
  if (!isNumberTextFormat(format)) return format;
  const { decimal, thousands, currency, percent } = format;
  return JSON.stringify({ decimal, thousands, currency, percent });
}

/** The format a key stands for, or null when it is none (a changed or forged value). */
export function formatOfKey(key: string): ColumnFormat | null {
  let value: unknown = key;
  if (key.startsWith("{")) {
    try {
      value = JSON.parse(key);
    } catch {
      return null;
    }
  }
  const parsed = columnFormatSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** How a picker names a format: an example and its pattern, "Jan 31 2000 (MMM d yyyy)", "1,234.5". */
export function formatLabel(type: "number" | "date" | "timestamp", format: ColumnFormat): string {
  const example = formatExample(type, format);
  if (isNumberTextFormat(format)) return example;
  const name = formatName(type === "timestamp" ? "timestamp" : "date", format);
  const serial = {
    "unix-s": "seconds since 1970",
    "unix-ms": "milliseconds since 1970",
    "excel-serial": "Excel day number",
  } as Record<string, string>;
  return `${example} (${serial[format] ?? name})`;
}
