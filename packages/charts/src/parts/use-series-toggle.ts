import { useCallback, useState } from "react";

/** Which series (or slices) the legend has hidden, and which one it highlights. */
export function useSeriesToggle(initiallyHidden?: readonly string[]) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set(initiallyHidden ?? []));
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const toggle = useCallback((key: string) => {
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
    // a hidden series cannot stay highlighted
    setHighlighted(null);
  }, []);
  return { hidden, toggle, highlighted, setHighlighted };
}
