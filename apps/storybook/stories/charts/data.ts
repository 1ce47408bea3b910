// Deterministic sample data for the chart stories (no Math.random, so screenshots and tests are stable).

export interface SalesRow {
  month: string;
  revenue: number;
  cost: number;
  profit: number;
}

export function monthlySales(): SalesRow[] {
  const revenue = [4200, 4800, 5100, 4700, 5600, 6100, 6400, 6000, 6900, 7300, 7100, 8200];
  const cost = [2600, 2900, 3000, 2800, 3100, 3300, 3500, 3400, 3600, 3900, 3800, 4100];
  return revenue.map((r, i) => ({
    month: `2024-${String(i + 1).padStart(2, "0")}-01`,
    revenue: r,
    cost: cost[i] ?? 0,
    profit: r - (cost[i] ?? 0),
  }));
}

export interface TrafficRow {
  day: string;
  web: number;
  ios: number;
  android: number;
}

export function dailyTraffic(days = 30): TrafficRow[] {
  return Array.from({ length: days }, (_, i) => ({
    day: new Date(Date.UTC(2024, 4, 1 + i)).toISOString().slice(0, 10),
    web: Math.round(900 + 300 * Math.sin(i / 4) + i * 12),
    ios: Math.round(600 + 200 * Math.cos(i / 5) + i * 8),
    android: Math.round(500 + 150 * Math.sin(i / 3 + 1) + i * 10),
  }));
}

export interface GappyRow {
  day: string;
  temperature: number | null;
}

export function gappyReadings(): GappyRow[] {
  return dailyTraffic(20).map((row, i) => ({
    day: row.day,
    temperature: i >= 7 && i <= 9 ? null : Math.round(18 + 6 * Math.sin(i / 3)),
  }));
}

export interface CensusRow {
  year: number;
  people: number;
}

/** US census counts, millions, every ten years from 1900: a number index that reads as years. */
export function censusPopulation(): CensusRow[] {
  const millions = [
    76.2, 92.2, 106.0, 123.2, 132.2, 151.3, 179.3, 203.2, 226.5, 248.7, 281.4, 308.7, 331.4,
  ];
  return millions.map((people, i) => ({ year: 1900 + i * 10, people }));
}

export interface RegionRow {
  region: string;
  online: number;
  retail: number;
  partners: number;
}

export function regionSales(): RegionRow[] {
  return [
    { region: "North", online: 420, retail: 310, partners: 120 },
    { region: "South", online: 380, retail: 450, partners: 90 },
    { region: "East", online: 510, retail: 220, partners: 160 },
    { region: "West", online: 290, retail: 380, partners: 140 },
    { region: "Central", online: 350, retail: 300, partners: 60 },
  ];
}

export interface ShareRow {
  browser: string;
  visits: number;
}

export function browserShare(): ShareRow[] {
  return [
    { browser: "Chrome", visits: 6420 },
    { browser: "Safari", visits: 2310 },
    { browser: "Edge", visits: 840 },
    { browser: "Firefox", visits: 520 },
    { browser: "Samsung Internet", visits: 150 },
    { browser: "Opera", visits: 90 },
    { browser: "Other browsers", visits: 40 },
  ];
}

export interface SensorRow {
  t: number;
  a: number;
  b: number;
  c: number;
}

/** A long series with spikes, for the downsampling stories. */
export function sensorSeries(points: number): SensorRow[] {
  const start = Date.UTC(2024, 0, 1);
  const rows = new Array<SensorRow>(points);
  for (let i = 0; i < points; i++) {
    rows[i] = {
      t: start + i * 60_000,
      a: Math.sin(i / 500) * 40 + Math.sin(i / 37) * 5 + (i % 9973 === 0 ? 60 : 0),
      b: Math.cos(i / 800) * 30 + 20,
      c: Math.sin(i / 1500) * 20 - 10,
    };
  }
  return rows;
}

/**
 * A seeded random walk as typed-array columns: one shared x (minutes from 2024-01-01), one y per
 * sensor, a spike at 70% and a NaN gap of 1,000 points at 40%. No row objects at all.
 */
export function sensorColumns(points: number): {
  cpu: { x: Float64Array; y: Float64Array };
  memory: { x: Float64Array; y: Float64Array };
} {
  const x = new Float64Array(points);
  const cpu = new Float64Array(points);
  const memory = new Float64Array(points);
  const start = Date.UTC(2024, 0, 1);
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  let a = 40;
  let b = 60;
  for (let i = 0; i < points; i++) {
    x[i] = start + i * 60_000;
    a += random();
    b += random() * 0.5;
    cpu[i] = a;
    memory[i] = b;
  }
  cpu[Math.floor(points * 0.7)] = a + 200;
  cpu.fill(Number.NaN, Math.floor(points * 0.4), Math.floor(points * 0.4) + 1000);
  return { cpu: { x, y: cpu }, memory: { x, y: memory } };
}

/** Rows with every kind of bad value the charts must survive. */
export function badRows(): Record<string, unknown>[] {
  return [
    { month: "2024-01-01", revenue: 4200, cost: 2600 },
    { month: "2024-02-01", revenue: Number.NaN, cost: 2900 },
    { month: "2024-03-01", revenue: Number.POSITIVE_INFINITY, cost: 3000 },
    { month: "2024-04-01", revenue: "4,700", cost: 2800 },
    { month: "2024-04-01", revenue: 9999, cost: 1 },
    { month: null, revenue: 5000, cost: 3000 },
    { month: "2024-06-01", revenue: 6100, cost: null },
    { month: "2024-07-01", revenue: 6400, cost: 3500 },
  ];
}

export interface CityRow {
  city: string;
  region: string;
  /** Median household income, USD. */
  income: number;
  /** Share of adults with a degree, 0 to 1. */
  degree: number;
  population: number;
}

/**
 * Sixty cities in four regions of very different sizes (skewed, as real categories are): income
 * rises with degree share, with noise; population spans three orders of magnitude.
 */
export function cityIncomes(): CityRow[] {
  let seed = 11;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const regions = ["Northeast", "Northeast", "Northeast", "South", "South", "Midwest", "West"];
  return Array.from({ length: 60 }, (_, i) => {
    const degree = 0.15 + random() * 0.45;
    return {
      city: `City ${String(i + 1).padStart(2, "0")}`,
      region: regions[Math.floor(random() * regions.length)] ?? "West",
      income: Math.round(28_000 + degree * 110_000 + (random() - 0.5) * 18_000),
      degree: Math.round(degree * 1000) / 1000,
      population: Math.round(10 ** (4 + random() * 3)),
    };
  });
}

export interface TripRow {
  distance: number;
  minutes: number;
  kind: string;
}

/** Many taxi trips (minutes against km, skewed kinds): enough to be thinned by density. */
export function taxiTrips(count: number): TripRow[] {
  let seed = 5;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const rows = new Array<TripRow>(count);
  for (let i = 0; i < count; i++) {
    const distance = -Math.log(1 - random()) * 4;
    const kind = random() < 0.85 ? "Street hail" : random() < 0.8 ? "App" : "Airport";
    rows[i] = {
      distance: Math.round(distance * 100) / 100,
      minutes: Math.round((4 + distance * 2.4 + random() * distance * 1.5) * 10) / 10,
      kind,
    };
  }
  return rows;
}
