import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validate } from "../src/commands.js";

// `seed validate` needs no server: each problem as file:line: path: message, exit 1 on any.

function collect() {
  const lines: { out: string[]; err: string[] } = { out: [], err: [] };
  return {
    lines,
    output: {
      out: (line: string) => lines.out.push(line),
      err: (line: string) => lines.err.push(line),
    },
  };
}

describe("seed validate", () => {
  it("passes good files and names each problem of a bad one by file, line and path", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "seed-cli-"));
    const good = path.join(dir, "good.yaml");
    const bad = path.join(dir, "bad.yaml");
    writeFileSync(good, "format: seed.dashboard/v1\nslug: good\ntitle: Good\n");
    writeFileSync(
      bad,
      "format: seed.dashboard/v1\nslug: Bad Slug\ntitle: Bad\ntiles:\n  - { key: a, kind: gauge }\n",
    );
    const { lines, output } = collect();
    expect(await validate([good, bad], output)).toBe(1);
    expect(lines.out).toEqual([`${good}: ok (good)`]);
    expect(lines.err).toEqual([
      `${bad}:2: slug: Use lowercase letters, digits and single hyphens, e.g. store-performance.`,
      `${bad}:5: tiles.0.kind: A tile's kind must be "chart", "stat" or "text".`,
    ]);
    const again = collect();
    expect(await validate([good], again.output)).toBe(0);
  });
});
