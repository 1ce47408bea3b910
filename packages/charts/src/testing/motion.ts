// Test helper (not part of any build entry): the reduced-motion setting as the charts read it.
import { vi } from "vitest";

/** Makes `(prefers-reduced-motion: reduce)` match, or not; restore with vi.restoreAllMocks(). */
export function fakeReducedMotion(reduce: boolean) {
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes("prefers-reduced-motion"),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}
