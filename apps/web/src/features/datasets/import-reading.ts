import {
  type ImportColumnChoices,
  importColumnChoicesSchema,
  importFormats,
  jsonInputLimits,
  readBoundedJson,
  xlsxSheetNameLength,
} from "@seed/model";
import { csvDelimiters, decimalSeparators } from "@seed/store/csv";
import { z } from "zod";

// How a file is to be read, as the import form sends it to the preview and import routes (query
// parameters): one schema for both routes and the form that builds the parameters.

/** The longest encoding name a form may send (iconv-lite's names are far shorter). */
const maxEncodingName = 40;
/** The lowest line a header row may be on (notes above a table are a few lines). */
export const maxHeaderRow = 1_000;
const choicesLimits = jsonInputLimits.columnChoices;
/**
 * The longest query the form sends: Node reads at most 16 KB of request line and headers, so a
 * reading past this (many columns renamed with long names) is refused in the form, in words.
 */
const maxReadingQueryChars = 12 * 1024;

const choicesParam = z.string().transform((text, context): ImportColumnChoices => {
  const read = readBoundedJson(text, choicesLimits, "The column choices");
  if (!read.ok) {
    context.addIssue({ code: "custom", message: read.message });
    return z.NEVER;
  }
  const parsed = importColumnChoicesSchema.safeParse(read.value);
  if (!parsed.success) {
    context.addIssue({
      code: "custom",
      message: parsed.error.issues[0]?.message ?? "The column choices do not fit.",
    });
    return z.NEVER;
  }
  return parsed.data;
});

export const importReadingSchema = z.object({
  format: z.enum(importFormats).default("csv"),
  delimiter: z.enum([...csvDelimiters, "auto"]).default("auto"),
  decimal: z.enum([...decimalSeparators, "auto"]).default("auto"),
  encoding: z.string().trim().min(1).max(maxEncodingName).default("auto"),
  sheet: z.string().trim().min(1).max(xlsxSheetNameLength).optional(),
  headerRow: z.coerce.number().int().min(1).max(maxHeaderRow).optional(),
  columns: choicesParam.optional(),
});
export type ImportReading = z.input<typeof importReadingSchema>;

/** What a refused reading says, naming the parameters. */
export const importReadingProblem = `The separator must be auto, comma, semicolon, tab or pipe, the decimal mark auto, . or ,, the format one of ${importFormats.join(", ")}, the encoding a name of at most ${maxEncodingName} characters, a sheet name at most ${xlsxSheetNameLength} characters, the header row a line from 1 to ${maxHeaderRow} and the column choices JSON of at most ${choicesLimits.maxBytes.toLocaleString("en-US")} bytes.`;

/**
 * What a refused reading says: the column choices' own reason (too deep, a name too long, a
 * format its type does not read), else the parameters' rules.
 */
export function importReadingRefusal(error: z.ZodError): string {
  const issue = error.issues.find((found) => found.path[0] === "columns");
  return issue ? issue.message : importReadingProblem;
}

/** Why the form cannot send a reading: too long a query (see maxReadingQueryChars). */
export function readingQueryProblem(params: URLSearchParams): string | null {
  return params.toString().length > maxReadingQueryChars
    ? "Too many column changes to send at once: keep the headers the file gives for some columns (rename them on the dataset's page after the import)."
    : null;
}

/** The reading as query parameters (what the form sends). */
export function importReadingParams(
  reading: {
    format: string;
    delimiter?: string;
    decimal?: string;
    encoding?: string;
    sheet?: string;
    headerRow?: number;
    columns?: ImportColumnChoices;
  },
  params = new URLSearchParams(),
): URLSearchParams {
  params.set("format", reading.format);
  if (reading.delimiter) params.set("delimiter", reading.delimiter);
  if (reading.decimal) params.set("decimal", reading.decimal);
  if (reading.encoding) params.set("encoding", reading.encoding);
  if (reading.sheet) params.set("sheet", reading.sheet);
  if (reading.headerRow !== undefined && reading.headerRow > 1) {
    params.set("headerRow", String(reading.headerRow));
  }
  if (reading.columns && Object.keys(reading.columns).length > 0) {
    params.set("columns", JSON.stringify(reading.columns));
  }
  return params;
}
