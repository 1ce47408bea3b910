const SVG_NS = "http://www.w3.org/2000/svg";

/** Style properties that decide how an SVG element looks; copied as computed values (CSS variables resolved). */
const PAINT_PROPERTIES = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "letter-spacing",
] as const;

/** Hover-only marks that must not end up in a file. */
const TRANSIENT = ".recharts-tooltip-cursor, .recharts-active-dot, .recharts-tooltip-wrapper";

/** The chart's plot surface: the main Recharts <svg> (not the small legend icons). */
export function chartSurface(chart: HTMLElement): SVGSVGElement {
  const svg = chart.querySelector<SVGSVGElement>(".seed-chart-plot svg.recharts-surface");
  if (!svg) throw new Error("exportChart: the chart has not drawn yet (no plot surface).");
  return svg;
}

/** Legend entries as the screen shows them: swatch colour, name, whether the series is shown. */
function legendEntries(chart: HTMLElement) {
  return [...chart.querySelectorAll<HTMLElement>(".seed-chart-legend-button")].map((button) => {
    const swatch = button.querySelector<HTMLElement>(".seed-chart-swatch");
    return {
      label: button.querySelector(".seed-chart-legend-name")?.textContent ?? "",
      color: swatch ? getComputedStyle(swatch).color : "currentColor",
      shown: button.getAttribute("aria-pressed") !== "false",
    };
  });
}

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

const unquote = (family: string) =>
  family
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase();

/**
 * The page's @font-face rules for `families`, their files inlined as data URLs: an SVG drawn as
 * an image cannot load the page's web fonts, so without this the PNG would fall back to others.
 */
export async function embeddedFontFaces(families: ReadonlySet<string>): Promise<string> {
  const rules: CSSFontFaceRule[] = [];
  for (const sheet of document.styleSheets) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue; // a cross-origin stylesheet cannot be read
    }
    for (const rule of list) {
      if (
        rule instanceof CSSFontFaceRule &&
        families.has(unquote(rule.style.getPropertyValue("font-family")))
      ) {
        rules.push(rule);
      }
    }
  }
  const faces = await Promise.all(
    rules.map(async (rule) => {
      let css = rule.cssText;
      for (const [whole, , url] of rule.cssText.matchAll(/url\((["']?)([^"')]+)\1\)/g)) {
        if (!url || url.startsWith("data:")) continue;
        try {
          const href = new URL(url, rule.parentStyleSheet?.href ?? document.baseURI).href;
          const response = await fetch(href);
          if (!response.ok) continue;
          css = css.replace(whole, `url("${await dataUrl(await response.blob())}")`);
        } catch {
          // a font file that cannot be fetched leaves its url: the image falls back, as any page would
        }
      }
      return css;
    }),
  );
  return faces.join("\n");
}

/**
 * A standalone copy of the chart as SVG markup: every element's computed paint inlined (so CSS
 * variables and theme classes resolve as on screen), the background filled, the legend drawn below.
 */
export async function serializeChartSvg(chart: HTMLElement): Promise<{
  svg: string;
  width: number;
  height: number;
}> {
  const surface = chartSurface(chart);
  const box = surface.getBoundingClientRect();
  const width = Math.round(box.width);
  const plotHeight = Math.round(box.height);
  const clone = surface.cloneNode(true) as SVGSVGElement;

  const originals = [surface, ...surface.querySelectorAll("*")];
  const families = new Set<string>();
  const copies = [clone, ...clone.querySelectorAll("*")];
  originals.forEach((original, i) => {
    const copy = copies[i];
    if (!(copy instanceof Element)) return;
    const computed = getComputedStyle(original);
    if (original.tagName === "text") {
      for (const family of computed.fontFamily.split(",")) families.add(unquote(family));
    }
    const parent =
      original.parentElement && i > 0 ? getComputedStyle(original.parentElement) : null;
    // only what differs from the parent (inherited values need not repeat) keeps the file small
    const inline = PAINT_PROPERTIES.flatMap((name) => {
      const value = computed.getPropertyValue(name);
      const inherited = parent?.getPropertyValue(name) === value && name !== "opacity";
      return inherited || (name === "opacity" && value === "1") ? [] : [`${name}:${value}`];
    });
    if (inline.length) copy.setAttribute("style", inline.join(";"));
    else copy.removeAttribute("style");
    copy.removeAttribute("class");
    // presentation attributes naming CSS variables mean nothing outside the page
    for (const name of ["fill", "stroke", "stop-color"]) {
      if (copy.getAttribute(name)?.includes("var(")) copy.removeAttribute(name);
    }
  });
  // the copies lost their classes above, so find hover marks in the original and remove by position
  const transientIndexes = originals
    .map((node, i) => (node.matches(TRANSIENT) ? i : -1))
    .filter((i) => i >= 0);
  for (const i of transientIndexes) copies[i]?.remove();

  const chartStyle = getComputedStyle(chart);
  const background = chartStyle.getPropertyValue("--seed-chart-bg").trim() || "#ffffff";
  const foreground = chartStyle.color;
  const font = chartStyle.fontFamily;
  for (const family of font.split(",")) families.add(unquote(family));

  // about 7 px per character of 12 px text: close enough to lay out legend rows
  const entries = legendEntries(chart);
  let rows = entries.length ? 1 : 0;
  let x = 0;
  const placed = entries.map((entry) => {
    const itemWidth = 16 + entry.label.length * 7;
    if (x > 0 && x + itemWidth > width - 16) {
      rows++;
      x = 0;
    }
    const at = { entry, x, y: plotHeight + 16 + (rows - 1) * 20 };
    x += itemWidth + 16;
    return at;
  });
  const height = plotHeight + (rows ? rows * 20 + 4 : 0);

  const backdrop = document.createElementNS(SVG_NS, "rect");
  backdrop.setAttribute("width", "100%");
  backdrop.setAttribute("height", "100%");
  backdrop.setAttribute("style", `fill:${background}`);
  clone.insertBefore(backdrop, clone.firstChild);

  const legend = document.createElementNS(SVG_NS, "g");
  legend.setAttribute("transform", "translate(8 0)");
  for (const { entry, x, y } of placed) {
    const swatch = document.createElementNS(SVG_NS, "rect");
    swatch.setAttribute("x", String(x));
    swatch.setAttribute("y", String(y - 9));
    swatch.setAttribute("width", "10");
    swatch.setAttribute("height", "10");
    swatch.setAttribute(
      "style",
      `fill:${entry.shown ? entry.color : "none"};stroke:${entry.color};stroke-width:2`,
    );
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", String(x + 16));
    text.setAttribute("y", String(y));
    text.setAttribute("style", `fill:${foreground};font-family:${font};font-size:12px`);
    text.textContent = entry.label;
    legend.append(swatch, text);
  }
  if (placed.length) clone.append(legend);

  const fontFaces = await embeddedFontFaces(families);
  if (fontFaces) {
    const style = document.createElementNS(SVG_NS, "style");
    style.textContent = fontFaces;
    clone.insertBefore(style, clone.firstChild);
  }

  clone.setAttribute("xmlns", SVG_NS);
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  clone.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const rootStyle = getComputedStyle(surface);
  clone.setAttribute(
    "style",
    PAINT_PROPERTIES.filter((name) => name !== "opacity")
      .map((name) => `${name}:${rootStyle.getPropertyValue(name)}`)
      .join(";"),
  );
  clone.removeAttribute("tabindex");
  return { svg: new XMLSerializer().serializeToString(clone), width, height };
}
