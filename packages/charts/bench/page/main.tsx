import { LineChart } from "@seed/charts";
import "@seed/charts/styles.css";
import { createRoot } from "react-dom/client";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart as RechartsLineChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

interface BenchRow {
  t: number;
  a: number;
  b: number;
  c: number;
}

interface BenchResult {
  paintMs: number;
  hoverUpdateMs: number | null;
}

declare global {
  interface Window {
    benchResult?: BenchResult;
    benchError?: string;
  }
}

const params = new URLSearchParams(location.search);
const library = params.get("lib") ?? "seed";
const points = Number(params.get("points") ?? 1000);
const seriesCount = Number(params.get("series") ?? 1);
const keys = (["a", "b", "c"] as const).slice(0, seriesCount);

function makeRows(count: number): BenchRow[] {
  const rows = new Array<BenchRow>(count);
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    rows[i] = {
      t: start + i * 60_000,
      a: Math.sin(i / 500) * 40 + Math.sin(i / 37) * 5,
      b: Math.cos(i / 800) * 30 + 20,
      c: Math.sin(i / 1500) * 20 - 10,
    };
  }
  return rows;
}

/** Resolves at the second animation frame after the DOM under `node` stops changing. */
function settled(node: HTMLElement): Promise<number> {
  return new Promise((resolve) => {
    let last = performance.now();
    const observer = new MutationObserver(() => {
      last = performance.now();
    });
    observer.observe(node, { subtree: true, childList: true, attributes: true });
    const check = () => {
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (performance.now() - last > 50) {
            observer.disconnect();
            resolve(performance.now());
          } else check();
        }),
      );
    };
    check();
  });
}

function measureHover(root: HTMLElement): Promise<number | null> {
  const wrapper = root.querySelector(".recharts-wrapper") as HTMLElement | null;
  if (!wrapper) return Promise.resolve(null);
  const box = wrapper.getBoundingClientRect();
  return new Promise((resolve) => {
    const started = performance.now();
    const observer = new MutationObserver(() => {
      const tooltip = root.querySelector(".recharts-tooltip-wrapper");
      if (tooltip?.textContent) {
        observer.disconnect();
        resolve(performance.now() - started);
      }
    });
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    wrapper.dispatchEvent(
      new MouseEvent("mousemove", {
        bubbles: true,
        clientX: box.left + box.width * 0.55,
        clientY: box.top + box.height / 2,
      }),
    );
    setTimeout(() => {
      observer.disconnect();
      resolve(null);
    }, 5000);
  });
}

async function run() {
  const rows = makeRows(points);
  const element = document.getElementById("root") as HTMLElement;
  const root = createRoot(element);
  const colors = ["#0072b2", "#e69f00", "#009e73"];
  const started = performance.now();
  if (library === "recharts") {
    root.render(
      <RechartsLineChart width={800} height={400} data={rows}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={["dataMin", "dataMax"]} />
        <YAxis />
        <Tooltip isAnimationActive={false} />
        <Legend />
        {keys.map((key, i) => (
          <Line key={key} dataKey={key} stroke={colors[i]} dot={false} isAnimationActive={false} />
        ))}
      </RechartsLineChart>,
    );
  } else {
    root.render(
      <LineChart
        data={rows}
        index="t"
        series={[...keys]}
        width={800}
        height={400}
        animate={false}
        title="Benchmark"
      />,
    );
  }
  const done = await settled(element);
  const hoverUpdateMs = await measureHover(element);
  window.benchResult = { paintMs: done - started, hoverUpdateMs };
}

run().catch((error: unknown) => {
  window.benchError = String(error);
});
