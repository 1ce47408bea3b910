import { ComboChart, LineChart, ScatterChart } from "@seed/charts";
import "@seed/charts/styles.css";
import { createRoot } from "react-dom/client";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart as RechartsLineChart,
  ScatterChart as RechartsScatterChart,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { CLOUD_GROUPS, cloudRows, makeCloud } from "./clouds";
import { mountUplot } from "./uplot-chart";
import { mountUplotScatter, prepareUplotScatter } from "./uplot-scatter";
import { makeRandomWalks, rowsOf, type WalkRow } from "./walks";

interface BenchResult {
  paintMs: number;
  /** React commits from the render call until the chart settled. */
  commits: number;
}

declare global {
  interface Window {
    benchResult?: BenchResult;
    benchError?: string;
    benchCommits: number;
    /** Set by the runner before moving the real mouse; resolves with ms from input to painted tooltip. */
    benchHover?: () => Promise<number | null>;
    benchTooltipShown?: () => boolean;
  }
}

const params = new URLSearchParams(location.search);
const library = params.get("lib") ?? "seed";
/**
 * "line" (three random walks), "scatter" (a cloud of points in five skewed groups) or "combo"
 * (a day's volume as bars, a price walk as a line on a second axis, one band per day).
 */
const chart = params.get("chart") ?? "line";
/** Both @seed/charts variants (rows, typed-array columns) draw the same tooltip. */
const isSeed = library === "seed" || library === "seedcols";
const points = Number(params.get("points") ?? 1000);
const seriesCount = Number(params.get("series") ?? 3);
const WIDTH = 800;
const HEIGHT = 400;
const COLORS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9"];

/** Resolves with the time of the second animation frame after the last DOM change under `node`. */
function settled(node: HTMLElement, quietMs = 250): Promise<number> {
  return new Promise((resolve) => {
    let changes = 0;
    let stamp = performance.now();
    let lastChange = performance.now();
    const onChange = () => {
      const seen = ++changes;
      lastChange = performance.now();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (seen === changes) stamp = performance.now();
        }),
      );
    };
    const observer = new MutationObserver(onChange);
    observer.observe(node, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    onChange();
    const check = () => {
      if (performance.now() - lastChange > quietMs && stamp >= lastChange) {
        observer.disconnect();
        resolve(stamp);
      } else setTimeout(check, 50);
    };
    setTimeout(check, 50);
  });
}

/** What counts as "tooltip and crosshair painted" for each library. */
function hoverShown(root: HTMLElement): boolean {
  if (library === "uplot") {
    const tip = root.querySelector<HTMLElement>(".bench-uplot-tooltip");
    return Boolean(tip && tip.style.display !== "none" && tip.textContent);
  }
  const tip = root.querySelector(isSeed ? ".seed-chart-tooltip" : ".recharts-tooltip-wrapper");
  // a scatter point: @seed/charts rings it; Recharts shows its tooltip
  if (chart === "scatter") {
    return (
      Boolean(tip?.textContent) && (!isSeed || root.querySelector(".seed-scatter-active") !== null)
    );
  }
  // the crosshair: Recharts' cursor in the SVG, or @seed/charts' own layer over it
  const layer = root.querySelector<HTMLElement>(".seed-chart-hover-layer");
  const crosshair =
    root.querySelector(".recharts-tooltip-cursor") !== null ||
    layer?.style.visibility === "visible";
  return Boolean(tip?.textContent) && crosshair;
}

/** Fingerprint of the tooltip text, so a move to another point counts only once it shows that point. */
function hoverText(root: HTMLElement): string {
  const tip = root.querySelector(
    library === "uplot"
      ? ".bench-uplot-tooltip"
      : isSeed
        ? ".seed-chart-tooltip"
        : ".recharts-tooltip-wrapper",
  );
  return tip?.textContent ?? "";
}

/** After the next real mousemove: ms from its input timestamp until the frame showing the new tooltip painted. */
function armHover(root: HTMLElement): () => Promise<number | null> {
  return () =>
    new Promise((resolve) => {
      const before = hoverText(root);
      let inputAt: number | null = null;
      let done = false;
      const finish = (value: number | null) => {
        if (done) return;
        done = true;
        observer.disconnect();
        window.removeEventListener("mousemove", onMove, true);
        resolve(value);
      };
      // after a rAF callback, a posted message runs once that frame is painted
      const afterPaint = () =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () =>
            finish(inputAt === null ? null : performance.now() - inputAt);
          channel.port2.postMessage(null);
        });
      const check = () => {
        if (inputAt !== null && hoverShown(root) && hoverText(root) !== before) afterPaint();
      };
      const onMove = (event: MouseEvent) => {
        inputAt ??= event.timeStamp;
        queueMicrotask(check);
      };
      const observer = new MutationObserver(check);
      observer.observe(root, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      window.addEventListener("mousemove", onMove, true);
      setTimeout(() => finish(null), 5000);
    });
}

/** The scatter benchmark: the same cloud of points in each library, coloured by group. */
async function runScatter(element: HTMLElement): Promise<number> {
  const cloud = makeCloud(points, 20_240_101);
  if (library === "uplot") {
    const data = prepareUplotScatter(cloud);
    const started = performance.now();
    mountUplotScatter(uPlot, element, data, { width: WIDTH, height: HEIGHT, colors: COLORS });
    return started;
  }
  const rows = cloudRows(cloud);
  const root = createRoot(element);
  const started = performance.now();
  if (library === "recharts") {
    root.render(
      <RechartsScatterChart width={WIDTH} height={HEIGHT}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="x" type="number" />
        <YAxis dataKey="y" type="number" />
        <Tooltip isAnimationActive={false} />
        <Legend />
        {CLOUD_GROUPS.map((name, i) => (
          <Scatter
            key={name}
            name={name}
            data={rows.filter((row) => row.g === name)}
            fill={COLORS[i % COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </RechartsScatterChart>,
    );
  } else {
    root.render(
      <ScatterChart
        data={rows}
        x="x"
        y="y"
        color="g"
        width={WIDTH}
        height={HEIGHT}
        animate={false}
        title="Benchmark"
      />,
    );
  }
  return started;
}

/** The combo benchmark: volume bars on the left axis, a price line on the right, per day. */
async function runCombo(element: HTMLElement): Promise<number> {
  const walks = makeRandomWalks(points, 2, 20_240_101);
  const day = 86_400_000;
  const rows = Array.from(walks.t, (_, i) => ({
    day: Date.UTC(2020, 0, 1) + i * day,
    // a walk's day-to-day moves as a volume: skewed, never negative
    volume: Math.round(
      1_000 * Math.abs((walks.columns[0]?.[i] ?? 0) - (walks.columns[0]?.[i - 1] ?? 0)),
    ),
    price: walks.columns[1]?.[i] ?? 0,
  }));
  const root = createRoot(element);
  const started = performance.now();
  if (library === "recharts") {
    root.render(
      <ComposedChart width={WIDTH} height={HEIGHT} data={rows}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="day" />
        <YAxis yAxisId="left" />
        <YAxis yAxisId="right" orientation="right" />
        <Tooltip isAnimationActive={false} />
        <Legend />
        <Bar yAxisId="left" dataKey="volume" fill={COLORS[0]} isAnimationActive={false} />
        <Line
          yAxisId="right"
          dataKey="price"
          stroke={COLORS[1]}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>,
    );
  } else {
    root.render(
      <ComboChart
        data={rows}
        index="day"
        indexType="time"
        series={["volume", { key: "price", type: "line", axis: "right" }]}
        width={WIDTH}
        height={HEIGHT}
        animate={false}
        title="Benchmark"
      />,
    );
  }
  return started;
}

async function run() {
  if (chart === "scatter" || chart === "combo") {
    const element = document.getElementById("root") as HTMLElement;
    const commitsBefore = window.benchCommits;
    const started = await (chart === "scatter" ? runScatter : runCombo)(element);
    const done = await settled(element);
    window.benchHover = armHover(element);
    window.benchTooltipShown = () => hoverShown(element);
    window.benchResult = { paintMs: done - started, commits: window.benchCommits - commitsBefore };
    return;
  }
  const walks = makeRandomWalks(points, seriesCount, 20_240_101);
  // uPlot and "seedcols" (@seed/charts' typed-array input) read the columns; the rest read rows
  const rows = library === "uplot" || library === "seedcols" ? null : rowsOf(walks);
  const element = document.getElementById("root") as HTMLElement;
  const keys = walks.keys;
  const commitsBefore = window.benchCommits;
  let started: number;
  if (library === "uplot") {
    started = performance.now();
    mountUplot(uPlot, element, walks, { width: WIDTH, height: HEIGHT, colors: COLORS });
  } else if (library === "recharts") {
    const root = createRoot(element);
    started = performance.now();
    root.render(
      <RechartsLineChart width={WIDTH} height={HEIGHT} data={rows ?? []}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={["dataMin", "dataMax"]} />
        <YAxis />
        <Tooltip isAnimationActive={false} />
        <Legend />
        {keys.map((key, i) => (
          <Line key={key} dataKey={key} stroke={COLORS[i]} dot={false} isAnimationActive={false} />
        ))}
      </RechartsLineChart>,
    );
  } else {
    const root = createRoot(element);
    const data =
      library === "seedcols"
        ? Object.fromEntries(
            keys.map((key, i) => [key, { x: walks.t, y: walks.columns[i] as Float64Array }]),
          )
        : (rows ?? []);
    started = performance.now();
    root.render(
      <LineChart<WalkRow>
        data={data as never}
        index="t"
        series={keys}
        width={WIDTH}
        height={HEIGHT}
        animate={false}
        title="Benchmark"
      />,
    );
  }
  const done = await settled(element);
  window.benchHover = armHover(element);
  window.benchTooltipShown = () => hoverShown(element);
  window.benchResult = { paintMs: done - started, commits: window.benchCommits - commitsBefore };
}

run().catch((error: unknown) => {
  window.benchError = String(error);
});
