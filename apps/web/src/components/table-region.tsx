import type { ReactNode } from "react";

/** A horizontally scrollable table box that keyboard users can focus and scroll. */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1)
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
