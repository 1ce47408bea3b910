import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** Every member the exported Store type has, read by the TypeScript checker from src/index.ts. */
function storeMembers(): string[] {
  const entry = path.join(root, "src/index.ts");
  const program = ts.createProgram([entry], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  const module = file && checker.getSymbolAtLocation(file);
  const exported = module && checker.getExportsOfModule(module).find((s) => s.name === "Store");
  if (!exported) throw new Error("src/index.ts exports no Store");
  const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(exported));
  return checker.getPropertiesOfType(type).map((property) => property.name);
}

/** The members the README's `interface Store { ... }` block names, one per line. */
function readmeMembers(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const block = /\ninterface Store \{\n([\s\S]*?)\n\}\n/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no interface Store block");
  return block
    .split("\n")
    .map((line) => /^ {2}(\w+)(?:<\w+>)?[(:]/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe("README API section", () => {
  // The TypeScript checker reads the whole package: seconds alone, more beside a busy CI.
  it("names every member of the exported Store type, and nothing else", {
    timeout: 180_000,
  }, () => {
    const documented = readmeMembers();
    const actual = storeMembers();
    expect(actual.length).toBeGreaterThan(50);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...actual].sort());
  });
});
