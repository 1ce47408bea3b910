import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { parseCsvBytes } from "../src/repo/datasets/csv-bytes.js";
import { editor } from "./actors.js";
import { byteChunks, openTestStore } from "./helpers.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `[@seed/store csv-encodings] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`,
);

// Any text written in an encoding comes back exactly, through the small path and the streamed
// import fed in chunks of every size from 1 to 7 bytes, so every multi-byte character is cut
// somewhere. Cells are quoted (commas, quotes and line ends inside them) and start with "x", so
// every column stays text; they are trimmed on import, so the text starts and ends unspaced.

/** Characters from the code points given, line ends (\n only: \r\n is read as \n) included. */
function textOf(codePoints: fc.Arbitrary<number>) {
  return fc
    .array(
      fc.oneof(
        codePoints.map((code) => String.fromCodePoint(code)),
        fc.constant("\n"),
      ),
      {
        maxLength: 12,
      },
    )
    .map((parts) => parts.join("").trim());
}

const latin1Char = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0xa0, max: 0xff }),
);
const anyChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0xa0, max: 0xd7ff }),
  fc.integer({ min: 0xe000, max: 0xfffd }),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
);

function csvOf(texts: readonly string[]): string {
  const lines = texts.map((text, index) => `${index},"x${text.replaceAll('"', '""')}"`);
  return `n,text\n${lines.join("\n")}\n`;
}

const expected = (texts: readonly string[]) =>
  texts.map((text, index) => ({ n: index, text: `x${text}`.trim() }));

/** Checks that `bytes` read back as `texts` on both paths, streamed in chunks of 1 to 7 bytes. */
async function roundTrip(texts: string[], bytes: Uint8Array, encoding?: string) {
  const store = await openTestStore("sqlite", { seedDemo: false });
  const choice = encoding ? { encoding } : {};
  const parsed = parseCsvBytes(bytes, { delimiter: ",", ...choice });
  expect(parsed.ok && parsed.rows).toEqual(expected(texts));
  for (let size = 1; size <= 7; size++) {
    const result = await store.importNewDataset(
      { name: `Chunks of ${size}`, source: byteChunks(bytes, size), ...choice },
      editor,
    );
    const dataset = await store.getDataset(result.datasetId);
    expect(dataset?.rows).toEqual(expected(texts));
  }
}

describe("CSV text written in an encoding imports back exactly (property)", () => {
  it("Latin-1-representable text written as Latin-1", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(textOf(latin1Char), { minLength: 1, maxLength: 6 }),
        async (texts) => {
          await roundTrip(texts, iconv.encode(csvOf(texts), "latin1"), "ISO-8859-1");
        },
      ),
      { seed, numRuns: 25 },
    );
  });

  it("any text written as UTF-8, with and without a BOM (detected)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(textOf(anyChar), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (texts, bom) => {
          const bytes = Buffer.from(`${bom ? "\uFEFF" : ""}${csvOf(texts)}`, "utf8");
          await roundTrip(texts, bytes);
        },
      ),
      { seed, numRuns: 25 },
    );
  });
});
