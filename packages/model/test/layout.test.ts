import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compactLayout,
  firstFreePlace,
  gridLimits,
  placeTile,
  type TileKind,
  type TileLayout,
  tilesOverlap,
} from "../src/dashboard/layout.js";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`layout property seed: ${seed}`);

interface Tile {
  id: string;
  layout: TileLayout;
}

/** A dashboard as an editor leaves it: tiles added in turn, then moved anywhere (gaps and all). */
const arranged = fc
  .tuple(
    fc.array(fc.constantFrom<TileKind>("chart", "stat", "text"), { minLength: 1, maxLength: 14 }),
    fc.array(
      fc.record({
        tile: fc.nat(),
        x: fc.nat({ max: gridLimits.columns - 1 }),
        y: fc.nat({ max: 40 }),
      }),
      { maxLength: 10 },
    ),
  )
  .map(([kinds, moves]) => {
    let tiles: Tile[] = [];
    for (const [index, kind] of kinds.entries()) {
      const layout = firstFreePlace(
        kind,
        tiles.map((tile) => tile.layout),
      );
      tiles.push({ id: `t${index}`, layout });
    }
    for (const move of moves) {
      const tile = tiles[move.tile % tiles.length] as Tile;
      const x = Math.min(move.x, gridLimits.columns - tile.layout.w);
      tiles = placeTile(tiles, tile.id, { ...tile.layout, x, y: move.y }) ?? tiles;
    }
    return tiles;
  });

describe("closing the gaps of a layout", () => {
  it("moves every tile up as far as it goes, keeping columns, sizes and no overlap (property)", () => {
    fc.assert(
      fc.property(arranged, (tiles) => {
        const compact = compactLayout(tiles);
        expect(compact.map((tile) => tile.id)).toEqual(tiles.map((tile) => tile.id));
        for (const [index, tile] of compact.entries()) {
          const before = tiles[index] as Tile;
          expect({ ...tile.layout, y: 0 }).toEqual({ ...before.layout, y: 0 });
          expect(tile.layout.y).toBeLessThanOrEqual(before.layout.y);
          // Nothing overlaps, and no tile could go one row higher.
          for (const other of compact) {
            if (other.id !== tile.id) expect(tilesOverlap(tile.layout, other.layout)).toBe(false);
          }
          if (tile.layout.y > 0) {
            const higher = { ...tile.layout, y: tile.layout.y - 1 };
            expect(
              compact.some((other) => other.id !== tile.id && tilesOverlap(higher, other.layout)),
            ).toBe(true);
          }
        }
        // Closed gaps stay closed.
        expect(compactLayout(compact)).toEqual(compact);
      }),
      { seed, numRuns: 500 },
    );
  });

  it("leaves a layout without gaps as it is, the same objects", () => {
    const tiles = [
      { id: "a", layout: { x: 0, y: 0, w: 6, h: 4 } },
      { id: "b", layout: { x: 6, y: 0, w: 6, h: 2 } },
      { id: "c", layout: { x: 6, y: 2, w: 3, h: 2 } },
    ];
    const compact = compactLayout(tiles);
    expect(compact).toEqual(tiles);
    for (const [index, tile] of compact.entries()) expect(tile).toBe(tiles[index]);
    const gapped = [tiles[0] as Tile, { id: "d", layout: { x: 0, y: 9, w: 6, h: 2 } }];
    expect(compactLayout(gapped)[1]?.layout).toEqual({ x: 0, y: 4, w: 6, h: 2 });
  });
});
