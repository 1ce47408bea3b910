"use client";

import * as RadixTooltip from "@radix-ui/react-tooltip";
import { createContext, type ReactElement, type ReactNode, useContext } from "react";

const InsideProviderContext = createContext(false);

export interface TooltipProviderProps {
  children: ReactNode;
  /** Hover delay before a tooltip opens, ms. Default 300. */
  delayDuration?: number;
  /** Time within which moving to another trigger opens its tooltip at once, ms. Default 300. */
  skipDelayDuration?: number;
}

/** Shares open delays between tooltips; wrap the app (or a page) in one. */
export function TooltipProvider({
  children,
  delayDuration = 300,
  skipDelayDuration = 300,
}: TooltipProviderProps) {
  return (
    <RadixTooltip.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration}>
      <InsideProviderContext.Provider value={true}>{children}</InsideProviderContext.Provider>
    </RadixTooltip.Provider>
  );
}

export interface TooltipProps {
  /** What the tooltip says; it also becomes the trigger's accessible description. */
  content: ReactNode;
  /** The trigger: one focusable element (button, link) that can hold a ref. */
  children: ReactElement;
  side?: "top" | "right" | "bottom" | "left";
  /** Hover delay for this tooltip, ms; defaults to the provider's. */
  delayDuration?: number;
}

/** Opens on pointer hover and keyboard focus; Escape or blur closes it. */
export function Tooltip({ content, children, side = "top", delayDuration }: TooltipProps) {
  const insideProvider = useContext(InsideProviderContext);
  const tooltip = (
    <RadixTooltip.Root delayDuration={delayDuration}>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="seed-tooltip" side={side} sideOffset={6}>
          {content}
          <RadixTooltip.Arrow className="seed-tooltip__arrow" width={10} height={5} />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
  // Radix requires a provider; a lone Tooltip gets its own so it works without setup.
  return insideProvider ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}
