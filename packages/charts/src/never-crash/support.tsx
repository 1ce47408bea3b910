// Over 500 lines on purpose: the arbitraries and oracles of every chart type in one place, so each
// per-chart test file (one forked process each) stays a few lines.
/**
 * Property tests of issue 11, "never crash on any data": no finite number, date in the valid
 * range (and just past it), string, series count, row count or container size makes a chart
 * throw, and every value the axes cannot draw is reported through onDataIssues. One test file
 * per chart type and option combination (each file is a fresh forked process, so the ~1 MB a
 * happy-dom render keeps is returned between them).
 *
 * `pnpm test` runs 200 cases per property from the fixed seed DEFAULT_SEED (the edge values above
 * are drawn often, so 200 reach them; more runs are `pnpm fuzz`'s job); a failure names its seed. FC_SEED sets another seed, FC_RUNS the runs per property (`pnpm fuzz`: 100,000 in all,
 * random seeds, see scripts/fuzz.mjs).
 */
import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import type { ReactElement } from "react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { AreaChart } from "../area-chart/area-chart";
import { BarChart } from "../bar-chart/bar-chart";
import { ComboChart } from "../combo-chart/combo-chart";
import type { ColumnData } from "../data/columns";
import type { DataIssue } from "../data/rows";
import { LineChart } from "../line-chart/line-chart";
import { PieChart } from "../pie-chart/pie-chart";
import { ScatterChart } from "../scatter-chart/scatter-chart";
import type { AxisOptions } from "../types";
import { BrushZoom } from "../zoom/brush-zoom";

/** Seed of `pnpm test`: the same cases on every run, so a red CI run repeats on any machine. */
const DEFAULT_SEED = 20_261_123;
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : DEFAULT_SEED;
const RUNS = Number(process.env.FC_RUNS) || 200;

/** Prints the seed once per test file, so a failing run can be repeated. */
export function logSeed(chart: string): void {
  console.log(
    `[@seed/charts never-crash] ${chart}: fast-check seed ${SEED}, ${RUNS} runs per property (FC_SEED=${SEED} repeats this run)`,
  );
}

type Row = Record<string, unknown>;

const MAX_TIME = 8.64e15;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** Values at and just past every edge the charts care about. */
const edgeNumber = fc.constantFrom(
  5e-324,
  -5e-324,
  SMALLEST_NORMAL,
  -SMALLEST_NORMAL,
  1e-300,
  9.9e-301,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1e300,
  -1e300,
  1.0000000000000002e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  0,
  1,
  1 + Number.EPSILON,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  MAX_TIME,
  -MAX_TIME,
  MAX_TIME + 1,
);
const subnormal = fc.double({ min: -SMALLEST_NORMAL, max: SMALLEST_NORMAL });
export const anyNumber = fc.oneof(
  { weight: 4, arbitrary: edgeNumber },
  { weight: 2, arbitrary: subnormal },
  { weight: 3, arbitrary: fc.double() },
  { weight: 3, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer() },
);
/** Empty, short, and long (up to 4,000 characters) strings. */
const text = fc.oneof(
  fc.constant(""),
  fc.string({ maxLength: 6 }),
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 50, max: 1000 }))
    .map(([s, n]) => s.repeat(n)),
);
const value = fc.oneof(
  { weight: 8, arbitrary: anyNumber },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, {}) },
);

/** Value sets that crashed or garbled a chart before issue 11. */
const knownBadPool = fc.constantFrom<unknown[]>(
  [0, 5e-324],
  [-5e-324, 0, 5e-324],
  [5e-324],
  [Number.MAX_VALUE, -Number.MAX_VALUE],
  [Number.MAX_VALUE, 1],
  [-Number.MAX_VALUE],
  [1, 1 + Number.EPSILON],
  [-9060450964641506],
);

const edgeTime = fc.constantFrom(-MAX_TIME, MAX_TIME, -MAX_TIME - 1, MAX_TIME + 1, MAX_TIME - 1, 0);
const validDate = fc.date({
  min: new Date(-MAX_TIME),
  max: new Date(MAX_TIME),
  noInvalidDate: true,
});
const timeIndex = fc.oneof(
  edgeTime.map((t) => new Date(t)), // past the range this is an invalid Date
  edgeTime,
  fc.date({ noInvalidDate: false }),
  validDate.map((d) => d.toISOString()), // ISO instants (years past 9999 are not ISO strings)
  validDate.map((d) => d.toISOString().slice(0, 10)), // yyyy-mm-dd, as queries deliver them
  fc
    .date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
);
const index = fc.oneof(
  { weight: 3, arbitrary: timeIndex },
  { weight: 3, arbitrary: anyNumber },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
);

interface Data {
  keys: string[];
  rows: unknown[];
}

/** ISO string of a timestamp, or a string no Date reads when it is out of range. */
function iso(t: number): string {
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? `not a date ${t}` : d.toISOString();
}

/**
 * Rows of one index style (random values, a number/date/ISO/yyyy-mm-dd sequence from an edge
 * start and step, or names), 0 to 12 rows or now and then 100 to `maxRows`, whose cells draw from a
 * pool of a few values, so that a data set is often all extreme (0 and 5e-324, or ±MAX_VALUE).
 */
export function data(maxSeries: number, maxRows: number, manySeries = 0): fc.Arbitrary<Data> {
  return fc
    .record({
      seriesCount: fc.oneof(
        { weight: 99, arbitrary: fc.integer({ min: 0, max: maxSeries }) },
        {
          weight: manySeries > maxSeries ? 1 : 0,
          arbitrary: fc.integer({ min: Math.min(100, manySeries), max: Math.max(100, manySeries) }),
        },
      ),
      count: fc.oneof(
        { weight: 14, arbitrary: fc.integer({ min: 0, max: 12 }) },
        { weight: 1, arbitrary: fc.integer({ min: 100, max: maxRows }) },
      ),
      pool: fc.oneof(
        { weight: 2, arbitrary: fc.array(value, { minLength: 1, maxLength: 4 }) },
        {
          weight: 2,
          arbitrary: fc.array(fc.oneof(edgeNumber, subnormal), { minLength: 1, maxLength: 3 }),
        },
        { weight: 1, arbitrary: knownBadPool },
      ),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
      wave: fc.boolean(),
      indexStyle: fc.constantFrom("random", "numbers", "dates", "iso", "days", "names"),
      start: fc.oneof(edgeTime, anyNumber, fc.constant(Date.UTC(2024, 0, 1))),
      step: fc.oneof(fc.constantFrom(86_400_000, 1, 3_600_000, 2 ** -52), anyNumber),
      randomIndex: fc.array(index, { minLength: 1, maxLength: 12 }),
      junk: fc.array(fc.tuple(fc.nat(), fc.constantFrom(null, 3, "row", [])), { maxLength: 2 }),
    })
    .map((d) => {
      const keys = Array.from({ length: d.seriesCount }, (_, s) => `k${s}`);
      // hundreds or thousands of series come with 0 to 2 rows, so a case stays within seconds
      const count = d.seriesCount > maxSeries ? d.count % 3 : d.count;
      const rows: unknown[] = Array.from({ length: count }, (_, i) => {
        const t = d.start + i * d.step;
        const x =
          d.indexStyle === "numbers"
            ? t
            : d.indexStyle === "dates"
              ? new Date(t)
              : d.indexStyle === "iso"
                ? iso(t)
                : d.indexStyle === "days"
                  ? iso(t).slice(0, 10)
                  : d.indexStyle === "names"
                    ? `${String(d.randomIndex[0])}${i}`
                    : d.randomIndex[i % d.randomIndex.length];
        const r: Row = { x };
        keys.forEach((key, s) => {
          const pick = d.picks[(i * keys.length + s) % d.picks.length] as number;
          const v = d.pool[pick % d.pool.length];
          // long series: a wave of the pool's value, so downsampling meets its extremes
          r[key] = d.wave && count > 12 && typeof v === "number" ? Math.sin(i / 7 + s) * v : v;
        });
        return r;
      });
      for (const [at, junk] of d.junk) if (rows.length > 0) rows[at % rows.length] = junk;
      return { keys, rows };
    });
}

/** Containers of 0x0 and 1x1 px, a measured container (initialWidth) and normal sizes. */
const size = fc.constantFrom(
  { width: 0, height: 0 },
  { width: 1, height: 1 },
  { width: 0, height: 300 },
  { width: 640, height: 0 },
  { width: undefined, initialWidth: 0, height: 1 },
  { width: undefined, initialWidth: 1, height: 0 },
  { width: 640, height: 300 },
  { width: 320, height: 180 },
);

const axisBound = fc.oneof(anyNumber, fc.constantFrom("auto" as const, undefined));
const axis: fc.Arbitrary<AxisOptions | undefined> = fc.option(
  fc.record({ min: axisBound, max: axisBound }).map((bounds) => {
    const options: AxisOptions = {};
    if (bounds.min !== undefined) options.min = bounds.min;
    if (bounds.max !== undefined) options.max = bounds.max;
    return options;
  }),
  { nil: undefined },
);

const common = fc.record({
  size,
  animate: fc.boolean(),
  locale: fc.constantFrom(undefined, "en-US", "de-DE", "ar-EG"),
  legend: fc.constantFrom(
    undefined,
    "top" as const,
    "bottom" as const,
    "left" as const,
    "right" as const,
    false as const,
  ),
  tooltip: fc.boolean(),
});
const cartesianCommon = fc.record({
  indexType: fc.constantFrom(undefined, "time" as const, "number" as const, "category" as const),
  timeZone: fc.constantFrom(
    undefined,
    "UTC",
    "Pacific/Kiritimati",
    "America/Adak",
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kolkata",
  ),
  yAxis: axis,
  xAxis: axis,
  grid: fc.constantFrom(
    "horizontal" as const,
    "vertical" as const,
    "both" as const,
    "none" as const,
  ),
});
const curve = fc.constantFrom(
  "linear" as const,
  "monotone" as const,
  "natural" as const,
  "step" as const,
  "stepBefore" as const,
  "stepAfter" as const,
);

function isUndrawable(v: unknown): boolean {
  if (typeof v !== "number" || !Number.isFinite(v)) return false;
  const magnitude = Math.abs(v);
  return magnitude > 1e300 || (magnitude !== 0 && magnitude < 1e-300);
}

/** Rows holding a finite value the axes cannot draw, under one of `keys`. */
function rowsWithUndrawableValues(rows: readonly unknown[], keys: readonly string[]): number[] {
  const found: number[] = [];
  rows.forEach((row, i) => {
    if (typeof row !== "object" || row === null) return;
    if (keys.some((key) => isUndrawable((row as Row)[key]))) found.push(i);
  });
  return found;
}

type ConsoleSpy = { mock: { calls: unknown[][] }; mockClear: () => void };
let consoleError: ConsoleSpy;
let consoleWarn: ConsoleSpy;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** fc.assert that names the seed and how to repeat the run when a property fails. */
export function assertProperty<Ts>(property: fc.IRawProperty<Ts>): void {
  try {
    fc.assert(property, { seed: SEED, numRuns: RUNS });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `fast-check seed ${SEED} failed (repeat with FC_SEED=${SEED} FC_RUNS=${RUNS}):\n${message}`,
    );
  }
}

/** Renders, asserts that nothing threw (or was caught by a chart's boundary) and every drop was reported. */
function checkRender(
  chart: (onDataIssues: (issues: readonly DataIssue[]) => void) => ReactElement,
  mustReport: number[],
) {
  const reported: DataIssue[] = [];
  consoleError.mockClear();
  consoleWarn.mockClear();
  // a loop, not push(...issues): hundreds of thousands of arguments overflow the stack
  const { container } = render(
    chart((issues) => {
      for (const issue of issues) reported.push(issue);
    }),
  );
  try {
    const caught = container.querySelector("[data-testid=seed-chart-error]");
    expect(caught?.textContent ?? null).toBeNull();
    expect(consoleError.mock.calls.map((call) => call.map(String).join(" ").slice(0, 300))).toEqual(
      [],
    );
    expect(container.querySelector("figure.seed-chart")).not.toBeNull();
    const reportedRows = new Set(reported.map((issue) => issue.row));
    // one assertion for all rows: an expect per row took seconds for 200,000 points
    const unreported = mustReport.filter((row) => !reportedRows.has(row));
    expect(unreported.slice(0, 10), "rows with undrawable values, not reported").toEqual([]);
    expect(reported.filter((issue) => issue.reason.length === 0)).toEqual([]);
    if (mustReport.length > 0) {
      // the development warning names the skipped data too
      const warnings = consoleWarn.mock.calls.map((call) => String(call[0]));
      expect(warnings.some((w) => w.includes("skipped or changed data it cannot draw"))).toBe(true);
    }
  } finally {
    // unmount and take the container out of the document (RTL's per-test cleanup, per case)
    cleanup();
  }
}

/** A case renders in 10 to 50 ms on a busy 2-core machine (long series more); keep slack. */
const timeout = Math.max(60_000, RUNS * 1_000);

type CartesianOption =
  | Record<string, never>
  | { stack: "none" | "stacked" | "percent"; horizontal?: boolean };

/** One property: the cartesian chart `name` with `option`, over any data, size and options. */
export function cartesianNeverThrows(
  name: "LineChart" | "AreaChart" | "BarChart" | "ComboChart",
  option: CartesianOption,
): void {
  it(`${name} ${JSON.stringify(option)}`, { timeout }, () => {
    assertProperty(
      fc.property(
        // thousands of bars take seconds each in happy-dom, and a bar's layout grows with the
        // square of the series count (Recharts): 500 rows and 300 series are plenty for bars
        data(
          12,
          name === "BarChart" || name === "ComboChart" ? 500 : 3000,
          name === "BarChart" || name === "ComboChart" ? 300 : 2000,
        ),
        common,
        cartesianCommon,
        fc.record({
          curve,
          connectNulls: fc.boolean(),
          downsample: fc.constantFrom(
            "minmax-lttb" as const,
            "lttb" as const,
            "min-max" as const,
            "none" as const,
          ),
          hidden: fc.boolean(),
          dots: fc.option(fc.boolean(), { nil: undefined }),
          zoom: fc.boolean(),
          gradient: fc.boolean(),
          radius: fc.constantFrom(0, 3, 40),
          valueLabels: fc.boolean(),
          // a combo's series: bars or lines (or the default), on either value axis
          comboKinds: fc.array(
            fc.record({
              type: fc.constantFrom(undefined, "bar" as const, "line" as const),
              axis: fc.constantFrom(undefined, "left" as const, "right" as const),
            }),
            { maxLength: 6 },
          ),
          y2Axis: axis,
        }),
        ({ keys, rows }, { size, ...shared }, cartesian, extra) => {
          const props = {
            data: rows as Row[],
            index: "x",
            series: keys,
            ...size,
            ...shared,
            ...cartesian,
            defaultHiddenSeries: extra.hidden ? keys.slice(0, 1) : [],
          };
          // what lines and areas both take
          const curveProps = {
            curve: extra.curve,
            connectNulls: extra.connectNulls,
            downsample: extra.downsample,
            zoom: extra.zoom ? BrushZoom : undefined,
          };
          checkRender(
            (onDataIssues) => {
              if (name === "LineChart") {
                return (
                  <LineChart
                    {...props}
                    {...curveProps}
                    onDataIssues={onDataIssues}
                    dots={extra.dots}
                  />
                );
              }
              if (name === "AreaChart") {
                return (
                  <AreaChart
                    {...props}
                    {...option}
                    {...curveProps}
                    onDataIssues={onDataIssues}
                    gradient={extra.gradient}
                  />
                );
              }
              if (name === "ComboChart") {
                return (
                  <ComboChart
                    {...props}
                    series={keys.map((key, i) => ({ key, ...extra.comboKinds[i] }))}
                    curve={extra.curve}
                    connectNulls={extra.connectNulls}
                    radius={extra.radius}
                    y2Axis={extra.y2Axis}
                    onDataIssues={onDataIssues}
                  />
                );
              }
              return (
                <BarChart
                  {...props}
                  {...option}
                  radius={extra.radius}
                  valueLabels={extra.valueLabels}
                  onDataIssues={onDataIssues}
                />
              );
            },
            rowsWithUndrawableValues(rows, keys),
          );
        },
      ),
    );
  });
}

interface ColumnsCase {
  keys: string[];
  data: Record<string, unknown>;
  /** Point positions holding a y value the axes cannot draw. */
  undrawable: number[];
}

const arrayKind = fc.constantFrom("float64", "float32", "plain");
function toArray(kind: string, values: number[]): ArrayLike<number> {
  if (kind === "float64") return Float64Array.from(values);
  if (kind === "float32") return Float32Array.from(values);
  return values;
}

/**
 * Line/area data as `{ key: { x, y } }`: typed or plain arrays, 0 to 12 points, now and then
 * 100 to 3,000, or 100,000 to 200,000 (one series), x shared or per series, a sequence from an
 * edge start by an edge step or random, x and y of equal or different lengths, y values from a pool of
 * extremes (subnormals, ±MAX_VALUE, NaN, ±Infinity), and now and then no arrays at all.
 */
function columnsData(maxSeries: number): fc.Arbitrary<ColumnsCase> {
  return fc
    .record({
      seriesCount: fc.integer({ min: 0, max: maxSeries }),
      count: fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: 0, max: 12 }) },
        { weight: 2, arbitrary: fc.integer({ min: 100, max: 3000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 200_000 }) },
      ),
      pool: fc.oneof(
        fc.array(anyNumber, { minLength: 1, maxLength: 4 }),
        fc.array(fc.oneof(edgeNumber, subnormal), { minLength: 1, maxLength: 3 }),
        knownBadPool.map((pool) => pool as number[]),
      ),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
      sharedX: fc.boolean(),
      randomX: fc.array(anyNumber, { minLength: 1, maxLength: 12 }),
      xStyle: fc.constantFrom("sequence", "random"),
      start: fc.oneof(edgeTime, anyNumber, fc.constant(Date.UTC(2024, 0, 1))),
      step: fc.oneof(fc.constantFrom(86_400_000, 1, -1, 2 ** -52), anyNumber),
      kinds: fc.array(arrayKind, { minLength: 2, maxLength: 2 }),
      yShortBy: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, fc.integer({ min: -3, max: 3 })),
      junk: fc.option(fc.constantFrom(null, 3, "series", [], { x: 1, y: 2 }), { nil: undefined }),
    })
    .map((d) => {
      // a huge case gets one series, so a run stays within memory and time
      const seriesCount = d.count > 3000 ? Math.min(1, d.seriesCount) : d.seriesCount;
      const keys = Array.from({ length: seriesCount }, (_, s) => `k${s}`);
      const xFor = (s: number) =>
        Array.from({ length: d.count }, (_, i) =>
          d.xStyle === "sequence"
            ? d.start + (i + (d.sharedX ? 0 : s)) * d.step
            : (d.randomX[(i + s) % d.randomX.length] as number),
        );
      const shared = toArray(d.kinds[0] as string, xFor(0));
      const data: Record<string, unknown> = {};
      keys.forEach((key, s) => {
        const xs = d.sharedX ? shared : toArray(d.kinds[0] as string, xFor(s));
        const yLength = Math.max(0, d.count + d.yShortBy);
        const ys = toArray(
          d.kinds[1] as string,
          Array.from({ length: yLength }, (_, i) => {
            const pick = d.picks[(i * keys.length + s) % d.picks.length] as number;
            return d.pool[pick % d.pool.length] as number;
          }),
        );
        data[key] = { x: xs, y: ys };
      });
      if (d.junk !== undefined && keys.length > 0) data[keys[0] as string] = d.junk;
      const undrawable = new Set<number>();
      for (const columns of Object.values(data)) {
        const { x, y } = (columns ?? {}) as { x?: unknown; y?: unknown };
        if (typeof x !== "object" || typeof y !== "object" || !x || !y) continue;
        const xs = x as ArrayLike<number>;
        const ys = y as ArrayLike<number>;
        for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
          if (isUndrawable(ys[i])) undrawable.add(i);
        }
      }
      return { keys, data, undrawable: [...undrawable] };
    });
}

/** One property: LineChart or AreaChart over typed-array (or plain) columns. */
export function columnsNeverThrow(
  name: "LineChart" | "AreaChart",
  stack: "none" | "stacked" | "percent" = "none",
): void {
  it(`${name} over x/y columns, stack ${stack}`, { timeout }, () => {
    assertProperty(
      fc.property(
        columnsData(8),
        common,
        fc.constantFrom(undefined, "time" as const, "number" as const),
        fc.constantFrom(
          "minmax-lttb" as const,
          "lttb" as const,
          "min-max" as const,
          "none" as const,
        ),
        fc.record({
          curve,
          zoom: fc.boolean(),
          timeZone: fc.constantFrom(undefined, "Europe/Berlin", "America/New_York"),
        }),
        ({ keys, data, undrawable }, { size, ...shared }, indexType, downsample, extra) => {
          const props = {
            data: data as ColumnData<Record<string, number>>,
            index: "x",
            series: keys,
            indexType,
            downsample,
            ...size,
            ...shared,
            curve: extra.curve,
            timeZone: extra.timeZone,
            zoom: extra.zoom ? BrushZoom : undefined,
          };
          checkRender(
            (onDataIssues) =>
              name === "LineChart" ? (
                <LineChart {...props} onDataIssues={onDataIssues} />
              ) : (
                <AreaChart {...props} stack={stack} onDataIssues={onDataIssues} />
              ),
            undrawable,
          );
        },
      ),
    );
  });
}

/** One property: a pie or donut over any data, size and options. */
export function pieNeverThrows(variant: "pie" | "donut"): void {
  it(`PieChart ${variant}`, { timeout }, () => {
    assertProperty(
      fc.property(
        data(1, 3000),
        common,
        fc.record({
          labels: fc.constantFrom(
            "percent" as const,
            "value" as const,
            "name" as const,
            false as const,
          ),
          otherThreshold: fc.oneof(
            fc.constantFrom(0, 0.03, 1),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          nameFromIndex: fc.boolean(),
          centerLabel: fc.constantFrom<"default" | "none" | "text" | "function">(
            "default",
            "none",
            "text",
            "function",
          ),
          centerCaption: fc.option(text, { nil: undefined }),
          colors: fc.option(
            fc.array(fc.constantFrom("#000000", "red", "", "var(--x)"), { maxLength: 3 }),
            {
              nil: undefined,
            },
          ),
        }),
        ({ rows }, { size, ...shared }, pie) => {
          // names: the generated index (dates, numbers, strings) or row positions
          const pieRows = rows.map((row, i) =>
            typeof row === "object" && row !== null
              ? { name: pie.nameFromIndex ? (row as Row).x : `slice ${i}`, v: (row as Row).k0 }
              : row,
          );
          checkRender(
            (onDataIssues) => (
              <PieChart
                data={pieRows as Row[]}
                index="name"
                value="v"
                variant={variant}
                labels={pie.labels}
                otherThreshold={pie.otherThreshold}
                centerLabel={
                  pie.centerLabel === "none"
                    ? false
                    : pie.centerLabel === "text"
                      ? "A centre label far longer than any hole is wide"
                      : pie.centerLabel === "function"
                        ? (total: number, formatted: string) => `${formatted} (${total})`
                        : undefined
                }
                centerCaption={pie.centerCaption}
                colors={pie.colors}
                {...size}
                {...shared}
                onDataIssues={onDataIssues}
              />
            ),
            rowsWithUndrawableValues(pieRows, ["v"]),
          );
        },
      ),
    );
  });
}

/** ScatterChart over any data: x of any kind, y, size and colour columns, thinned or not. */
export function scatterNeverThrows(): void {
  it("ScatterChart", { timeout }, () => {
    assertProperty(
      fc.property(
        data(3, 3000),
        common,
        fc.record({
          xType: fc.constantFrom(undefined, "time" as const, "number" as const),
          timeZone: fc.constantFrom(undefined, "UTC", "Pacific/Kiritimati", "America/Adak"),
          sized: fc.boolean(),
          colored: fc.constantFrom("none" as const, "values" as const, "names" as const),
          labelled: fc.boolean(),
          maxPoints: fc.oneof(
            fc.constant(undefined),
            fc.integer({ min: -5, max: 60 }),
            fc.constantFrom(0, Number.NaN, Number.POSITIVE_INFINITY),
          ),
          grid: fc.constantFrom(undefined, "none" as const, "both" as const, "vertical" as const),
          xAxis: axis,
          yAxis: axis,
        }),
        ({ rows, keys }, { size, ...shared }, scatter) => {
          // colour by a value column (numbers: many groups, "Other"), or by few repeated names
          const scatterRows = rows.map((row, i) =>
            typeof row === "object" && row !== null
              ? { ...(row as Row), name: `group ${i % 11}`, label: (row as Row).x }
              : row,
          );
          const y = keys[0] ?? "missing";
          checkRender(
            (onDataIssues) => (
              <ScatterChart
                data={scatterRows as Row[]}
                x="x"
                y={y}
                size={scatter.sized ? (keys[1] ?? "missing") : undefined}
                color={
                  scatter.colored === "values"
                    ? (keys[2] ?? "x")
                    : scatter.colored === "names"
                      ? "name"
                      : undefined
                }
                label={scatter.labelled ? "label" : undefined}
                xType={scatter.xType}
                timeZone={scatter.timeZone}
                maxPoints={scatter.maxPoints}
                grid={scatter.grid}
                xAxis={scatter.xAxis}
                yAxis={scatter.yAxis}
                {...size}
                {...shared}
                onDataIssues={onDataIssues}
              />
            ),
            rowsWithUndrawableValues(scatterRows, [
              y,
              ...(scatter.sized && keys[1] ? [keys[1]] : []),
              // an x the number axis cannot draw (a time x past the Date range is an issue too)
              ...(scatter.xType === "number" ? ["x"] : []),
            ]),
          );
        },
      ),
    );
  });
}
