import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The store's layers import downward only (README, "Layers"): a rule a reader can trust only while a
// test holds it.
const src = path.resolve(import.meta.dirname, "../src");
const rank: Record<string, number> = {
  db: 0,
  engine: 1,
  access: 1,
  delivery: 1,
  repo: 2,
  render: 3,
  ops: 3,
};
/** Top-level modules: the shared context any layer may use; the composition no layer may. */
const shared = new Set(["context.ts"]);

function filesIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesIn(path.join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [path.join(folder, entry.name)]
        : [],
  );
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    path.resolve(path.dirname(file), match[1] as string),
  );
}

/** The layer a path is in ("db", "repo"...), or its file name for a top-level module. */
function layerOf(target: string): string {
  return path.relative(src, target).split(path.sep)[0]?.replace(/\.js$/, ".ts") ?? "";
}

describe("store layers", () => {
  it("has every source file in a known layer or a known top-level module", () => {
    const unknown = filesIn(src)
      .map(layerOf)
      .filter(
        (layer) =>
          !(layer in rank) &&
          !shared.has(layer) &&
          !["store.ts", "index.ts", "raw-handles.ts"].includes(layer),
      );
    expect(unknown).toEqual([]);
  });

  it("imports only from its own layer, a lower one, or the shared context", () => {
    const upward: string[] = [];
    for (const file of filesIn(src)) {
      const from = layerOf(file);
      const fromRank = rank[from];
      if (fromRank === undefined) continue;
      for (const target of relativeImports(file)) {
        const to = layerOf(target);
        if (to === from || shared.has(to)) continue;
        const toRank = rank[to];
        if (toRank === undefined || toRank > fromRank || (toRank === fromRank && to !== from)) {
          upward.push(`${path.relative(src, file)} -> ${path.relative(src, target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("never imports React", () => {
    const react = filesIn(src).filter((file) =>
      /from "react(?:-dom)?(?:\/[^"]*)?"/.test(readFileSync(file, "utf8")),
    );
    expect(react).toEqual([]);
  });
});
