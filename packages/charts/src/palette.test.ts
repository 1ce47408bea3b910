// @vitest-environment node
// Issue 27: any two series of a chart must read as different colours, in the light and the dark
// theme and under the common colour-vision deficiencies. The colours are parsed from styles.css,
// so this checks what ships.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ciede2000,
  closestPair,
  contrast,
  hexToLab,
  type Lab,
  seenLab,
  type Vision,
} from "./testing/colour";
import { colourToken, ruleOf } from "./testing/stylesheet";

const css = readFileSync(fileURLToPath(new URL("./styles.css", import.meta.url)), "utf8");

/** The least CIEDE2000 distance between any two series, for all eight and for the first four. */
const THRESHOLDS: Record<Vision, { all: number; first4: number }> = {
  normal: { all: 20, first4: 30 },
  protanopia: { all: 10, first4: 15 },
  deuteranopia: { all: 10, first4: 15 },
  tritanopia: { all: 10, first4: 15 },
};
const VISIONS = Object.keys(THRESHOLDS) as Vision[];

const themes = {
  light: ruleOf(css, ".seed-chart"),
  dark: ruleOf(css, ".dark .seed-chart"),
  "dark (system setting)": ruleOf(css, '  :root:not(.light):not([data-theme="light"]) .seed-chart'),
};
const palette = (rule: string) =>
  Array.from({ length: 8 }, (_, i) => colourToken(rule, `--seed-chart-${i + 1}`));

describe("CIEDE2000 (Sharma, Wu & Dalal 2005)", () => {
  // Table 1 of the paper: all 34 test pairs (L*, a*, b* of each colour) and ΔE00 to 4 decimals.
  const pairs: [Lab, Lab, number][] = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
    [[50, 2.8361, -74.02], [50, 0, -82.7485], 3.4412],
    [[50, -1.3802, -84.2814], [50, 0, -82.7485], 1.0],
    [[50, -1.1848, -84.8006], [50, 0, -82.7485], 1.0],
    [[50, -0.9009, -85.5211], [50, 0, -82.7485], 1.0],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, -1, 2], [50, 0, 0], 2.3669],
    [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
    [[50, 2.49, -0.001], [50, -2.49, 0.001], 7.1792],
    [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
    [[50, 2.49, -0.001], [50, -2.49, 0.0012], 7.2195],
    [[50, -0.001, 2.49], [50, 0.0009, -2.49], 4.8045],
    [[50, -0.001, 2.49], [50, 0.001, -2.49], 4.8045],
    [[50, -0.001, 2.49], [50, 0.0011, -2.49], 4.7461],
    [[50, 2.5, 0], [50, 0, -2.5], 4.3065],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [61, -5, 29], 22.8977],
    [[50, 2.5, 0], [56, -27, -3], 31.903],
    [[50, 2.5, 0], [58, 24, 15], 19.4535],
    [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
    [[50, 2.5, 0], [50, 3.2972, 0], 1.0],
    [[50, 2.5, 0], [50, 1.8634, 0.5757], 1.0],
    [[50, 2.5, 0], [50, 3.2592, 0.335], 1.0],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
    [[61.2901, 3.7196, -5.3901], [61.4292, 2.248, -4.962], 1.8731],
    [[35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645],
    [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
    [[36.4612, 47.858, 18.3852], [36.2715, 50.5065, 21.2231], 1.4146],
    [[90.8027, -2.0831, 1.441], [91.1528, -1.6435, 0.0447], 1.4441],
    [[90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381],
    [[6.7747, -0.2908, -2.4247], [5.8714, -0.0985, -2.2286], 0.6377],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ];

  it.each(pairs)("gives the paper's ΔE00 for %j and %j (%d)", (one, two, expected) => {
    expect(ciede2000(one, two)).toBeCloseTo(expected, 4);
    // the formula is symmetric
    expect(ciede2000(two, one)).toBeCloseTo(expected, 4);
  });
});

describe("colour conversions", () => {
  const close = (lab: Lab, expected: Lab) => {
    for (const [i, v] of lab.entries()) expect(v).toBeCloseTo(expected[i] as number, 2);
  };

  it("maps white, black and the sRGB primaries to their CIELAB (D65) values", () => {
    close(hexToLab("#ffffff"), [100, 0, 0]);
    close(hexToLab("#000000"), [0, 0, 0]);
    close(hexToLab("#ff0000"), [53.24, 80.09, 67.2]);
    close(hexToLab("#00ff00"), [87.73, -86.18, 83.18]);
    close(hexToLab("#0000ff"), [32.3, 79.19, -107.86]);
  });

  it("keeps greys grey; merges red with green for protan and deutan, blue with green for tritan", () => {
    for (const vision of VISIONS) {
      for (const grey of ["#ffffff", "#777777", "#000000"]) {
        close(seenLab(grey, vision), hexToLab(grey));
      }
    }
    /** How much of the normal-vision distance of two colours `vision` leaves. */
    const kept = (a: string, b: string, vision: Vision) =>
      ciede2000(seenLab(a, vision), seenLab(b, vision)) /
      ciede2000(seenLab(a, "normal"), seenLab(b, "normal"));
    const [red, green, blue] = ["#d62728", "#2ca02c", "#1f77b4"];
    for (const vision of ["protanopia", "deuteranopia"] as const) {
      expect(kept(red, green, vision)).toBeLessThan(0.5);
      expect(kept(blue, green, vision)).toBeGreaterThan(0.5);
    }
    expect(kept(red, green, "tritanopia")).toBeGreaterThan(0.5);
    expect(kept(blue, green, "tritanopia")).toBeLessThan(0.5);
  });
});

describe("series palette (issue 27)", () => {
  it("defines the eight series tokens only in the light and the two dark rules, dark alike", () => {
    const definitions = [...css.matchAll(/--seed-chart-[1-8]:/g)].length;
    expect(definitions).toBe(8 * Object.keys(themes).length);
    expect(palette(themes["dark (system setting)"])).toEqual(palette(themes.dark));
  });

  it("states the thresholds this test asserts in the stylesheet's comment", () => {
    const stated = VISIONS.map(
      (vision) => `${vision} ${THRESHOLDS[vision].all} (first 4: ${THRESHOLDS[vision].first4})`,
    ).join(", ");
    expect(css).toContain(`ΔE00 at least: ${stated}`);
  });

  for (const [theme, rule] of Object.entries(themes)) {
    const colours = palette(rule);

    it(`keeps every two of the eight ${theme} colours apart, and the first four further`, () => {
      const failing: string[] = [];
      for (const vision of VISIONS) {
        for (const [count, threshold] of [
          [8, THRESHOLDS[vision].all],
          [4, THRESHOLDS[vision].first4],
        ] as const) {
          const { a, b, distance } = closestPair(colours, vision, count);
          const line = `${theme}, ${vision}, first ${count}: closest --seed-chart-${a + 1} ${colours[a]} and --seed-chart-${b + 1} ${colours[b]}, ΔE00 ${distance.toFixed(1)} (≥ ${threshold})`;
          console.log(line);
          if (distance < threshold) failing.push(line);
        }
      }
      expect(failing).toEqual([]);
    });

    it(`gives every ${theme} colour at least 3:1 contrast with the chart background`, () => {
      const background = colourToken(rule, "--seed-chart-bg");
      const low = colours
        .map((colour) => ({ colour, ratio: Math.round(contrast(colour, background) * 100) / 100 }))
        .filter(({ ratio }) => ratio < 3);
      expect(low).toEqual([]);
    });
  }
});
