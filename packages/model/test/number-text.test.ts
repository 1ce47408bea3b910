import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  datasetLimits,
  isIsoDay,
  isNumberText,
  numberTextPattern,
  storedDayPattern,
  storedInstantPattern,
} from "../src/index.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/model number-text] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);

// isNumberText (a linear scanner) and numberTextPattern (the same grammar for SQL engines) must
// agree on every text within the length bound whose value is finite.
const pattern = new RegExp(`^(?:${numberTextPattern})$`);
const piece = fc.constantFrom("0", "1", "9", "12", ".", "+", "-", "e", "E", "_", " ", "x", "٣");

describe("numberTextPattern", () => {
  it("accepts exactly what isNumberText accepts (finite, within the length bound)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")),
          fc.double().map(String),
          fc.string({ maxLength: 8 }),
        ),
        (text) => {
          const finite =
            Number.isFinite(Number(text)) && text.length <= datasetLimits.maxNumberLength;
          expect(isNumberText(text)).toBe(pattern.test(text) && finite);
        },
      ),
      { seed, numRuns: 20_000, examples: [["+-5"], ["5."], [".5"], ["."], ["1e5"], ["1e"], ["-"]] },
    );
  });
});

// The stored day and instant shapes: every real day isIsoDay accepts has the day shape, and every
// instant Date#toISOString writes for years 0000-9999 has the instant shape; nothing else does.
const dayShape = new RegExp(`^(?:${storedDayPattern})$`);
const instantShape = new RegExp(`^(?:${storedInstantPattern})$`);
const dayPiece = fc.constantFrom("0", "1", "2", "9", "31", "12", "-", "T", ":", ".", "Z", " ");

describe("storedDayPattern and storedInstantPattern", () => {
  it("match every day isIsoDay accepts, and what toISOString writes, and not text of other shapes", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(dayPiece, { maxLength: 14 }).map((parts) => parts.join("")),
          fc
            .date({
              min: new Date("0000-01-01T00:00:00.000Z"),
              max: new Date("9999-12-31T23:59:59.999Z"),
              noInvalidDate: true,
            })
            .map((date) => date.toISOString()),
          fc
            .date({
              min: new Date("0000-01-01T00:00:00.000Z"),
              max: new Date("9999-12-31T23:59:59.999Z"),
              noInvalidDate: true,
            })
            .map((date) => date.toISOString().slice(0, 10)),
          fc.string({ maxLength: 12 }),
        ),
        (text) => {
          if (isIsoDay(text)) expect(dayShape.test(text)).toBe(true);
          if (dayShape.test(text)) expect(text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          const written = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text);
          expect(instantShape.test(text)).toBe(written);
          if (written && !Number.isNaN(Date.parse(text))) {
            expect(new Date(text).toISOString()).toBe(text);
          }
        },
      ),
      {
        seed,
        numRuns: 20_000,
        examples: [["2024-02-29"], ["0000-01-01T00:00:00.000Z"], ["2024-1-01"]],
      },
    );
  });
});
