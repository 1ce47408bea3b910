import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chartIndexAxis, chartValueFormatter } from "./chart-format";

describe("the x number format handed to the kit", () => {
  it("writes plain numbers without grouping in every locale, and leaves automatic to the kit", () => {
    const plain = chartIndexAxis("plain", [12_500])?.numberFormat;

    for (const locale of ["en-US", "de-DE", "fr-FR"]) {
      expect(new Intl.NumberFormat(locale, plain).format(1900)).toBe("1900");
    }
    expect(chartIndexAxis("auto", [12_500, 1900])).toBeUndefined();
    expect(chartIndexAxis(undefined, [])).toBeUndefined();
  });

  it("writes years plain on automatic, and nothing else (property)", () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
    console.log(`x number format property seed: ${seed} (set FC_SEED to replay)`);
    const year = fc.integer({ min: 1000, max: 2999 });
    const other = fc.oneof(
      fc.integer({ min: -1_000_000, max: 999 }),
      fc.integer({ min: 3000, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ noNaN: true }).filter((value) => !Number.isInteger(value)),
      fc.constantFrom<unknown>(null, "1900", 1999.5, Number.NaN),
    );
    fc.assert(
      fc.property(fc.array(year, { minLength: 1 }), fc.array(other), (years, others) => {
        const yearsOnly = chartIndexAxis("auto", years)?.numberFormat;
        expect(new Intl.NumberFormat("en-US", yearsOnly).format(years[0] as number)).toBe(
          String(years[0]),
        );
        expect(chartIndexAxis(undefined, years)).toEqual(chartIndexAxis("auto", years));
        // One value that is not a year keeps the locale's way for the whole axis.
        if (others.length > 0)
          expect(chartIndexAxis("auto", [...years, ...others])).toBeUndefined();
        expect(chartIndexAxis("plain", others)).toEqual({ numberFormat: { useGrouping: false } });
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe("a currency format without a code", () => {
  it("writes the chart locale's own currency, and a given code as given", () => {
    const euro = chartValueFormatter({ style: "currency" }, "de-DE");
    expect(euro?.(1234.5)).toContain("€");
    expect(chartValueFormatter({ style: "currency" }, "en-GB")?.(2)).toContain("£");
    expect(chartValueFormatter({ style: "currency" }, "en-US")?.(2)).toBe("$2.00");
    expect(chartValueFormatter({ style: "currency", currency: "JPY" }, "de-DE")?.(5)).toContain(
      "¥",
    );
  });
});
