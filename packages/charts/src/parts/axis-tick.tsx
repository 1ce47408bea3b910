import { Text } from "recharts";

/** About 7 px per character of the 12 px axis text: close enough to cut labels to a width. */
export function charsFitting(width: number): number {
  return Math.max(4, Math.floor(width / 7));
}

/** `label` cut to `maxChars` with an ellipsis, or as it is when it fits. */
export function shorten(label: string, maxChars: number): string {
  return label.length > maxChars ? `${label.slice(0, maxChars - 1).trimEnd()}…` : label;
}

/**
 * An index axis tick that shows `shorten(format(value))`; a cut label keeps its full text in an
 * SVG <title>: the browser's tooltip on hover and the tick's accessible name. Recharts calls
 * it as a render function (not a component), once per tick.
 */
export function shortTick(format: (value: number | string) => string, maxChars: number) {
  return (props: { payload?: { value?: unknown } } & Record<string, unknown>) => {
    const full = format(props.payload?.value as number | string);
    const short = shorten(full, maxChars);
    return (
      <g>
        {short === full ? null : <title>{full}</title>}
        <Text {...props}>{short}</Text>
      </g>
    );
  };
}

/** Recharts' tick line (6 px) and gap to its label (2 px), plus room for font differences. */
const TICK_ROOM = 8 + 6;
let measureContext: CanvasRenderingContext2D | null | undefined;

/** Width of `text` in the 12 px axis font: canvas metrics where there is a canvas, else 7 px a character. */
function textWidth(text: string): number {
  if (measureContext === undefined) {
    measureContext =
      typeof document === "undefined"
        ? null
        : (document.createElement("canvas").getContext?.("2d") ?? null);
    if (measureContext) measureContext.font = "12px system-ui, -apple-system, sans-serif";
  }
  const measured = measureContext?.measureText(text).width;
  // a browser's text may be a little wider than the canvas font's: never under 6.5 px a character
  return Math.max(measured ?? 0, text.length * (measureContext ? 6.5 : 7));
}

/**
 * Step between value ticks as Recharts picks it for about five ticks (its getNiceTickValues:
 * the rough step rounded up to a multiple of 0.05 or 0.1 of its power of ten).
 */
function niceStep(span: number): number {
  const rough = span / 4;
  const digits = Math.floor(Math.log10(rough)) + 1;
  const power = 10 ** digits;
  const scale = digits !== 1 ? 0.05 : 0.1;
  return Math.ceil(rough / power / scale) * scale * power;
}

/**
 * Width of a value axis as wide as its longest tick label, from the labels the ticks between
 * `low` and `high` will show: computed while rendering, so the chart is drawn once at its final
 * layout instead of measured after a first drawing (Recharts' `width="auto"`).
 */
export function valueAxisWidth(
  low: number,
  high: number,
  format: (value: number) => string,
  ticks?: readonly number[],
): number {
  const span = high - low;
  // one value: Recharts spreads ticks around it, from 0 to about twice it
  const values = ticks ? [...ticks] : span === 0 ? [0, low, 2 * low, -low] : [low, high];
  if (!ticks && Number.isFinite(span) && span > 0) {
    const step = niceStep(span);
    const first = Math.floor(low / step);
    const last = Math.ceil(high / step);
    // at most a few dozen candidates, whatever the data
    if (Number.isFinite(step) && step > 0 && last - first <= 40) {
      for (let k = first; k <= last; k++) values.push(Number((k * step).toPrecision(12)));
    }
  }
  let widest = 0;
  for (const value of values) widest = Math.max(widest, textWidth(format(value)));
  return Math.ceil(widest + TICK_ROOM);
}
