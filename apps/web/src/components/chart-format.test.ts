import { describe, expect, it } from "vitest";
import { chartIndexAxis } from "./chart-format";

describe("the x number format handed to the kit", () => {
  it("writes plain numbers without grouping in every locale, and leaves automatic to the kit", () => {
    const plain = chartIndexAxis("plain")?.numberFormat;

    for (const locale of ["en-US", "de-DE", "fr-FR"]) {
      expect(new Intl.NumberFormat(locale, plain).format(1900)).toBe("1900");
    }
    expect(chartIndexAxis("auto")).toBeUndefined();
    expect(chartIndexAxis(undefined)).toBeUndefined();
  });
});
