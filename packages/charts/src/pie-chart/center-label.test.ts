import { describe, expect, it } from "vitest";
import { fitText, holeTextWidth } from "./center-label";

describe("donut centre fitting", () => {
  it("keeps text that fits at full size", () => {
    expect(fitText(40, 100, true)).toEqual({ scale: 1, shorter: false });
  });

  it("scales text that is a little too wide", () => {
    expect(fitText(120, 100, true)).toEqual({ scale: 100 / 120, shorter: false });
  });

  it("switches to the shorter form when the full one would shrink below 70%", () => {
    expect(fitText(300, 100, true)).toEqual({ scale: 1, shorter: true });
    expect(fitText(300, 100, false)).toEqual({ scale: 1 / 3, shorter: false });
  });

  it("gives a hole's usable width below its diameter, and nothing for no hole", () => {
    expect(holeTextWidth(50)).toBeLessThan(100);
    expect(holeTextWidth(50)).toBeGreaterThan(70);
    expect(holeTextWidth(0)).toBe(0);
  });
});
