"use client";

export {
  Tooltip,
  type TooltipProps,
  TooltipProvider,
  type TooltipProviderProps,
} from "./tooltip";
