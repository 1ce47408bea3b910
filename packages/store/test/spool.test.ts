import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { edgeWhitespacePatterns, removeSpool, spoolUpload } from "../src/repo/datasets/spool.js";

// The upload's spool copy and what it notes for the engine's CSV path: the flags decide whether
// DuckDB's reading must turn line ends into \n and trim cells, so a missed pattern would change
// cells silently. Oracle: the same patterns searched in the whole file at once (a line end before
// the first byte and after the last), whatever the chunks the upload arrived in.
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/store spool] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);

const dir = mkdtempSync(path.join(tmpdir(), "seed-spool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const piece = fc.constantFrom(
  "a",
  "7",
  "_",
  "+",
  ",",
  ";",
  '"',
  " ",
  "\n",
  "\r",
  "\t",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "é",
  "€",
  "“",
);

describe("spoolUpload", () => {
  it("copies every byte and flags carriage returns and cell-edge whitespace exactly, however the upload is cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 60 }).map((parts) => Buffer.from(parts.join(""))),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(",", ";"),
        async (content, cuts, delimiter) => {
          const chunks: Uint8Array[] = [];
          let at = 0;
          for (let index = 0; at < content.length; index++) {
            const size = cuts[index % cuts.length] as number;
            chunks.push(new Uint8Array(content.subarray(at, at + size)));
            at += size;
          }
          const spooled = await spoolUpload(
            (async function* () {
              yield* chunks;
            })(),
            dir,
            1024,
            delimiter,
          );
          try {
            expect(readFileSync(spooled.file).equals(content)).toBe(true);
            expect(spooled.bytes).toBe(content.length);
            expect(spooled.carriageReturns).toBe(content.includes(13));
            expect(spooled.quotes).toBe(content.includes(34));
            expect(spooled.underscores).toBe(content.includes(95));
            expect(spooled.plusSigns).toBe(content.includes(43));
            const whole = Buffer.concat([Buffer.from("\n"), content, Buffer.from("\n")]);
            const expected = edgeWhitespacePatterns(delimiter).some((pattern) =>
              whole.includes(pattern),
            );
            expect(spooled.edgeWhitespace).toBe(expected);
          } finally {
            await removeSpool(spooled);
          }
        },
      ),
      {
        seed,
        numRuns: 400,
        examples: [
          [Buffer.from(" "), [1], ","],
          [Buffer.from("a,\u00a0b"), [3], ","],
        ],
      },
    );
  });

  it("copies a large upload byte for byte (or its first maxBytes + 1), however it is cut, past the write batch", async () => {
    const maxChunks = 20_000;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 * 1024 * 1024 }),
        fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        async (size, cuts, over) => {
          // Past maxBytes the spool keeps maxBytes + 1 bytes (the caller then refuses the file).
          const maxBytes = Math.max(0, size - over);
          const kept = Math.min(size, maxBytes + 1);
          const content = Buffer.alloc(size);
          for (let index = 0; index < size; index++) content[index] = (index * 7919) % 251;
          const chunks: Uint8Array[] = [];
          // At most maxChunks pieces (the last takes the rest): 1-byte cuts of 4 MiB would be
          // millions of chunks, a generator's cost rather than the spool's.
          for (let at = 0, index = 0; at < size; index++) {
            const cut = index + 1 >= maxChunks ? size - at : (cuts[index % cuts.length] as number);
            chunks.push(new Uint8Array(content.subarray(at, at + cut)));
            at += cut;
          }
          const spooled = await spoolUpload(
            (async function* () {
              yield* chunks;
            })(),
            dir,
            maxBytes,
            ",",
          );
          try {
            expect(spooled.bytes).toBe(kept);
            expect(readFileSync(spooled.file).equals(content.subarray(0, kept))).toBe(true);
          } finally {
            await removeSpool(spooled);
          }
        },
      ),
      { seed, numRuns: 20 },
    );
  });
});
