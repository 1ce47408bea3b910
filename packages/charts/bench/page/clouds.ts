/**
 * Scatter benchmark data that looks like measurements: x and y bell-shaped (sums of uniforms),
 * a few outliers far out on x, in five groups of very different sizes (Zipf). The cloud's middle
 * is dense, so the pointer of the hover measurement always has a point within reach.
 */
export interface Cloud {
  x: Float64Array;
  y: Float64Array;
  group: string[];
}

export const CLOUD_GROUPS = ["commuter", "leisure", "business", "airport", "night"];

export function makeCloud(points: number, seed: number): Cloud {
  let state = seed % 2147483647 || 1;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  // Zipf weights 1, 1/2, 1/3…: the first group holds about 44% of the points, the last 9%
  const weights = CLOUD_GROUPS.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const x = new Float64Array(points);
  const y = new Float64Array(points);
  const group = new Array<string>(points);
  for (let i = 0; i < points; i++) {
    const bell = random() + random() + random() - 1.5;
    x[i] = 50 + bell * 30 + (random() < 0.001 ? random() * 40 : 0);
    y[i] = 40 + (random() + random() + random() - 1.5) * 24;
    let pick = random() * total;
    let g = 0;
    while (g < weights.length - 1 && pick > (weights[g] as number)) pick -= weights[g++] as number;
    group[i] = CLOUD_GROUPS[g] as string;
  }
  return { x, y, group };
}

export type CloudRow = { x: number; y: number; g: string };

export function cloudRows(cloud: Cloud): CloudRow[] {
  const rows = new Array<CloudRow>(cloud.x.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = { x: cloud.x[i] as number, y: cloud.y[i] as number, g: cloud.group[i] as string };
  }
  return rows;
}
