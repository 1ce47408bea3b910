import { type RefObject, useRef, useState } from "react";
import { useIsClientRender, useIsomorphicLayoutEffect } from "./environment";

/**
 * Width of the plot element, followed with a ResizeObserver. Server and hydration renders use
 * `initialWidth`; a render that starts on the client waits one layout pass for the real width
 * (null until then) so the chart is drawn once, at its real size.
 */
export function usePlotWidth(
  fixedWidth: number | undefined,
  initialWidth: number,
): [RefObject<HTMLDivElement | null>, number | null] {
  const ref = useRef<HTMLDivElement | null>(null);
  const clientRender = useIsClientRender();
  const [measured, setMeasured] = useState<number | null>(null);

  useIsomorphicLayoutEffect(() => {
    if (fixedWidth !== undefined) return;
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const width = Math.floor(element.getBoundingClientRect().width);
      setMeasured(width > 0 ? width : initialWidth);
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fixedWidth, initialWidth]);

  if (fixedWidth !== undefined) return [ref, fixedWidth];
  if (measured !== null) return [ref, measured];
  return [ref, clientRender ? null : initialWidth];
}
