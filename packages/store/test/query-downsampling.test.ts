import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { engines, openSuiteStore, textStream } from "./helpers.js";

for (const dialect of engines) {
  describe(`raw series downsampling on ${dialect}`, () => {
    it("keeps a one-row spike among 50,000 random-walk rows and stays within the point budget", async () => {
      const { store, close } = await openSuiteStore(dialect, { seedDemo: false });
      try {
        let seed = 7;
        const random = () => {
          seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
          return seed / 2_147_483_648;
        };
        const lines = ["at,value"];
        let value = 100;
        const start = Date.UTC(2020, 0, 1);
        const spikeAt = 31_337;
        for (let index = 0; index < 50_000; index++) {
          value += random() - 0.5;
          const at = new Date(start + index * 60_000).toISOString();
          lines.push(`${at},${index === spikeAt ? 1e6 : value.toFixed(3)}`);
        }
        const imported = await store.importNewDataset(
          {
            name: "Walk",
            source: textStream(`${lines.join("\n")}\n`),
          },
          editor,
        );
        const result = await store.runChartQuery(
          imported.datasetId,
          { x: { column: "at" }, measures: [{ column: "value", aggregate: "none" }] },
          { maxPoints: 400 },
        );
        expect(result.rows.length).toBeLessThanOrEqual(400);
        expect(result.rows.length).toBeGreaterThan(300);
        expect(result.rows.some((row) => row.m0 === 1e6)).toBe(true);
        expect(result.notes.join(" ")).toMatch(/Downsampled 50,000 rows/);
        // x stays in order and inside the data's range.
        const xs = result.rows.map((row) => Date.parse(String(row.x)));
        expect(xs).toEqual([...xs].sort((a, b) => a - b));
        expect(xs[0]).toBe(start);
        expect(xs.at(-1)).toBe(start + 49_999 * 60_000);
      } finally {
        await close();
      }
    });
  });
}
