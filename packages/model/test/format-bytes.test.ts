import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatBytes, rowsLimits } from "../src/index.js";

// Sizes as people read them, in the messages of every limit (files, datasets, pushes).

const units = { bytes: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;

describe("formatBytes", () => {
  it("names the limits as they are set", () => {
    expect(formatBytes(rowsLimits.state.maxImportBytes)).toBe("100 MB");
    expect(formatBytes(rowsLimits["data-file"].maxImportBytes)).toBe("1 GB");
    expect(formatBytes(rowsLimits["data-file"].maxDatasetBytes)).toBe("2 GB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(0)).toBe("0 bytes");
  });

  it("reads back within half a tenth of its unit, in the largest unit not above the size", () => {
    const seed = Number(process.env.FC_SEED ?? Date.now());
    console.log(`[@seed/model formatBytes] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 52 }), (bytes) => {
        const text = formatBytes(bytes);
        const match = /^([0-9]+(?:\.[0-9])?) (bytes|KB|MB|GB)$/.exec(text);
        expect(match).not.toBeNull();
        const [, number, unit] = match as RegExpExecArray;
        const size = units[unit as keyof typeof units];
        expect(bytes).toBeGreaterThanOrEqual(unit === "bytes" ? 0 : size);
        if (unit !== "GB") expect(bytes).toBeLessThan(size * 1024);
        expect(Math.abs(Number(number) * size - bytes)).toBeLessThanOrEqual(size * 0.05 + 1e-9);
      }),
      {
        seed,
        numRuns: 2_000,
        examples: [[0], [1023], [1024], [1024 ** 2 - 1], [1024 ** 3], [2 ** 52]],
      },
    );
  });
});
