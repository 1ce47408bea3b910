import Papa from "papaparse";

// The one place CSV text becomes records, for whole texts (csv.ts) and streams (datasets/import.ts):
// papaparse with the delimiter the caller gives (csv-dialect.ts guesses one for previews), line
// ends normalised to \n first (for streams, by the decoder in encoding.ts, after decoding) so line
// numbers match what editors show, blank lines skipped, cells trimmed.

export interface CsvRecord {
  cells: string[];
  /** Line where the record starts, 1-based, as editors count. */
  line: number;
}

/** The CSV is malformed (a quote problem); `line` is where the bad record starts. */
export class CsvSyntaxError extends Error {
  override name = "CsvSyntaxError";
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

const reasons: Record<string, string> = {
  MissingQuotes: "a quoted value is never closed.",
  InvalidQuotes: 'a quote inside a quoted value must be doubled ("").',
};

function syntaxReason(errors: readonly Papa.ParseError[]): string | null {
  const first = errors[0];
  if (!first) return null;
  return reasons[first.code] ?? `${first.message}.`;
}

/** Counts the lines a record spans and turns it into a CsvRecord, or null for a blank line. */
class LineCounter {
  private line = 1;

  next(cells: string[], errors: readonly Papa.ParseError[]): CsvRecord | null {
    const start = this.line;
    this.line += 1;
    for (const cell of cells) {
      for (let at = cell.indexOf("\n"); at !== -1; at = cell.indexOf("\n", at + 1)) this.line++;
    }
    const reason = syntaxReason(errors);
    if (reason !== null) throw new CsvSyntaxError(reason, start);
    if (cells.length === 1 && (cells[0] as string).trim() === "") return null;
    for (let index = 0; index < cells.length; index++) {
      cells[index] = (cells[index] as string).trim();
    }
    return { cells, line: start };
  }
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const papaOptions = { delimiter: ",", skipEmptyLines: false, dynamicTyping: false } as const;

/** Records of a whole CSV text; throws CsvSyntaxError on the first malformed record. */
export function parseCsvRecords(text: string, delimiter = ","): CsvRecord[] {
  const normalized = withoutBom(text).replace(/\r\n?/g, "\n");
  const parsed = Papa.parse<string[]>(normalized, { ...papaOptions, delimiter });
  const counter = new LineCounter();
  const records: CsvRecord[] = [];
  // Papa reports errors by record index; hand each record the errors that belong to it.
  const errorsByRow = new Map<number, Papa.ParseError[]>();
  for (const error of parsed.errors) {
    const row = error.row ?? parsed.data.length - 1;
    errorsByRow.set(row, [...(errorsByRow.get(row) ?? []), error]);
  }
  for (const [index, cells] of parsed.data.entries()) {
    const record = counter.next(cells, errorsByRow.get(index) ?? []);
    if (record) records.push(record);
  }
  return records;
}

/**
 * Records of a stream of CSV text (line ends already normalised to \n) in batches, pulled with
 * backpressure: papaparse pauses while the consumer works through a batch. Throws CsvSyntaxError on the first
 * malformed record, and whatever the source throws.
 */
export async function* streamCsvRecords(
  text: NodeJS.ReadableStream,
  highWaterMark = 2_000,
  delimiter = ",",
): AsyncGenerator<CsvRecord[]> {
  const counter = new LineCounter();
  let queue: CsvRecord[] = [];
  let failure: unknown = null;
  let finished = false;
  let handle: Papa.Parser | null = null;
  let paused = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  text.on("error", (error) => {
    failure ??= error;
    notify();
  });
  Papa.parse<string[]>(text as unknown as File, {
    ...papaOptions,
    delimiter,
    beforeFirstChunk: (chunk) => withoutBom(chunk),
    step: (results, parser) => {
      handle = parser;
      if (failure !== null) return;
      try {
        const record = counter.next(results.data, results.errors);
        if (record) queue.push(record);
      } catch (error) {
        failure = error;
        parser.abort();
        notify();
        return;
      }
      if (queue.length >= highWaterMark && !paused) {
        paused = true;
        parser.pause();
        notify();
      }
    },
    complete: () => {
      finished = true;
      notify();
    },
    error: (error: Error) => {
      failure ??= error;
      notify();
    },
  });
  try {
    while (true) {
      if (queue.length > 0) {
        const batch = queue;
        queue = [];
        yield batch;
        continue;
      }
      if (failure !== null) throw failure;
      if (finished) return;
      if (paused && handle) {
        paused = false;
        (handle as Papa.Parser).resume();
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    if (!finished && handle) (handle as Papa.Parser).abort();
    const destroy = (text as { destroy?: () => void }).destroy;
    if (!finished && typeof destroy === "function") destroy.call(text);
  }
}
