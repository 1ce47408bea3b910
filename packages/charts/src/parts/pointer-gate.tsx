import { type ReactNode, useEffect, useRef, useState } from "react";
import { useIsomorphicLayoutEffect } from "./environment";

const EVENTS = [
  "mouseover",
  "mousemove",
  "mousedown",
  "keydown",
  "focusin",
  "pointerdown",
  "pointermove",
];

/**
 * Lives inside a Recharts chart and keeps its tooltip honest about the pointer:
 * - after a mount or a change of `drawn` under a resting pointer, the hover state is cleared and
 *   the browser's boundary events (sent on layout, with no move) open nothing until the pointer
 *   really moves, presses or a key is pressed: no tooltip from values nobody pointed at;
 * - a touch or pen press, or drag, on the plot shows the tooltip at the nearest x (Recharts
 *   itself follows only mouse moves and touchmove);
 * - the tooltip (`children`) mounts on the first interaction: a chart nobody touches never pays
 *   for it (Recharts measures its box at mount, forcing a layout). One render, once.
 */
export function PointerGate({
  drawn,
  eager,
  children,
}: {
  drawn: unknown;
  /** Mount `children` at once instead of on the first pointer, touch, key or focus. */
  eager: boolean;
  children: ReactNode;
}) {
  const anchor = useRef<SVGGElement | null>(null);
  const gate = useRef({ resting: true, drawn });
  const [interacted, setInteracted] = useState(eager);

  useEffect(() => {
    const host = anchor.current?.closest<HTMLElement>(".recharts-wrapper");
    if (!host) return;
    const onEvent = (event: Event) => {
      setInteracted(true);
      if (event.type === "focusin") return;
      // React derives mouseenter from mouseover in the bubble phase: stopped here, Recharts never sees it
      if (event.type === "mouseover") {
        if (gate.current.resting) event.stopPropagation();
        return;
      }
      gate.current.resting = false;
      const { pointerType, clientX, clientY } = event as PointerEvent;
      // Recharts reads the position from a mouse move on its wrapper
      if (pointerType === "touch" || pointerType === "pen") {
        host.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, clientX, clientY }));
      }
    };
    for (const type of EVENTS) host.addEventListener(type, onEvent, true);
    return () => {
      for (const type of EVENTS) host.removeEventListener(type, onEvent, true);
    };
  }, []);

  useIsomorphicLayoutEffect(() => {
    if (gate.current.drawn === drawn) return;
    gate.current = { resting: true, drawn };
    const host = anchor.current?.closest(".recharts-wrapper");
    // a leave as React sees it (out of the wrapper into its parent) clears Recharts' hover state
    host?.dispatchEvent(
      new MouseEvent("mouseout", { bubbles: true, relatedTarget: host.parentElement }),
    );
  }, [drawn]);

  return (
    <>
      <g ref={anchor} />
      {interacted && children}
    </>
  );
}
