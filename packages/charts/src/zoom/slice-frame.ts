import type { CartesianFrame } from "../data/rows";

/** The frame's points with x in `range` (at least two when there are two), for a zoomed plot. */
export function sliceFrame(
  frame: CartesianFrame,
  range: readonly [number, number],
): CartesianFrame {
  const { xs } = frame;
  let from = 0;
  while (from < xs.length - 2 && (xs[from] as number) < range[0]) from++;
  let to = xs.length;
  while (to > from + 2 && (xs[to - 1] as number) > range[1]) to--;
  const values = frame.values.map((column) => column.subarray(from, to));
  return {
    ...frame,
    rowIndex: frame.rowIndex
      ? frame.rowIndex.subarray(from, to)
      : Uint32Array.from({ length: to - from }, (_, k) => from + k),
    xs: xs.subarray(from, to),
    values,
  };
}
