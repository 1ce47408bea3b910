// Test helper (not part of any build entry): colour maths for the palette test (issue 27).
// sRGB → CIELAB (D65), CIEDE2000, colour-vision-deficiency simulation and the WCAG 2 ratio.

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

/** `#rrggbb` → sRGB channels in 0…1. */
export function hexToRgb(hex: string): Rgb {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as unknown as Rgb;
}

/** sRGB channel (0…1) → linear light (IEC 61966-2-1). */
export function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2.x relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map(toLinear) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours. */
export function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** Linear sRGB → CIELAB, D65 white (the sRGB matrix of IEC 61966-2-1). */
export function linearToLab([r, g, b]: Rgb): Lab {
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** `#rrggbb` → CIELAB (D65). */
export function hexToLab(hex: string): Lab {
  return linearToLab(hexToRgb(hex).map(toLinear) as unknown as Rgb);
}

const deg = Math.PI / 180;

/**
 * CIEDE2000 colour difference (kL = kC = kH = 1), as written out in G. Sharma, W. Wu and
 * E. N. Dalal, "The CIEDE2000 color-difference formula: implementation notes, supplementary test
 * data, and mathematical observations", Color Research & Application 30(1), 2005, eqs. (1)–(22).
 */
export function ciede2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cbar7 = ((C1 + C2) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cbar7 / (Cbar7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hue = (b: number, ap: number) => {
    if (b === 0 && ap === 0) return 0;
    const h = Math.atan2(b, ap) / deg;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);

  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * deg);

  const Lbarp = (L1 + L2) / 2;
  const Cbarp = (C1p + C2p) / 2;
  let hbarp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hbarp = (h1p + h2p) / 2;
    else if (h1p + h2p < 360) hbarp = (h1p + h2p + 360) / 2;
    else hbarp = (h1p + h2p - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hbarp - 30) * deg) +
    0.24 * Math.cos(2 * hbarp * deg) +
    0.32 * Math.cos((3 * hbarp + 6) * deg) -
    0.2 * Math.cos((4 * hbarp - 63) * deg);
  const dTheta = 30 * Math.exp(-(((hbarp - 275) / 25) ** 2));
  const Cbarp7 = Cbarp ** 7;
  const RC = 2 * Math.sqrt(Cbarp7 / (Cbarp7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbarp - 50) ** 2) / Math.sqrt(20 + (Lbarp - 50) ** 2);
  const SC = 1 + 0.045 * Cbarp;
  const SH = 1 + 0.015 * Cbarp * T;
  const RT = -Math.sin(2 * dTheta * deg) * RC;
  const l = dLp / SL;
  const c = dCp / SC;
  const h = dHp / SH;
  return Math.sqrt(l * l + c * c + h * h + RT * c * h);
}

export type Vision = "normal" | "protanopia" | "deuteranopia" | "tritanopia";

/**
 * Dichromacy at severity 1.0 from G. M. Machado, M. M. Oliveira and L. A. F. Fernandes, "A
 * Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009
 * (the matrices of their supplementary table, the ones Chromium and Firefox DevTools use).
 * They apply to linear RGB; the result is clamped to the gamut.
 */
const MACHADO_2009: Record<Exclude<Vision, "normal">, readonly Rgb[]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/** How a `#rrggbb` colour looks under `vision`, in CIELAB. */
export function seenLab(hex: string, vision: Vision): Lab {
  const linear = hexToRgb(hex).map(toLinear) as unknown as Rgb;
  if (vision === "normal") return linearToLab(linear);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const simulated = MACHADO_2009[vision].map(([r, g, b]) =>
    clamp(r * linear[0] + g * linear[1] + b * linear[2]),
  ) as unknown as Rgb;
  return linearToLab(simulated);
}

/** The closest pair of `colours` under `vision` by CIEDE2000, among the first `count`. */
export function closestPair(
  colours: readonly string[],
  vision: Vision,
  count = colours.length,
): { a: number; b: number; distance: number } {
  let closest = { a: -1, b: -1, distance: Number.POSITIVE_INFINITY };
  const labs = colours.slice(0, count).map((hex) => seenLab(hex, vision));
  for (let a = 0; a < labs.length; a++) {
    for (let b = a + 1; b < labs.length; b++) {
      const distance = ciede2000(labs[a] as Lab, labs[b] as Lab);
      if (distance < closest.distance) closest = { a, b, distance };
    }
  }
  return closest;
}
