// Browser-safe: the dashboard grid's rules and pure placement helpers, shared by the store's
// validation, the admin composer and the public page.

export type TileKind = "chart" | "stat" | "text";

/** A tile's place on the grid, in cells: column x and row y from 0, w columns wide, h rows tall. */
export interface TileLayout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const gridLimits = {
  columns: 12,
  /** The grid's last row (exclusive): y + h stays at or under it. */
  maxRows: 96,
  maxH: 8,
} as const;

/** Smallest sensible size of each kind: a chart needs room for axes, a stat for its value. */
export const tileSizeLimits: Record<TileKind, { minW: number; minH: number }> = {
  chart: { minW: 3, minH: 3 },
  stat: { minW: 2, minH: 2 },
  text: { minW: 2, minH: 1 },
};

export const defaultTileSize: Record<TileKind, { w: number; h: number }> = {
  chart: { w: 6, h: 4 },
  stat: { w: 3, h: 2 },
  text: { w: 6, h: 2 },
};

export function tilesOverlap(a: TileLayout, b: TileLayout): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The first free row below every tile. */
export function bottomOf(layouts: readonly TileLayout[]): number {
  return layouts.reduce((bottom, layout) => Math.max(bottom, layout.y + layout.h), 0);
}

/**
 * Places tiles of the given kinds left to right in order, wrapping to a new row band when a tile
 * does not fit: the default layout of tiles that have none (older dashboards, API writes).
 */
export function flowLayout(kinds: readonly TileKind[], startRow = 0): TileLayout[] {
  const placed: TileLayout[] = [];
  let x = 0;
  let y = startRow;
  let bandHeight = 0;
  for (const kind of kinds) {
    const { w, h } = defaultTileSize[kind];
    if (x + w > gridLimits.columns) {
      x = 0;
      y += bandHeight;
      bandHeight = 0;
    }
    placed.push({ x, y, w, h });
    x += w;
    bandHeight = Math.max(bandHeight, h);
  }
  return placed;
}

/**
 * The first place, row by row and left to right, where a tile of this kind fits without
 * overlapping `taken`: where a tile added to a dashboard goes.
 */
export function firstFreePlace(kind: TileKind, taken: readonly TileLayout[]): TileLayout {
  const { w, h } = defaultTileSize[kind];
  for (let y = 0; y + h <= gridLimits.maxRows; y++) {
    for (let x = 0; x + w <= gridLimits.columns; x++) {
      const place = { x, y, w, h };
      if (!taken.some((other) => tilesOverlap(place, other))) return place;
    }
  }
  // A full grid: below everything, where validation names the problem.
  return { x: 0, y: bottomOf(taken), w, h };
}

/** Reading order (row, then column): the order of the public page's one-column phone view. */
export function compareReadingOrder(a: TileLayout, b: TileLayout): number {
  return a.y - b.y || a.x - b.x;
}

/** Why a tile's layout breaks the grid's rules, per field ("x", "w", ...); empty when it fits. */
export function checkTileLayout(kind: TileKind, layout: TileLayout): Record<string, string> {
  const problems: Record<string, string> = {};
  const { minW, minH } = tileSizeLimits[kind];
  const whole = (value: number) => Number.isInteger(value);
  if (!whole(layout.w) || layout.w < minW || layout.w > gridLimits.columns) {
    problems.w = `The width must be ${minW} to ${gridLimits.columns} columns.`;
  }
  if (!whole(layout.h) || layout.h < minH || layout.h > gridLimits.maxH) {
    problems.h = `The height must be ${minH} to ${gridLimits.maxH} rows.`;
  }
  if (!whole(layout.x) || layout.x < 0) {
    problems.x = "The column must be a whole number from 1.";
  } else if (whole(layout.w) && layout.x + layout.w > gridLimits.columns) {
    problems.x = `The tile reaches past column ${gridLimits.columns}.`;
  }
  if (!whole(layout.y) || layout.y < 0) {
    problems.y = "The row must be a whole number from 1.";
  } else if (whole(layout.h) && layout.y + layout.h > gridLimits.maxRows) {
    problems.y = `The tile reaches past row ${gridLimits.maxRows}.`;
  }
  return problems;
}

/**
 * Puts one tile at `target` and pushes every tile it then overlaps down below it, and so on,
 * as a grid editor does; null when that would push a tile off the grid's last row.
 */
export function placeTile<Tile extends { id: string; layout: TileLayout }>(
  tiles: readonly Tile[],
  id: string,
  target: TileLayout,
): Tile[] | null {
  const next = tiles.map((tile) => (tile.id === id ? { ...tile, layout: { ...target } } : tile));
  const queue = next.filter((tile) => tile.id === id);
  // Each push moves a tile strictly down, and tiles stay on the grid, so this ends.
  while (queue.length > 0) {
    const pusher = queue.shift() as Tile;
    for (const [index, tile] of next.entries()) {
      if (tile.id === pusher.id || tile.id === id) continue;
      if (!tilesOverlap(pusher.layout, tile.layout)) continue;
      const pushed = { ...tile, layout: { ...tile.layout, y: pusher.layout.y + pusher.layout.h } };
      if (pushed.layout.y + pushed.layout.h > gridLimits.maxRows) return null;
      next[index] = pushed;
      queue.push(pushed);
    }
  }
  return next;
}

/**
 * Every tile moved up as far as it goes without overlapping a tile above it, in reading order,
 * each keeping its column and size: the gaps a move or a removal left closed, the tiles' order
 * kept. Tiles that overlap already are left where they are.
 */
export function compactLayout<Tile extends { id: string; layout: TileLayout }>(
  tiles: readonly Tile[],
): Tile[] {
  const order = [...tiles].sort((a, b) => compareReadingOrder(a.layout, b.layout));
  const placed: TileLayout[] = [];
  const moved = new Map<string, Tile>();
  for (const tile of order) {
    let y = tile.layout.y;
    while (y > 0 && !placed.some((other) => tilesOverlap({ ...tile.layout, y: y - 1 }, other))) {
      y--;
    }
    const layout = { ...tile.layout, y };
    placed.push(layout);
    moved.set(tile.id, y === tile.layout.y ? tile : { ...tile, layout });
  }
  return tiles.map((tile) => moved.get(tile.id) ?? tile);
}
