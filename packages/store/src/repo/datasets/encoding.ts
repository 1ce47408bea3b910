import { analyse } from "chardet";
import iconv from "iconv-lite";

// Bytes of a CSV file into text, for both CSV paths (csv.ts on a whole file, import-input.ts on a
// stream): the encoding read from the byte order mark, else UTF-8 when the start of the file is
// valid UTF-8, else what chardet finds there; or the one the caller chose. Line ends are
// normalised (\r\n and \r become \n) on the decoded text, so UTF-16 is never cut up. Bytes that do
// not decode are a problem naming their line, never silently replaced with U+FFFD.

/** How a file's bytes were read into text, to show next to the preview and let people change. */
export interface CsvEncoding {
  /** The encoding's name, e.g. "UTF-8", "UTF-16LE", "windows-1252", "ISO-8859-1", "Shift_JIS". */
  name: string;
  /**
   * Where the name came from: the file's byte order mark, the detector (UTF-8 when the start of
   * the file is valid UTF-8, otherwise chardet's guess), or the caller's choice.
   */
  source: "bom" | "detected" | "chosen";
  /** The detector's confidence from 0 to 100, when it guessed a non-UTF-8 encoding. */
  confidence: number | null;
}

/** How many bytes from the start of a file the encoding is detected on. */
export const encodingSampleBytes = 64 * 1024;

/** Below this confidence (0 to 100) a chardet guess gives way to the Western default. */
const confidentGuess = 50;

/** The text does not decode in its encoding (or the chosen one is unknown); `line` says where. */
export class CsvEncodingError extends Error {
  override name = "CsvEncodingError";
  constructor(
    readonly code: "invalid_encoding" | "unknown_encoding",
    readonly reason: string,
    readonly line: number | null,
  ) {
    super(line === null ? reason : `Line ${line}: ${reason}`);
  }
}

/** The encoding the caller chose, checked against what iconv-lite can decode. */
export function checkEncodingName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || !iconv.encodingExists(trimmed)) {
    throw new CsvEncodingError(
      "unknown_encoding",
      `"${name.slice(0, 40)}" is not an encoding this importer knows; choose one such as UTF-8, UTF-16LE, windows-1252, ISO-8859-1 or Shift_JIS.`,
      null,
    );
  }
  return trimmed;
}

const boms: { bytes: number[]; name: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], name: "UTF-8" },
  { bytes: [0xff, 0xfe, 0x00, 0x00], name: "UTF-32LE" },
  { bytes: [0x00, 0x00, 0xfe, 0xff], name: "UTF-32BE" },
  { bytes: [0xff, 0xfe], name: "UTF-16LE" },
  { bytes: [0xfe, 0xff], name: "UTF-16BE" },
];

const westernNames = new Set(["ISO-8859-1", "windows-1252"]);

/** Whether a C1 byte (0x80 to 0x9F) is present: text for windows-1252, controls in ISO-8859-1. */
function hasC1Byte(bytes: Uint8Array): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (byte >= 0x80 && byte <= 0x9f) return true;
  }
  return false;
}

/**
 * The encoding of a file from its first bytes (up to encodingSampleBytes; `complete` when they
 * are the whole file): its BOM; UTF-8 when they are valid UTF-8; else chardet's best guess when
 * confident, or the Western one (windows-1252 or ISO-8859-1, the encodings of most such CSV files)
 * it ranks highest, or its best guess at all; windows-1252 when it has none.
 */
export function detectEncoding(sample: Uint8Array, complete: boolean): CsvEncoding {
  for (const bom of boms) {
    if (bom.bytes.every((byte, index) => sample[index] === byte)) {
      return { name: bom.name, source: "bom", confidence: null };
    }
  }
  if (findInvalidUtf8(sample, complete) === null) {
    return { name: "UTF-8", source: "detected", confidence: null };
  }
  const guesses = analyse(sample).filter(
    (match) => match.name !== "UTF-8" && match.name !== "ASCII" && iconv.encodingExists(match.name),
  );
  const best = guesses[0];
  const western = guesses.find((match) => westernNames.has(match.name));
  const chosen = best && best.confidence >= confidentGuess ? best : (western ?? best);
  if (!chosen) return { name: "windows-1252", source: "detected", confidence: null };
  // ISO-8859-1 reads 0x80 to 0x9F as control characters; files holding them are windows-1252.
  const name = chosen.name === "ISO-8859-1" && hasC1Byte(sample) ? "windows-1252" : chosen.name;
  return { name, source: "detected", confidence: chosen.confidence };
}

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

/** The first bytes of files that are not text, and what to do with each. */
const binarySignatures: { bytes: number[]; what: string }[] = [
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    what: "an Excel 97-2003 workbook (.xls) or another old Office file: save it as an Excel workbook (.xlsx) or as CSV, and import that",
  },
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    what: "a ZIP archive: an Excel workbook is one, so give it its .xlsx name; otherwise unpack it first",
  },
  { bytes: ascii("PAR1"), what: "a Parquet file: give it its .parquet name" },
  { bytes: ascii("ARROW1"), what: "an Arrow file: give it its .arrow name" },
  { bytes: [0x1f, 0x8b], what: "a gzip-compressed file: unpack it first" },
  { bytes: ascii("%PDF-"), what: "a PDF document: export its table as CSV first" },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], what: "a JPEG image" },
];

/**
 * Why a file cannot be text: it starts with the signature of a binary format (checked whatever
 * encoding a guess names, since a guess on binary bytes names anything, and whenever the chosen
 * encoding has one-byte units), or, read in a one-byte-unit encoding (UTF-8, the single-byte and
 * the Asian multi-byte ones), it holds a NUL byte, which no such text holds (a UTF-16 file
 * without its byte order mark has them: choosing UTF-16 reads it).
 */
export function binaryFileReason(
  sample: Uint8Array,
  encoding: { name: string; source: CsvEncoding["source"] },
): string | null {
  const oneByteUnits = unitBytes(encoding.name) === 1;
  if (!oneByteUnits && encoding.source !== "detected") return null;
  for (const signature of binarySignatures) {
    if (signature.bytes.every((byte, index) => sample[index] === byte)) {
      return `this is not a text file; it looks like ${signature.what}.`;
    }
  }
  if (!oneByteUnits) return null;
  const nul = sample.indexOf(0);
  if (nul === -1) return null;
  return `the file holds a NUL byte (at byte ${nul.toLocaleString("en-US")}), which no CSV or JSON text has: it is not a text file, or it is UTF-16 without its byte order mark (choose UTF-16LE or UTF-16BE).`;
}

/** Length of the UTF-8 sequence a lead byte starts, or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The range the second byte of a sequence must be in (WHATWG UTF-8 decoder). */
function secondByteFits(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
  if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
  if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  return byte >= 0x80 && byte <= 0xbf;
}

/**
 * The first bytes that are not UTF-8 (offset and how many), or null when all are. A sequence cut
 * off by the end counts as bad only when `complete` (the bytes are the whole file).
 */
export function findInvalidUtf8(
  bytes: Uint8Array,
  complete: boolean,
): { offset: number; length: number } | null {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 0) return { offset: index, length: 1 };
    for (let part = 1; part < length; part++) {
      const at = index + part;
      if (at >= bytes.length) return complete ? { offset: index, length: part } : null;
      const byte = bytes[at] as number;
      const fits = part === 1 ? secondByteFits(lead, byte) : byte >= 0x80 && byte <= 0xbf;
      if (!fits) return { offset: index, length: part };
    }
    index += length;
  }
  return null;
}

/** The last bytes of a chunk that start a UTF-8 sequence the next chunk has to finish. */
function unfinishedTail(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back] as number;
    if (byte < 0x80 || byte >= 0xc0) {
      return sequenceLength(byte) > back ? bytes.subarray(bytes.length - back) : new Uint8Array();
    }
  }
  return new Uint8Array();
}

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function hex(bytes: Uint8Array): string {
  return Array.from(
    bytes.subarray(0, 4),
    (byte) => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join(" ");
}

const lineEnd = /\r\n|\r|\n/g;

/** The encodings whose text may hold U+FFFD itself; in the others it only stands for bad bytes. */
function isUnicode(name: string): boolean {
  return /^(utf|ucs)/.test(canonicalName(name));
}

/** Bytes per code unit of UTF-16 and UTF-32 (a file of them ends on a whole unit), else 1. */
function unitBytes(name: string): number {
  const canonical = canonicalName(name);
  if (/^(utf16|ucs2)/.test(canonical)) return 2;
  if (/^(utf32|ucs4)/.test(canonical)) return 4;
  return 1;
}

function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

interface Decoder {
  write(bytes: Uint8Array): string;
  end(): string;
}

/**
 * Decodes a CSV file given in chunks (one, for a whole file) into text with \n line ends. The
 * first encodingSampleBytes are held until the encoding is known; `encoding` then says it.
 * Throws CsvEncodingError at the first bytes that do not decode.
 */
export class CsvTextDecoder {
  encoding: CsvEncoding | null = null;
  private readonly chosen: string | null;
  private sample: Uint8Array[] = [];
  private sampleBytes = 0;
  private decoder: Decoder | null = null;
  private previous: Uint8Array = new Uint8Array();
  private checksReplacement = false;
  private singleByte = false;
  /** Bytes decoded so far (after the sample), for a UTF-16 or UTF-32 file that ends mid-character. */
  private decodedBytes = 0;
  /** Line ends given out so far; the line of a bad byte counts on from it. */
  private lines = 0;
  private pendingReturn = false;

  /** `chosen`: the caller's encoding (checked here), or undefined to detect it. */
  constructor(chosen?: string | null) {
    this.chosen = chosen === undefined || chosen === null ? null : checkEncodingName(chosen);
  }

  write(chunk: Uint8Array): string {
    if (this.decoder) return this.decode(chunk);
    this.sample.push(chunk);
    this.sampleBytes += chunk.length;
    if (this.sampleBytes < encodingSampleBytes) return "";
    return this.decode(this.start(false));
  }

  end(): string {
    const head = this.decoder ? "" : this.decode(this.start(true));
    const decoder = this.decoder as Decoder;
    let rest: string;
    try {
      rest = decoder.end();
    } catch {
      // The file ends inside a UTF-8 sequence.
      throw this.invalid(unfinishedTail(this.previous), "");
    }
    const unit = unitBytes(this.encoding?.name ?? "");
    if (this.decodedBytes % unit !== 0) {
      throw new CsvEncodingError(
        "invalid_encoding",
        `the file ends in the middle of a ${this.encoding?.name} character; choose the file's encoding.`,
        this.lines + 1,
      );
    }
    const text = head + this.normalize(rest) + (this.pendingReturn ? "\n" : "");
    this.pendingReturn = false;
    return text;
  }

  /** Chooses the encoding from the sample and returns the sample's bytes. */
  private start(complete: boolean): Uint8Array {
    const bytes = concatBytes(this.sample);
    this.sample = [];
    const encoding: CsvEncoding = this.chosen
      ? { name: this.chosen, source: "chosen", confidence: null }
      : detectEncoding(bytes.subarray(0, encodingSampleBytes), complete);
    this.encoding = encoding;
    const binary = binaryFileReason(bytes.subarray(0, encodingSampleBytes), encoding);
    if (binary) throw new CsvEncodingError("invalid_encoding", binary, null);
    if (canonicalName(encoding.name) === "utf8") {
      // UTF-8, the common case, on the platform's own decoder; `fatal` finds bad bytes.
      const utf8 = new TextDecoder("utf-8", { fatal: true });
      this.decoder = {
        write: (part) => utf8.decode(part, { stream: true }),
        end: () => utf8.decode(),
      };
    } else {
      const decoder = iconv.getDecoder(encoding.name, { stripBOM: true });
      this.decoder = {
        write: (part) => decoder.write(Buffer.from(part.buffer, part.byteOffset, part.length)),
        end: () => decoder.end() ?? "",
      };
      this.checksReplacement = !isUnicode(encoding.name);
      this.singleByte = iconv.getCodec(encoding.name).constructor.name === "SBCSCodec";
    }
    return bytes;
  }

  private decode(chunk: Uint8Array): string {
    const decoder = this.decoder as Decoder;
    let text: string;
    try {
      text = decoder.write(chunk);
    } catch {
      const bytes = concatBytes([unfinishedTail(this.previous), chunk]);
      const bad = findInvalidUtf8(bytes, false) ?? { offset: 0, length: 1 };
      const before = new TextDecoder().decode(bytes.subarray(0, bad.offset));
      throw this.invalid(bytes.subarray(bad.offset, bad.offset + bad.length), before);
    }
    // The last bytes seen, where an unfinished UTF-8 sequence may start (see unfinishedTail).
    this.previous =
      chunk.length >= 3 ? chunk : concatBytes([this.previous.subarray(-3 + chunk.length), chunk]);
    this.decodedBytes += chunk.length;
    if (this.checksReplacement) {
      const at = text.indexOf("\uFFFD");
      if (at !== -1) {
        const bytes = this.singleByte ? chunk.subarray(at, at + 1) : new Uint8Array();
        throw this.invalid(bytes, text.slice(0, at));
      }
    }
    return this.normalize(text);
  }

  /** The error for bad bytes that follow `before` (the text decoded since the last chunk). */
  private invalid(bytes: Uint8Array, before: string): CsvEncodingError {
    const ends = ((this.pendingReturn ? "\r" : "") + before).match(lineEnd)?.length ?? 0;
    const name = this.encoding?.name ?? "UTF-8";
    const what =
      bytes.length === 0
        ? "some bytes are"
        : bytes.length === 1
          ? `the byte ${hex(bytes)} is`
          : `the bytes ${hex(bytes)} are`;
    return new CsvEncodingError(
      "invalid_encoding",
      `${what} not valid ${name}; choose the file's encoding.`,
      this.lines + ends + 1,
    );
  }

  /** One line-ending style (\r\n and \r become \n), so line numbers match what editors show. */
  private normalize(decoded: string): string {
    let text = decoded;
    if (this.pendingReturn) {
      text = `\r${text}`;
      this.pendingReturn = false;
    }
    if (text.indexOf("\r") !== -1) {
      if (text.endsWith("\r")) {
        this.pendingReturn = true;
        text = text.slice(0, -1);
      }
      text = text.replace(lineEnd, "\n");
    }
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) this.lines++;
    return text;
  }
}

/** A whole file's bytes as text with \n line ends, and how they were read. */
export function decodeCsvBytes(
  bytes: Uint8Array,
  chosen?: string | null,
): { text: string; encoding: CsvEncoding } {
  const decoder = new CsvTextDecoder(chosen);
  const text = decoder.write(bytes) + decoder.end();
  return { text, encoding: decoder.encoding as CsvEncoding };
}
