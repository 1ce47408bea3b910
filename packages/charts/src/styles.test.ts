// @vitest-environment node
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contrast } from "./testing/colour";
import { colourToken, ruleOf } from "./testing/stylesheet";

const css = readFileSync(fileURLToPath(new URL("./styles.css", import.meta.url)), "utf8");

const themes = {
  light: ruleOf(css, ".seed-chart"),
  dark: ruleOf(css, ".dark .seed-chart"),
  "dark (system setting)": ruleOf(css, '  :root:not(.light):not([data-theme="light"]) .seed-chart'),
};

describe("series palette", () => {
  // the series colours against the chart background, and their distances: palette.test.ts
  it("keeps 3:1 on the backgrounds @seed/ui's stylesheet gives pages and cards, light and dark", () => {
    // the charts' --seed-chart-bg follows --seed-color-bg when that stylesheet is loaded
    const uiCss = readFileSync(fileURLToPath(import.meta.resolve("@seed/ui/styles.css")), "utf8");
    /** The declarations of the first rule whose selector list contains `selector`. */
    const uiRule = (selector: string) => {
      const start = uiCss.indexOf(selector);
      if (start < 0) throw new Error(`@seed/ui has no rule for ${selector}`);
      return uiCss.slice(start, uiCss.indexOf("}", start));
    };
    const uiThemes = { light: uiRule(":root"), dark: uiRule(".dark,") };
    const failing: string[] = [];
    for (const [theme, uiBlock] of Object.entries(uiThemes)) {
      const palette = theme === "light" ? themes.light : themes.dark;
      for (const name of ["--seed-color-bg", "--seed-color-surface"]) {
        const background = colourToken(uiBlock, name);
        for (let i = 1; i <= 8; i++) {
          const color = colourToken(palette, `--seed-chart-${i}`);
          const ratio = contrast(color, background);
          if (ratio < 3)
            failing.push(`${theme} ${color} on ${name} ${background}: ${ratio.toFixed(2)}`);
        }
      }
    }
    expect(failing).toEqual([]);
  });

  it("computes the WCAG ratio the spec gives for black on white", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});

describe("forced colours", () => {
  const start = css.indexOf("@media (forced-colors: active)");
  const rules = css.slice(start, css.indexOf("\n}\n", start));

  it("draws every kind of mark and text in system colours", () => {
    expect(start).toBeGreaterThan(0);
    for (const mark of [
      ".recharts-line-curve",
      ".recharts-area-area",
      ".recharts-bar-rectangle",
      ".recharts-pie-sector",
      ".recharts-cartesian-axis-tick-value",
      ".recharts-cartesian-grid",
    ]) {
      expect(rules).toContain(mark);
    }
    expect(rules).toMatch(/stroke: CanvasText/);
    expect(rules).toMatch(/fill: Canvas;/);
    expect(rules).not.toMatch(/var\(--seed-chart-\d\)/);
  });
});

describe("motion in the stylesheet (issue 11)", () => {
  /** Every `animation`/`transition` declaration with the selector of its rule. */
  const motions = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].flatMap(([, selector, body]) =>
    [...(body ?? "").matchAll(/(?:^|;)\s*(animation|transition)(?:-duration)?:\s*([^;]+)/g)].map(
      ([, property, value]) => ({
        selector: (selector ?? "").trim(),
        property,
        value: (value ?? "").trim(),
      }),
    ),
  );
  const durationsMs = (value: string) =>
    [...value.matchAll(/(\d*\.?\d+)(ms|s)\b/g)].map(([, n, unit]) =>
      unit === "s" ? Number(n) * 1000 : Number(n),
    );

  it("settles every finite animation and transition within 400 ms", () => {
    const slow = motions.filter(
      (m) => !m.value.includes("infinite") && durationsMs(m.value).some((ms) => ms > 400),
    );
    expect(slow).toEqual([]);
  });

  it("turns every looping animation (the loading pulse) off under prefers-reduced-motion", () => {
    const looping = motions.filter((m) => m.value.includes("infinite"));
    const start = css.indexOf("@media (prefers-reduced-motion: reduce)");
    const reduced = css.slice(start, css.indexOf("\n}\n", start));
    expect(looping.map((m) => m.selector)).toEqual([".seed-chart-skeleton"]);
    for (const { selector } of looping) {
      expect(reduced).toMatch(
        new RegExp(`${selector.replace(".", "\\.")}\\s*\\{\\s*animation: none`),
      );
    }
  });
});
