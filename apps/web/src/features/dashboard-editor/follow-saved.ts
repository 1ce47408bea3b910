import { firstFreePlace, type TileLayout, tilesOverlap } from "@seed/model";
import type { ComposerTile } from "./editor-state";

export function sameLayout(a: TileLayout, b: TileLayout): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/**
 * The composer's tiles once the saved ones change under it (a tile added or removed in place, a
 * layout saved, another form's save): the saved tiles, except that a tile moved here and not yet
 * saved keeps its unsaved place. A tile new to the dashboard takes its saved place, or where the
 * unsaved arrangement has no room there, the first free place in it (the store's rule for a new
 * tile, applied to what the editor sees): unsaved moves are never undone by an addition.
 */
export function followSaved(
  current: readonly ComposerTile[],
  before: readonly ComposerTile[],
  saved: readonly ComposerTile[],
): ComposerTile[] {
  const beforeById = new Map(before.map((tile) => [tile.id, tile.layout]));
  const unsaved = new Map(
    current.flatMap((tile) => {
      const was = beforeById.get(tile.id);
      return was && !sameLayout(was, tile.layout) ? [[tile.id, tile.layout] as const] : [];
    }),
  );
  const next = saved.map((tile) => {
    const layout = unsaved.get(tile.id);
    return layout ? { ...tile, layout } : tile;
  });
  for (const [index, tile] of next.entries()) {
    if (beforeById.has(tile.id)) continue;
    const taken = next.filter((_, at) => at !== index).map((other) => other.layout);
    if (taken.some((other) => tilesOverlap(other, tile.layout))) {
      next[index] = { ...tile, layout: firstFreePlace(tile.kind, taken) };
    }
  }
  return next;
}
