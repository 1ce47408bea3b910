import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useSeriesToggle } from "./use-series-toggle";

describe("useSeriesToggle", () => {
  it("starts with the given series hidden and toggles a key in and out", () => {
    const { result } = renderHook(() => useSeriesToggle(["a"]));
    expect([...result.current.hidden]).toEqual(["a"]);

    act(() => result.current.toggle("b"));
    expect([...result.current.hidden].sort()).toEqual(["a", "b"]);

    act(() => result.current.toggle("a"));
    expect([...result.current.hidden]).toEqual(["b"]);
  });

  it("drops the highlight when a series is toggled", () => {
    const { result } = renderHook(() => useSeriesToggle());
    act(() => result.current.setHighlighted("a"));
    expect(result.current.highlighted).toBe("a");

    act(() => result.current.toggle("a"));
    expect(result.current.highlighted).toBeNull();
  });
});
