export { Card, type CardProps } from "./card/card";
export * from "./icons";
export {
  formatStatValue,
  type StatTileFigures,
  type StatTileWords,
  statTileWords,
} from "./stat-tile/format";
export {
  StatTile,
  type StatTileProps,
  type StatTileStatus,
  type StatTileTone,
} from "./stat-tile/stat-tile";
// Client-only module: built as its own file that keeps "use client".
export {
  Tooltip,
  type TooltipProps,
  TooltipProvider,
  type TooltipProviderProps,
} from "./tooltip";
export * from "./typography";
