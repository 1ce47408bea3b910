import {
  firstFreePlace,
  flowLayout,
  gridLimits,
  placeTile,
  type TileKind,
  type TileLayout,
  tilesOverlap,
} from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ComposerTile } from "./editor-state";
import { followSaved, sameLayout } from "./follow-saved";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`composer follows saved tiles property seed: ${seed}`);

const kind = fc.constantFrom<TileKind>("chart", "stat", "text");

/**
 * A dashboard as saved (flowing tiles of any kinds, up to the grid's worth), moves made in the
 * composer and not saved (each through the composer's own placing rule), then the saved tiles
 * after some were removed and some added by the store's rule for a new tile.
 */
const scenario = fc
  .record({
    kinds: fc.array(kind, { maxLength: 24 }),
    moves: fc.array(
      fc.record({
        pick: fc.nat(),
        x: fc.integer({ min: 0, max: gridLimits.columns - 1 }),
        y: fc.integer({ min: 0, max: 30 }),
      }),
      { maxLength: 6 },
    ),
    removed: fc.array(fc.nat(), { maxLength: 4 }),
    added: fc.array(kind, { maxLength: 4 }),
  })
  .map(({ kinds, moves, removed, added }) => {
    const before: ComposerTile[] = flowLayout(kinds).map((layout, index) => ({
      id: `t${index}`,
      kind: kinds[index] as TileKind,
      name: `Tile ${index}`,
      layout,
    }));
    let current = before;
    for (const move of moves) {
      const tile = current[move.pick % Math.max(1, current.length)];
      if (!tile) break;
      const target = {
        ...tile.layout,
        x: Math.min(move.x, gridLimits.columns - tile.layout.w),
        y: move.y,
      };
      current = placeTile(current, tile.id, target) ?? current;
    }
    const gone = new Set(removed.map((pick) => before[pick % Math.max(1, before.length)]?.id));
    const saved: ComposerTile[] = before.filter((tile) => !gone.has(tile.id));
    for (const [index, addedKind] of added.entries()) {
      const layout = firstFreePlace(
        addedKind,
        saved.map((tile) => tile.layout),
      );
      saved.push({ id: `new${index}`, kind: addedKind, name: `New ${index}`, layout });
    }
    return { before, current, saved };
  });

function overlaps(tiles: readonly { layout: TileLayout }[]): boolean {
  return tiles.some((tile, index) =>
    tiles.slice(index + 1).some((other) => tilesOverlap(tile.layout, other.layout)),
  );
}

describe("followSaved (the composer when tiles are added or removed in place)", () => {
  it("keeps every unsaved move, takes the saved tiles, and overlaps nothing", () => {
    fc.assert(
      fc.property(scenario, ({ before, current, saved }) => {
        expect(overlaps(current)).toBe(false);
        const next = followSaved(current, before, saved);
        // Exactly the saved tiles, in their order, with their names and kinds.
        expect(next.map(({ id, kind, name }) => ({ id, kind, name }))).toEqual(
          saved.map(({ id, kind, name }) => ({ id, kind, name })),
        );
        const beforeById = new Map(before.map((tile) => [tile.id, tile.layout]));
        const currentById = new Map(current.map((tile) => [tile.id, tile.layout]));
        for (const [index, tile] of next.entries()) {
          const was = beforeById.get(tile.id);
          const here = currentById.get(tile.id);
          const savedTile = saved[index] as ComposerTile;
          if (was && here) {
            // A tile moved and not saved stays where it was moved; any other takes its saved place.
            expect(tile.layout).toEqual(sameLayout(was, here) ? savedTile.layout : here);
          }
        }
        // An added tile keeps its saved place wherever that is free.
        const taken = next.filter((tile) => beforeById.has(tile.id)).map((tile) => tile.layout);
        for (const [index, tile] of next.entries()) {
          const savedTile = saved[index] as ComposerTile;
          if (beforeById.has(tile.id)) continue;
          if (!taken.some((other) => tilesOverlap(other, savedTile.layout))) {
            expect(tile.layout).toEqual(savedTile.layout);
          }
        }
        // Where the unsaved arrangement fits on the grid, the result does too, without overlaps.
        if (next.every((tile) => tile.layout.y + tile.layout.h <= gridLimits.maxRows)) {
          expect(overlaps(next)).toBe(false);
        }
        // Nothing moved and unsaved: the saved tiles exactly.
        if (
          current.every((tile, index) =>
            sameLayout(tile.layout, before[index]?.layout ?? tile.layout),
          )
        ) {
          expect(next).toEqual(saved);
        }
      }),
      { seed, numRuns: 1000 },
    );
  });
});
