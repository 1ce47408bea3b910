import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/index.js";
import { DatasetImportError } from "../src/index.js";
import { parseCsvBytes } from "../src/repo/datasets/csv-bytes.js";
import { editor } from "./actors.js";
import { byteChunks, errorOf, openTestStore } from "./helpers.js";

// Real files in as they are (issue 25): CSV files in the encodings people's tools write, made
// here with iconv-lite, read back exactly through both paths on SQLite: the small path
// (parseCsvBytes on the bytes, then createDataset) and the streamed import
// (fed in small chunks, so characters are cut across them).

type Row = Record<string, string | number | null>;

/** Imports the bytes through both paths into `store`; the rows each stored and the encodings. */
async function importBothWays(store: Store, bytes: Uint8Array, encoding?: string) {
  const parsed = parseCsvBytes(bytes, { delimiter: ",", ...(encoding ? { encoding } : {}) });
  if (!parsed.ok) throw new Error(parsed.message);
  const created = await store.createDataset(
    { name: "Small path", columns: parsed.columns, rows: parsed.rows },
    editor,
  );
  const streamed = await store.importNewDataset(
    { name: "Streamed", source: byteChunks(bytes, 3), ...(encoding ? { encoding } : {}) },
    editor,
  );
  const small = await store.getDataset(created.id);
  const big = await store.getDataset(streamed.datasetId);
  return {
    small: (small?.rows ?? []) as Row[],
    streamed: (big?.rows ?? []) as Row[],
    smallEncoding: parsed.encoding,
    streamedEncoding: streamed.encoding,
  };
}

const latin1Rows: Row[] = [
  { name: "José", city: "München" },
  { name: "François", city: "Köln" },
  { name: "Åsa", city: "Malmö" },
  { name: "Ñandú", city: "Güimar" },
];

function csvOf(rows: readonly Row[], lineEnd = "\n"): string {
  const header = Object.keys(rows[0] as Row);
  const lines = rows.map((row) => header.map((name) => String(row[name])).join(","));
  return [header.join(","), ...lines].join(lineEnd) + lineEnd;
}

describe("CSV encodings through the store on SQLite", () => {
  it("Latin-1: detected as a Western single-byte encoding, values exact on both paths", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const bytes = iconv.encode(csvOf(latin1Rows), "latin1");
    const read = await importBothWays(store, bytes);
    expect(read.small).toEqual(latin1Rows);
    expect(read.streamed).toEqual(latin1Rows);
    expect(["ISO-8859-1", "windows-1252"]).toContain(read.smallEncoding?.name);
    expect(read.streamedEncoding).toEqual(read.smallEncoding);
    expect(read.streamedEncoding.source).toBe("detected");
  });

  it("Windows-1252: € and curly quotes come in exactly, and the encoding is named", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const rows: Row[] = [
      { item: "“Café” crème", price: "€5 – déjà vu" },
      { item: "‘Œuvre’ … naïve", price: "€12 — ½ off" },
    ];
    const read = await importBothWays(store, iconv.encode(csvOf(rows, "\r\n"), "windows-1252"));
    expect(read.small).toEqual(rows);
    expect(read.streamed).toEqual(rows);
    expect(read.streamedEncoding).toMatchObject({ name: "windows-1252", source: "detected" });
    expect(read.smallEncoding?.name).toBe("windows-1252");
  });

  for (const name of ["UTF-16LE", "UTF-16BE"] as const) {
    it(`${name} with a BOM (and CRLF line ends, normalised after decoding)`, async () => {
      const store = await openTestStore("sqlite", { seedDemo: false });
      const rows: Row[] = [...latin1Rows, { name: "山田 🎉", city: "東京" }];
      const bytes = iconv.encode(`\uFEFF${csvOf(rows, "\r\n")}`, name);
      const read = await importBothWays(store, bytes);
      expect(read.small).toEqual(rows);
      expect(read.streamed).toEqual(rows);
      expect(read.streamedEncoding).toEqual({ name, source: "bom", confidence: null });
      expect(read.smallEncoding).toEqual(read.streamedEncoding);
    });
  }

  it("UTF-8 with a BOM, and without one", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const rows: Row[] = [...latin1Rows, { name: "naïve ✓ 日本", city: "🎉" }];
    const withBom = await importBothWays(store, Buffer.from(`\uFEFF${csvOf(rows)}`, "utf8"));
    expect(withBom.small).toEqual(rows);
    expect(withBom.streamed).toEqual(rows);
    expect(withBom.streamedEncoding).toEqual({ name: "UTF-8", source: "bom", confidence: null });
    const without = await importBothWays(store, Buffer.from(csvOf(rows), "utf8"));
    expect(without.streamed).toEqual(rows);
    expect(without.smallEncoding).toEqual({ name: "UTF-8", source: "detected", confidence: null });
  });

  it("Shift_JIS, a multi-byte encoding, detected with confidence", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const names = ["山田太郎", "佐藤花子", "鈴木一郎", "高橋美咲", "田中健太"];
    const cities = ["東京", "大阪", "名古屋", "札幌", "福岡"];
    const rows: Row[] = Array.from({ length: 40 }, (_, index) => ({
      名前: names[index % 5] as string,
      都市: cities[(index * 3) % 5] as string,
      メモ: `これは日本語のテキストです、番号${index}`.replace("、", "・"),
    }));
    const read = await importBothWays(store, iconv.encode(csvOf(rows), "Shift_JIS"));
    expect(read.small).toEqual(rows);
    expect(read.streamed).toEqual(rows);
    expect(read.streamedEncoding.name).toBe("Shift_JIS");
    expect(read.streamedEncoding.confidence).toBeGreaterThanOrEqual(50);
  });

  it("an encoding the caller chooses is used as is (and reported as chosen)", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    // "Åsa" in ISO-8859-2 would read "Ĺsa": the choice wins over any guess.
    const read = await importBothWays(store, iconv.encode(csvOf(latin1Rows), "latin1"), "latin1");
    expect(read.streamed).toEqual(latin1Rows);
    expect(read.small).toEqual(latin1Rows);
    expect(read.streamedEncoding).toEqual({ name: "latin1", source: "chosen", confidence: null });
  });
});

/** The sentence an import's first problem is told in. */
const firstMessage = (error: DatasetImportError) => error.lineProblems[0]?.message;

describe("bytes that do not decode are a line-level problem, and nothing is written", () => {
  /** Both paths' problem for the bytes; the streamed one must leave no dataset behind. */
  async function problemsOf(bytes: Uint8Array, encoding?: string) {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const parsed = parseCsvBytes(bytes, { ...(encoding ? { encoding } : {}) });
    const streamed = await errorOf(
      store.importNewDataset(
        { name: "Bad", source: byteChunks(bytes, 5), ...(encoding ? { encoding } : {}) },
        editor,
      ),
    );
    expect(await store.listDatasets()).toEqual([]);
    if (parsed.ok) throw new Error("the small path read the file");
    if (!(streamed instanceof DatasetImportError)) throw streamed;
    return { parsed, streamed };
  }

  it("a Latin-1 file read as UTF-8 (the wrong encoding chosen) names the line and the bytes", async () => {
    const bytes = iconv.encode(csvOf([{ name: "Ana", city: "Paris" }, ...latin1Rows]), "latin1");
    const { parsed, streamed } = await problemsOf(bytes, "UTF-8");
    const message = "Line 3: the byte 0xE9 is not valid UTF-8; choose the file's encoding.";
    expect(parsed).toMatchObject({ code: "invalid_encoding", line: 3, message });
    expect(streamed).toMatchObject({ code: "invalid_encoding", line: 3 });
    expect(firstMessage(streamed)).toBe(message);
  });

  it("a byte windows-1252 leaves undefined, when windows-1252 is chosen", async () => {
    const bytes = Buffer.concat([
      Buffer.from('a,b\r\nx,y\r\n\r\n"two\r\nlines",ok\r\nbad,'),
      Buffer.from([0x81]),
      Buffer.from("\r\n"),
    ]);
    const { parsed, streamed } = await problemsOf(bytes, "windows-1252");
    const message = "Line 6: the byte 0x81 is not valid windows-1252; choose the file's encoding.";
    expect(parsed).toMatchObject({ code: "invalid_encoding", line: 6, message });
    expect(firstMessage(streamed)).toBe(message);
  });

  it("a file detected as UTF-8 (its first 64 KiB are) with bad bytes further on", async () => {
    const good = Array.from({ length: 4_000 }, (_, index) => `${index},naïve café ${index}`);
    const text = ["n,text", ...good, "4000,ok"].join("\n");
    const bytes = Buffer.concat([
      Buffer.from(`${text}\n4001,cut `),
      Buffer.from([0xe2, 0x82]), // the start of "€" without its last byte
      Buffer.from("\n4002,end\n"),
    ]);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    const { parsed, streamed } = await problemsOf(bytes);
    const message =
      "Line 4003: the bytes 0xE2 0x82 are not valid UTF-8; choose the file's encoding.";
    expect(parsed.message).toBe(message);
    expect(streamed).toMatchObject({ code: "invalid_encoding", line: 4003 });
    expect(firstMessage(streamed)).toBe(message);
  });

  it("a UTF-16 file that ends in the middle of a character", async () => {
    const bytes = iconv.encode("\uFEFFa,b\n1,2\n", "UTF-16LE").subarray(0, -1);
    const { parsed, streamed } = await problemsOf(bytes);
    // The cut character is the last line end, on line 2.
    expect(parsed).toMatchObject({ code: "invalid_encoding", line: 2 });
    expect(firstMessage(streamed)).toMatch(
      /^Line 2: the file ends in the middle of a UTF-16LE character/,
    );
  });

  it("an encoding that does not exist is refused by name before anything is read", async () => {
    const { parsed, streamed } = await problemsOf(Buffer.from("a\n1\n"), "klingon-8");
    expect(parsed).toMatchObject({ code: "unknown_encoding", line: null });
    expect(parsed.message).toBe(
      '"klingon-8" is not an encoding this importer knows; choose one such as UTF-8, UTF-16LE, windows-1252, ISO-8859-1 or Shift_JIS.',
    );
    expect(streamed.code).toBe("unknown_encoding");
  });

  it("an import into an existing dataset keeps its rows when the file does not decode", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const created = await store.importNewDataset(
      { name: "Cities", source: byteChunks(Buffer.from("name,city\nAna,Lisboa\n")) },
      editor,
    );
    const error = await errorOf(
      store.importIntoDataset(
        {
          datasetId: created.datasetId,
          expectedVersion: created.version,
          mode: "replace",
          encoding: "utf-8",
          source: byteChunks(iconv.encode(csvOf(latin1Rows), "latin1")),
        },
        editor,
      ),
    );
    expect(error).toMatchObject({ code: "invalid_encoding", line: 2 });
    const dataset = await store.getDataset(created.datasetId);
    expect(dataset?.rows).toEqual([{ name: "Ana", city: "Lisboa" }]);
  });
});

describe("a file that is not text is named as what it seems, never read as garbage", () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
  console.log(`binary files property seed: ${seed} (set FC_SEED to replay)`);
  const signatures: [string, number[], RegExp][] = [
    ["xls", [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], /Excel 97-2003 workbook \(\.xls\)/],
    ["zip", [0x50, 0x4b, 0x03, 0x04], /ZIP archive: .*\.xlsx name/],
    ["parquet", [0x50, 0x41, 0x52, 0x31], /Parquet file/],
    ["arrow", [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31], /Arrow file/],
    ["gzip", [0x1f, 0x8b], /gzip-compressed/],
    ["pdf", [0x25, 0x50, 0x44, 0x46, 0x2d], /PDF document/],
    ["png", [0x89, 0x50, 0x4e, 0x47], /PNG image/],
    ["jpeg", [0xff, 0xd8, 0xff], /JPEG image/],
  ];

  it("a known binary signature or a NUL byte: the preview and the import both refuse it, as CSV, NDJSON or JSON", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            kind: fc.constant("signature" as const),
            at: fc.nat(signatures.length - 1),
            tail: fc.uint8Array({ maxLength: 300 }),
          }),
          fc.record({
            kind: fc.constant("nul" as const),
            // Text with one NUL anywhere in the first 64 KiB the detector reads.
            text: fc.string({ unit: "grapheme-ascii", maxLength: 200 }),
            at: fc.nat(),
            padding: fc.constantFrom(0, 1_000, 60_000),
          }),
        ),
        fc.constantFrom("csv", "ndjson", "json") as fc.Arbitrary<"csv" | "ndjson" | "json">,
        async (file, format) => {
          let bytes: Uint8Array;
          let reason: RegExp;
          if (file.kind === "signature") {
            const [, head, named] = signatures[file.at] as (typeof signatures)[number];
            bytes = new Uint8Array([...head, ...file.tail]);
            reason = named;
          } else {
            const text = `a,b\n${"x".repeat(file.padding)}${file.text}`;
            const at = 4 + (file.at % (text.length - 3));
            bytes = new TextEncoder().encode(`${text.slice(0, at)}\u0000${text.slice(at)}`);
            reason = /holds a NUL byte/;
          }
          const preview = await store.previewImport({ bytes, complete: true, format }, editor);
          expect(preview.stopped?.message).toMatch(reason);
          expect(preview.columns).toEqual([]);
          const refused = await errorOf(
            store.importNewDataset(
              { name: "Binary", source: byteChunks(bytes, 7), format },
              editor,
            ),
          );
          expect(refused).toBeInstanceOf(DatasetImportError);
          expect((refused as DatasetImportError).message).toMatch(reason);
        },
      ),
      {
        seed,
        numRuns: 60,
        // The extreme: each signature alone, the whole file (a guess on two bytes names any
        // encoding, UTF-32LE once), in every format.
        examples: signatures.flatMap((_, at) =>
          (["csv", "ndjson", "json"] as const).map(
            (format) =>
              [{ kind: "signature" as const, at, tail: new Uint8Array() }, format] as [
                { kind: "signature"; at: number; tail: Uint8Array<ArrayBuffer> },
                "csv" | "ndjson" | "json",
              ],
          ),
        ),
      },
    );
    expect(await store.listDatasets()).toEqual([]);
  });

  it("UTF-16 without a byte order mark, chosen, is read (its NUL bytes are its own)", async () => {
    const store = await openTestStore("sqlite", { seedDemo: false });
    const bytes = iconv.encode("city,people\nZürich,421878\n", "utf16le");
    const refused = await errorOf(
      store.importNewDataset({ name: "No mark", source: byteChunks(bytes, 3) }, editor),
    );
    // Detected or not, it is never stored as text with NUL bytes in it.
    if (refused instanceof DatasetImportError) expect(refused.message).toMatch(/UTF-16/);
    const chosen = await store.importNewDataset(
      { name: "Chosen", source: byteChunks(bytes, 3), encoding: "UTF-16LE" },
      editor,
    );
    const dataset = await store.getDataset(chosen.datasetId);
    expect(dataset?.rows).toEqual([{ city: "Zürich", people: 421878 }]);
  });
});
