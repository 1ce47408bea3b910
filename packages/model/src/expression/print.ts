import { functionSpec } from "./functions.js";
import type { Expression } from "./tree.js";

// Writes a tree back as text, with the fewest parentheses that keep its meaning and the canonical
// spelling of function names: parseExpression(print(tree)) gives the same tree.

const levels: Record<string, number> = {
  or: 1,
  and: 2,
  "=": 4,
  "!=": 4,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
};

function level(node: Expression): number {
  if (node.kind === "binary") return levels[node.op] as number;
  if (node.kind === "unary") return node.op === "not" ? 3 : 7;
  return 8;
}

function wrap(node: Expression, parens: boolean): string {
  const text = printExpression(node);
  return parens ? `(${text})` : text;
}

function quote(value: string): string {
  return `"${value.replace(/[\\"\n\t]/g, (char) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t" })[char] as string)}"`;
}

/** An expression's tree as text. */
export function printExpression(node: Expression): string {
  switch (node.kind) {
    case "number":
      return String(node.value);
    case "string":
      return quote(node.value);
    case "boolean":
      return node.value ? "true" : "false";
    case "null":
      return "null";
    case "column":
      return `[${node.name.replaceAll("]", "]]")}]`;
    case "unary":
      return node.op === "not"
        ? `not ${wrap(node.operand, level(node.operand) < 3)}`
        : `-${wrap(node.operand, level(node.operand) < 7)}`;
    case "binary": {
      const own = levels[node.op] as number;
      const left = wrap(node.left, own === 4 ? level(node.left) <= own : level(node.left) < own);
      return `${left} ${node.op} ${wrap(node.right, level(node.right) <= own)}`;
    }
    case "call":
      return `${functionSpec(node.name)?.name ?? node.name}(${node.args.map(printExpression).join(", ")})`;
  }
}
