import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetLimits, isNumberText, numberTextPattern } from "../src/index.js";

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
