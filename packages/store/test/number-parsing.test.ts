import { checkRows, datasetLimits, isNumberText } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsvDataset } from "../src/repo/datasets/csv.js";

// The regular language of decimal numbers, written without nested quantifiers (so it cannot
// backtrack), as the reference the scanner must agree with.
const reference = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Pathological variants: long runs of digits, signs, dots and exponents, then a bad character. */
function pathological(length: number): string[] {
  const run = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return [
    `${run("1")}a`,
    `${run("1")}.`,
    `-${run("9")}e`,
    `${run("1")}.${run("2")}e+x`,
    run("+-"),
    run("."),
    run("1e"),
    run("1."),
    `${run("1")}e${run("1")}e`,
    `.${run("0")}E-`,
  ];
}

/** Best of several runs of `work`, in ms: the fastest run is the one least disturbed by other load. */
function bestTime(work: () => void, runs = 7): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe("number text check", () => {
  it("agrees with the regular language of decimal numbers on generated text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."0123456789+-.eE a"), maxLength: 30 }),
        (text) => {
          expect(isNumberText(text)).toBe(reference.test(text) && Number.isFinite(Number(text)));
        },
      ),
      { verbose: true, numRuns: 2_000 },
    );
    expect(["1", "-2.5", ".5", "5.", "+1e-3", "1E9"].every(isNumberText)).toBe(true);
    expect(["", "-", ".", "e1", "1e", "1e+", "1..2", "1e309", " 1"].some(isNumberText)).toBe(false);
  });

  it("does work linear in the input under the length cap (10x longer input, at most 40x the time)", () => {
    const short = pathological(datasetLimits.maxNumberLength / 10 - 4);
    const long = pathological(datasetLimits.maxNumberLength - 4);
    const repeat = (cells: string[]) => () => {
      for (let i = 0; i < 2_000; i++) for (const cell of cells) isNumberText(cell);
    };
    repeat(long)(); // warm up the JIT before measuring either side
    const shortTime = bestTime(repeat(short));
    const longTime = bestTime(repeat(long));
    // A backtracking pattern is quadratic here (100x); a single pass is about 10x.
    expect(longTime).toBeLessThan(Math.max(shortTime, 0.5) * 40);
  });

  it("refuses text beyond the cap without reading it (100x longer input, at most 20x the time)", () => {
    const atCap = pathological(datasetLimits.maxNumberLength * 100);
    const beyond = pathological(datasetLimits.maxNumberLength * 10_000);
    for (const cell of [...atCap, ...beyond]) expect(isNumberText(cell)).toBe(false);
    const time = (cells: string[]) =>
      bestTime(() => {
        for (let i = 0; i < 200; i++) for (const cell of cells) isNumberText(cell);
      });
    const small = time(atCap);
    expect(time(beyond)).toBeLessThan(Math.max(small, 0.5) * 20);
  });

  it("refuses a CSV cell of 40,000 digits and a letter with a typed problem", () => {
    const csv = `name,value\nx,1\ny,${"1".repeat(40_000)}a\n`;
    expect(parseCsvDataset(csv)).toMatchObject({
      ok: false,
      code: "cell_too_long",
      line: 3,
      column: "value",
    });
  });

  it("types a column with pathological cells under the cap in linear work", () => {
    const rowsFor = (length: number) =>
      `name,value\n${pathological(length)
        .map((cell, index) => `r${index},${cell}`)
        .join("\n")}\n`;
    const short = rowsFor(30);
    const long = rowsFor(300);
    const time = (csv: string) =>
      bestTime(() => {
        for (let i = 0; i < 50; i++) parseCsvDataset(csv);
      });
    time(long);
    expect(time(long)).toBeLessThan(Math.max(time(short), 0.5) * 40);
  });

  it("caps text cells and refuses numbers as text in the row checks with a short message", () => {
    const columns = [
      { name: "label", type: "string" as const },
      { name: "value", type: "number" as const },
    ];
    const { problems } = checkRows(columns, [
      { label: "x".repeat(datasetLimits.maxCellLength + 1), value: `${"1".repeat(40_000)}a` },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]?.detail).toContain("longer than");
    expect(problems[1]?.detail).toContain("expected a number");
    for (const problem of problems) expect(problem.detail.length).toBeLessThan(200);
  });
});
