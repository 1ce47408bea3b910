import { describe, expect, it } from "vitest";
import { fitOffset } from "./tooltip";

describe("fitOffset (tooltip inside the window)", () => {
  it("leaves a box that fits where it is", () => {
    expect(fitOffset(100, 150, 800)).toBe(0);
  });

  it("flips a box past the right edge to the other side of the pointer", () => {
    // box from 700 to 850 in a 800 px window: flipped by its width and twice the pointer offset
    expect(fitOffset(700, 150, 800)).toBe(-170);
  });

  it("shifts instead when flipping would cross the left edge", () => {
    expect(fitOffset(100, 750, 800)).toBe(800 - 4 - 850);
  });

  it("shifts a box past the left edge right, and a box wider than the window to its start", () => {
    expect(fitOffset(-30, 100, 800)).toBe(34);
    expect(fitOffset(10, 900, 800)).toBe(-6);
  });
});
