import { type RefObject, useEffect } from "react";
import { useActiveTooltipDataPoints } from "recharts";

/**
 * Lives inside a Recharts chart: writes the active point's sentence into the live region and
 * remembers the active drawn row (for Enter). Writes the DOM directly so hovering re-renders nothing else.
 */
export function TooltipAnnouncer<Drawn>({
  liveRegion,
  activeRow,
  describe,
}: {
  liveRegion: RefObject<HTMLElement | null>;
  activeRow: { current: Drawn | null };
  describe: (row: Drawn) => string;
}) {
  const points = useActiveTooltipDataPoints<Drawn>();
  const active = points?.[0] ?? null;
  useEffect(() => {
    activeRow.current = active;
    const region = liveRegion.current;
    if (region) region.textContent = active ? describe(active) : "";
  }, [active, activeRow, liveRegion, describe]);
  return null;
}
