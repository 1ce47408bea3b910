import { createReadStream } from "node:fs";
import { open, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { ImportProgress } from "./import.js";
import type { CsvSource } from "./import-input.js";

// An upload copied to a private file before the import reads it: where the rows home reads CSV
// files itself (the DuckDB data file), the engine reads this copy, and when it declines, the
// store's own reader reads the same bytes again. Removed when the import ends; a crash leaves
// `import-*.part` files that the store removes at its next open.

export interface SpooledCsv {
  file: string;
  /** Bytes kept: all of the upload, or the first maxBytes + 1 of a larger one. */
  bytes: number;
  /** A carriage return anywhere in the bytes (the reader turns each line end into \n). */
  carriageReturns: boolean;
  /**
   * Whitespace that may sit at a cell's edge somewhere (the reader trims every cell): a space
   * beside a delimiter, quote or line end, a tab, vertical tab or form feed, or any non-ASCII
   * whitespace (or a byte sequence that might be one). False means no cell needs trimming.
   */
  edgeWhitespace: boolean;
  /**
   * A double quote anywhere: a quoted cell may hold a line break at its edge, which no byte
   * pattern tells from a line end next to a quote, so every cell is then trimmed as well.
   */
  quotes: boolean;
  /** An underscore anywhere: without one, no cell can be a number with digit separators. */
  underscores: boolean;
  /** A plus sign anywhere: without one, no cell can start with a "+-" sign. */
  plusSigns: boolean;
}

/**
 * The byte sequences that may put whitespace at a cell's edge in a file split by `delimiter`: a
 * space beside a delimiter, quote or line end, a tab, vertical tab or form feed, or the UTF-8 of
 * non-ASCII whitespace (a prefix that may be one).
 */
export function edgeWhitespacePatterns(delimiter: string): Buffer[] {
  const texts = [
    `${delimiter} `,
    ` ${delimiter}`,
    '" ',
    ' "',
    "\n ",
    " \n",
    "\r ",
    " \r",
    "\t",
    "\v",
    "\f",
  ];
  const bytes = [
    [0xc2, 0xa0], // U+00A0
    [0xe1, 0x9a, 0x80], // U+1680
    [0xe2, 0x80], // U+2000-U+203F (U+2000-200A, 2028, 2029, 202F among them)
    [0xe2, 0x81, 0x9f], // U+205F
    [0xe3, 0x80, 0x80], // U+3000
    [0xef, 0xbb, 0xbf], // U+FEFF
  ];
  return [...texts.map((text) => Buffer.from(text)), ...bytes.map((seq) => Buffer.from(seq))];
}

/**
 * Finds edgeWhitespacePatterns chunk by chunk. Each pattern holds a byte (a space, a tab, a lead
 * byte of non-ASCII whitespace) whose absence from a chunk rules it out with one native byte
 * search; most files have few of them, so most chunks cost a handful of memchr scans instead of a
 * search per pattern. Patterns cut between two chunks are found in the joint of the two.
 */
function edgeWhitespaceFinder(delimiter: string) {
  const patterns = edgeWhitespacePatterns(delimiter);
  // Every pattern holds one of these bytes; a chunk without it cannot hold the pattern.
  const gates = [...new Set(patterns.map((pattern) => gateOf(pattern)))].map((gate) => ({
    gate,
    patterns: patterns.filter((pattern) => gateOf(pattern) === gate),
  }));
  const longest = Math.max(...patterns.map((pattern) => pattern.length));
  const holds = (buffer: Buffer) =>
    gates.some(
      (entry) =>
        buffer.includes(entry.gate) && entry.patterns.some((pattern) => buffer.includes(pattern)),
    );
  return { holds, longest };
}

/** The byte a pattern is looked for by: its space, tab or non-ASCII lead byte. */
function gateOf(pattern: Buffer): number {
  for (const byte of pattern) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0b || byte === 0x0c || byte >= 0xc2) {
      return byte;
    }
  }
  return pattern[0] as number;
}

/** The spool files' names: `import-<uuid>.part`. */
export const spoolPattern = /^import-[0-9a-f-]{36}\.part$/;

const progressEveryBytes = 4 * 1024 * 1024;
/** The spool writes the upload in batches of at least this many bytes. */
const batchLimit = 1024 * 1024;

/** Copies the upload into a new 0600 file in `dir`, at most `maxBytes + 1` bytes of it. */
export async function spoolUpload(
  source: CsvSource,
  dir: string,
  maxBytes: number,
  delimiter: string,
  onProgress?: (progress: ImportProgress) => void,
): Promise<SpooledCsv> {
  const finder = edgeWhitespaceFinder(delimiter);
  let edgeWhitespace = false;
  // The last bytes of the chunk before, so that a pattern cut between chunks is still found; a
  // space as the file's first byte is at a cell's edge too (as after a line end).
  let carry = Buffer.from("\n");
  const file = path.join(dir, `import-${crypto.randomUUID()}.part`);
  const handle = await open(file, "wx", 0o600);
  let bytes = 0;
  let carriageReturns = false;
  let quotes = false;
  let underscores = false;
  let plusSigns = false;
  let told = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
      let buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk)
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (bytes + buffer.length > maxBytes + 1) buffer = buffer.subarray(0, maxBytes + 1 - bytes);
      if (!carriageReturns && buffer.includes(13)) carriageReturns = true;
      if (!quotes && buffer.includes(34)) quotes = true;
      if (!underscores && buffer.includes(95)) underscores = true;
      if (!plusSigns && buffer.includes(43)) plusSigns = true;
      if (!edgeWhitespace && buffer.length > 0) {
        const joint = Buffer.concat([carry, buffer.subarray(0, finder.longest - 1)]);
        edgeWhitespace = finder.holds(joint) || finder.holds(buffer);
        const keep = finder.longest - 1;
        carry =
          buffer.length >= keep
            ? Buffer.from(buffer.subarray(buffer.length - keep))
            : Buffer.concat([carry, buffer]).subarray(-keep);
      }
      // Written in batches of about a megabyte: a write per upload chunk (64 KB) cost 0.3-0.45 s
      // more over 346 MB. Chunks are held until written: an upload's chunks are its own (Node's
      // and web streams hand out a new one each time).
      batch.push(buffer);
      batchBytes += buffer.length;
      if (batchBytes >= batchLimit) {
        await handle.writev(batch);
        batch = [];
        batchBytes = 0;
      }
      bytes += buffer.length;
      if (bytes - told >= progressEveryBytes) {
        told = bytes;
        onProgress?.({ rows: 0, bytes, encoding: null });
      }
      if (bytes > maxBytes) break;
    }
    if (batch.length > 0) await handle.writev(batch);
  } catch (error) {
    await handle.close();
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  if (!edgeWhitespace && Buffer.concat([carry, Buffer.from("\n")]).includes(Buffer.from(" \n"))) {
    edgeWhitespace = true;
  }
  onProgress?.({ rows: 0, bytes, encoding: null });
  return { file, bytes, carriageReturns, edgeWhitespace, quotes, underscores, plusSigns };
}

/** The spooled bytes as a fresh stream, for the store's reader. */
export function spooledSource(spooled: SpooledCsv): CsvSource {
  return createReadStream(spooled.file, { highWaterMark: 256 * 1024 });
}

export async function removeSpool(spooled: SpooledCsv): Promise<void> {
  await rm(spooled.file, { force: true });
}

/** Removes spool files a crash left in `dir` (at open, before any import can be running). */
export async function removeStaleSpools(dir: string): Promise<string[]> {
  const stale = (await readdir(dir)).filter((name) => spoolPattern.test(name));
  for (const name of stale) await rm(path.join(dir, name), { force: true });
  return stale;
}
