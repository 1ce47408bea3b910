// Test helper (not part of any build entry): a chart drawn over random rows.
import { render, screen } from "@testing-library/react";
import fc from "fast-check";
import type { ReactElement } from "react";
import { expect, vi } from "vitest";

/**
 * Draws `chart(rows)` for `numRuns` random row sets: each must show its figure and never throw.
 * The development warnings about bad rows are silenced meanwhile.
 */
export function expectDrawsAnyRows<Row>(
  rows: fc.Arbitrary<Row[]>,
  chart: (rows: Row[]) => ReactElement,
  numRuns: number,
): void {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  fc.assert(
    fc.property(rows, (drawn) => {
      const { unmount } = render(chart(drawn));
      expect(screen.getByRole("figure")).toBeInTheDocument();
      unmount();
    }),
    { numRuns },
  );
  warn.mockRestore();
}
