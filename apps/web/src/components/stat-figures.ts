import { numberFormatIn } from "@seed/model";
import type { RenderedTile } from "@seed/store";
import type { StatTileFigures, StatTileStatus } from "@seed/ui";

/** Stat tiles write numbers as @seed/ui's StatTile does by default (the same on server and client). */
const statLocale = "en-US";

export type RenderedStat = Extract<RenderedTile, { kind: "stat" }>;

/**
 * A rendered stat tile's figures as the page shows them: the tile on the page and a report's
 * words (statTileWords) both read these, so an email says what the dashboard shows.
 */
export function statFigures(tile: RenderedStat): StatTileFigures & { status?: StatTileStatus } {
  return {
    label: tile.label,
    value: tile.value,
    locale: statLocale,
    ...(tile.format ? { format: numberFormatIn(tile.format, statLocale) } : {}),
    ...(tile.delta !== null && tile.delta !== undefined ? { delta: tile.delta } : {}),
    ...(tile.deltaLabel ? { deltaLabel: tile.deltaLabel } : {}),
    ...((tile.error ?? tile.empty) ? { emptyReason: (tile.error ?? tile.empty) as string } : {}),
    ...(tile.status ? { status: tile.status } : {}),
  };
}
