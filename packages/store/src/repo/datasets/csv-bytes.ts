import { formatBytes } from "@seed/model";
import {
  type CsvParseOptions,
  type CsvParseResult,
  defaultCsvLimits,
  parseCsvText,
  problem,
} from "./csv.js";
import { CsvEncodingError, decodeCsvBytes } from "./encoding.js";

// A CSV file's bytes, decoded in the encoding chosen or detected (encoding.ts, Node only: the
// decoders are iconv-lite's), then parsed as csv.ts parses text. The browser entry (csv.ts) never
// loads the decoders.

/** parseCsvDataset for a file's bytes; the result says how they were decoded. */
export function parseCsvBytes(bytes: Uint8Array, options: CsvParseOptions = {}): CsvParseResult {
  const maxBytes = options.maxBytes ?? defaultCsvLimits.maxBytes;
  if (bytes.length > maxBytes) {
    return problem(
      "file_too_large",
      `The file is larger than the ${formatBytes(maxBytes)} limit (${bytes.length.toLocaleString("en-US")} bytes).`,
    );
  }
  const chosen = options.encoding && options.encoding !== "auto" ? options.encoding : null;
  try {
    const { text, encoding } = decodeCsvBytes(bytes, chosen);
    return parseCsvText(text, encoding, options);
  } catch (error) {
    if (!(error instanceof CsvEncodingError)) throw error;
    return problem(
      error.code,
      `${error.message[0]?.toUpperCase()}${error.message.slice(1)}`,
      error.line,
    );
  }
}
