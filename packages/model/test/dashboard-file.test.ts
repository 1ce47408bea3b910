import { describe, expect, it } from "vitest";
import { lineOf, printDashboardFile, readDashboardFile } from "../src/dashboard/file-text.js";
import { assignTileKeys, dashboardFileLimits } from "../src/index.js";

const file = `format: seed.dashboard/v1
slug: sales
title: Sales
tiles:
  - key: revenue
    kind: chart
    chart:
      title: Revenue
      type: donut
      dataset: store_sales
      query:
        x: { column: month, grain: month }
        measures: [{ column: revenue, aggregate: sum }]
  - key: note
    kind: text
    markdown: "## Notes"
layout:
  revenue: { x: 0, y: 0, w: 6, h: 4 }
  gone: { x: 6, y: 0, w: 6, h: 4 }
`;

describe("dashboard files", () => {
  it("names each problem by its path and line", () => {
    const reading = readDashboardFile(file);
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.problems).toEqual([
      {
        path: "tiles.0.chart.type",
        line: 9,
        message: "Chart type must be line, area, bar, pie, table, scatter, combo or calendar.",
      },
    ]);
    // Checks across the file run once its parts are right.
    const layout = readDashboardFile(file.replace("donut", "pie"));
    expect(layout.ok ? [] : layout.problems).toEqual([
      { path: "layout.gone", line: 19, message: 'No tile has the key "gone".' },
    ]);
    expect(lineOf(file, ["tiles", "1", "markdown"])).toBe(16);
    expect(lineOf(file, ["tiles", "7"])).toBe(4);
  });

  it("reads what it prints, byte for byte, with the schema named for editors", () => {
    const reading = readDashboardFile(file.replace("donut", "pie").replace(/ {2}gone.*\n/, ""));
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const text = printDashboardFile(reading.file, "https://charts.example.com/schema.json");
    expect(text.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=https://charts.example.com/schema.json",
    );
    expect(text).toContain("  revenue: { x: 0, y: 0, w: 6, h: 4 }\n");
    // Places follow the tiles' order, whatever their keys look like.
    const numbered = readDashboardFile(
      text.replaceAll("revenue", '"10"').replace("key: note", 'key: "2"'),
    );
    expect(numbered.ok && printDashboardFile(numbered.file)).toMatch(
      /\nlayout:\n {2}"?10"?: \{ x: 0, y: 0, w: 6, h: 4 \}\n$/,
    );
    const again = readDashboardFile(text);
    expect(again.ok && printDashboardFile(again.file)).toBe(printDashboardFile(reading.file));
  });

  it("refuses broken YAML, repeated keys, alias bombs and oversized files with a reason", () => {
    const problem = (text: string) => {
      const reading = readDashboardFile(text);
      return reading.ok ? null : reading.problems[0];
    };
    expect(problem("format: [\n")).toMatchObject({ path: "", line: 2 });
    expect(problem("slug: a\nslug: b\n")?.message).toMatch(/keys must be unique/);
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    expect(problem(bomb)?.message).toBe(
      `The file cannot be read: it uses aliases (*) more than ${dashboardFileLimits.maxAliases} times.`,
    );
    expect(problem(`title: "${"x".repeat(dashboardFileLimits.maxBytes)}"`)?.message).toBe(
      "A dashboard file is at most 1,000,000 bytes.",
    );
    expect(problem("- just\n- a list\n")?.message).toBeDefined();
    expect(problem(file.replace("donut", "pie").replace("key: note", "key: 2024"))).toEqual({
      path: "tiles.1.key",
      line: 14,
      message: 'Enter a tile key as text (quote one made of digits: "2024").',
    });
  });

  it("gives tiles without a key one from their name, unique, keeping given keys", () => {
    expect(
      assignTileKeys([
        { key: null, name: "Revenue" },
        { key: "revenue", name: "Other" },
        { key: null, name: "Revenue" },
        { key: null, name: "¡¡¡" },
      ]),
    ).toEqual(["revenue-2", "revenue", "revenue-3", "tile"]);
  });
});
