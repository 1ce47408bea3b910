import { describe, expect, it } from "vitest";
import { fitText, textExtent } from "./center-label";

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

  it("scales to nothing for a hole of no size", () => {
    expect(fitText(30, 0, false)).toEqual({ scale: 0, shorter: false });
  });

  it("measures how far a text box reaches from the centre, width and height both", () => {
    // 40 x 30 box centred on (100, 100): corners 25 px away
    expect(textExtent({ x: 80, y: 85, width: 40, height: 30 }, 100, 100)).toBe(25);
    // the caption below makes the box reach further down than up
    expect(textExtent({ x: 90, y: 90, width: 20, height: 40 }, 100, 100)).toBeCloseTo(
      Math.hypot(10, 30),
    );
  });
});
