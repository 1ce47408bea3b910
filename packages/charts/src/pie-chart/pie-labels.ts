import { shorten } from "../parts/axis-tick";

/** Px per character of the 12 px label text: the estimate the axes use too. */
export const LABEL_CHAR = 7;
/** Half the height of a label line, px. */
const HALF_LINE = 8;
/** Distance of a label from its slice: Recharts' `offsetRadius`, where the label line ends. */
export const LABEL_GAP = 20;
/** Widest label a pie keeps room for beside it (12 characters); wider names are shortened. */
const LABEL_ROOM = 12 * LABEL_CHAR;

/**
 * Outer radius of a pie in a `width` x `height` box, leaving room beside it for outside labels
 * `labelWidth` px wide (0: no labels). Below 40% of the box the pie stops shrinking for its
 * labels: a label that still does not fit is shortened or hidden by `fitPieLabel`.
 */
export function pieRadius(width: number, height: number, labelWidth: number): number {
  const half = Math.min(width, height) / 2;
  const fits = labelWidth
    ? Math.min(
        height / 2 - LABEL_GAP - HALF_LINE,
        width / 2 - LABEL_GAP - Math.min(labelWidth, LABEL_ROOM) - 4,
      )
    : half - 6;
  // tiny boxes give up the room for labels first, and the pie never outgrows its box
  return Math.max(0, Math.min(20, half - 1), Math.min(half - 6, Math.max(fits, half * 0.4)));
}

/** Wide (East Asian) characters, about twice the width of a Latin letter. */
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** Estimated width of a label's text, px (emoji count as two UTF-16 units, wide characters twice). */
export function labelWidth(text: string): number {
  return (text.length + (text.match(WIDE)?.length ?? 0)) * LABEL_CHAR;
}

/**
 * The text a label at (x, y), anchored as Recharts anchors it, shows inside the `width` x
 * `height` svg: all of it, a name cut with an ellipsis, or null (hidden: the value is still in
 * the tooltip and the data table) when it would cross the edge.
 */
export function fitPieLabel(
  text: string,
  x: number,
  y: number,
  anchor: string,
  width: number,
  height: number,
  shortenable: boolean,
): string | null {
  if (!(y >= HALF_LINE && y <= height - HALF_LINE)) return null;
  // "middle": Recharts centres a label straight above or below the pie's centre
  const room =
    (anchor === "start" ? width - x : anchor === "end" ? x : 2 * Math.min(x, width - x)) - 2;
  if (labelWidth(text) <= room) return text;
  if (!shortenable) return null;
  for (let n = Math.min(text.length - 1, Math.floor(room / LABEL_CHAR)); n >= 4; n--) {
    const short = shorten(text, n);
    if (labelWidth(short) <= room) return short;
  }
  return null;
}

/** The box a label's text covers, by the same estimate, with half a line above and below. */
export function labelBox(text: string, x: number, y: number, anchor: string) {
  const w = labelWidth(text);
  const left = anchor === "start" ? x : anchor === "end" ? x - w : x - w / 2;
  return { left, right: left + w, top: y - HALF_LINE, bottom: y + HALF_LINE };
}
