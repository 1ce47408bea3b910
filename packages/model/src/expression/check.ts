import {
  aggregateFunctionNames,
  aggregateFunctionSpec,
  type FunctionSpec,
  functionNames,
  functionSpec,
} from "./functions.js";
import { parseSyntax } from "./parser.js";
import {
  type CheckedExpression,
  type Expression,
  type ExpressionColumn,
  type ExpressionError,
  type ExpressionMode,
  type ExpressionType,
  expressionLimits,
  type ParsedExpression,
  positionText,
  typeWord,
} from "./tree.js";

// The type checker: every node of the parsed tree gets a column type, or an error at its place.
// It reports every independent problem it finds (a node whose child is wrong is not judged again,
// so one mistake gives one message). Empty values (`null`) take the type their place asks for.

/** Edit distance, for "did you mean" (short names only: bounded work). */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return 99;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[j] as number) + 1,
          (current[j - 1] as number) + 1,
          (previous[j - 1] as number) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The nearest of some names to a misspelt one, if near enough. */
export function nearestName(name: string, names: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const exact = names.find((candidate) => candidate.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of names.slice(0, 1000)) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** An empty value's node, and the empty branches of a conditional, take the type they are used as. */
function retype(node: CheckedExpression, type: ExpressionType): CheckedExpression {
  if (node.type !== "null" || type === "null") return node;
  if (node.kind === "call") {
    const name = node.name;
    const args = node.args.map((arg, index) => {
      const isCondition =
        (name === "if" && index === 0) ||
        (name === "case" && index % 2 === 0 && index < node.args.length - 1);
      return isCondition ? arg : retype(arg, type);
    });
    return { ...node, args, type };
  }
  return { ...node, type };
}

class Checker {
  readonly errors: ExpressionError[] = [];
  private readonly columns: Map<string, ExpressionColumn>;

  /** In a formula: whether the node being checked is inside an aggregate's argument. */
  private insideAggregate = false;
  /** In a formula: whether an aggregate was met. */
  aggregated = false;

  constructor(
    private readonly columnList: readonly ExpressionColumn[],
    /** "row": a value per row (calculated fields); "formula": of aggregates (measures). */
    private readonly mode: ExpressionMode = "row",
  ) {
    this.columns = new Map(columnList.map((column) => [column.name, column]));
  }

  private error(
    node: { start: number; end: number },
    code: ExpressionError["code"],
    message: string,
  ) {
    this.errors.push({ code, start: node.start, end: node.end, message });
    return null;
  }

  check(node: Expression): CheckedExpression | null {
    switch (node.kind) {
      case "number":
        return { ...node, type: "number" };
      case "string":
        return { ...node, type: "string" };
      case "boolean":
        return { ...node, type: "boolean" };
      case "null":
        return { ...node, type: "null" };
      case "column": {
        const column = this.columns.get(node.name);
        if (column && this.mode === "formula" && !this.insideAggregate) {
          return this.error(
            node,
            "aggregate",
            `A formula combines rows: put [${node.name}] inside an aggregate, such as sum([${node.name}]), at ${positionText(node)}.`,
          );
        }
        if (column) return { ...node, type: column.type };
        const near = nearestName(
          node.name,
          this.columnList.map((c) => c.name),
        );
        const hint = near ? `; did you mean "${near}"?` : ".";
        return this.error(
          node,
          "unknown_column",
          `Unknown column "${node.name}" at ${positionText(node)}${hint}`,
        );
      }
      case "unary": {
        const operand = this.check(node.operand);
        if (!operand) return null;
        const wanted = node.op === "-" ? "number" : "boolean";
        if (operand.type !== "null" && operand.type !== wanted) {
          const what = node.op === "-" ? "A minus sign" : '"not"';
          return this.error(
            operand,
            "type",
            `${what} takes ${typeWord(wanted)}, got ${typeWord(operand.type)} at ${positionText(operand)}.`,
          );
        }
        return { ...node, operand: retype(operand, wanted), type: wanted };
      }
      case "binary":
        return this.binary(node);
      case "call":
        return this.call(node);
    }
  }

  private binary(node: Expression & { kind: "binary" }): CheckedExpression | null {
    const left = this.check(node.left);
    const right = this.check(node.right);
    if (!left || !right) return null;
    const op = node.op;
    const result = (
      type: ExpressionType,
      l: CheckedExpression,
      r: CheckedExpression,
    ): CheckedExpression => ({
      ...node,
      left: l,
      right: r,
      type,
    });
    if (op === "and" || op === "or" || op === "+" || op === "-" || op === "*" || op === "/") {
      const wanted = op === "and" || op === "or" ? "boolean" : "number";
      for (const side of [left, right]) {
        if (side.type !== "null" && side.type !== wanted) {
          const hint = op === "+" && side.type === "string" ? ' (join texts with "concat")' : "";
          return this.error(
            side,
            "type",
            `"${op}" takes ${typeWord(wanted)}, got ${typeWord(side.type)} at ${positionText(side)}${hint}.`,
          );
        }
      }
      return result(wanted, retype(left, wanted), retype(right, wanted));
    }
    // Comparisons: two values of one type; order only for numbers, text, dates and timestamps.
    const type = left.type === "null" ? right.type : left.type;
    if (right.type !== "null" && right.type !== type) {
      return this.error(
        node,
        "type",
        `"${op}" compares values of one type, got ${typeWord(left.type)} and ${typeWord(right.type)} at ${positionText(node)}.`,
      );
    }
    if (type === "boolean" && op !== "=" && op !== "!=") {
      return this.error(
        node,
        "type",
        `"${op}" does not order true/false values at ${positionText(node)}.`,
      );
    }
    return result("boolean", retype(left, type), retype(right, type));
  }

  private call(node: Expression & { kind: "call" }): CheckedExpression | null {
    const nameSpan = { start: node.start, end: node.start + node.name.length };
    const aggregate = aggregateFunctionSpec(node.name);
    if (aggregate && functionSpec(node.name) === undefined) {
      if (this.mode === "row") {
        return this.error(
          nameSpan,
          "aggregate",
          `"${aggregate.name}" combines rows: a calculated field is one value per row; use it in a chart measure's formula, at ${positionText(nameSpan)}.`,
        );
      }
      if (this.insideAggregate) {
        return this.error(
          nameSpan,
          "aggregate",
          `An aggregate cannot hold another ("${aggregate.name}" at ${positionText(nameSpan)}).`,
        );
      }
      this.insideAggregate = true;
      this.aggregated = true;
      try {
        return this.checkedCall(node, aggregate, nameSpan);
      } finally {
        this.insideAggregate = false;
      }
    }
    return this.checkedCall(node, functionSpec(node.name), nameSpan);
  }

  private checkedCall(
    node: Expression & { kind: "call" },
    spec: FunctionSpec | undefined,
    nameSpan: { start: number; end: number },
  ): CheckedExpression | null {
    // An unknown function's arguments are not judged: what they should be is not known.
    const args = spec ? node.args.map((arg) => this.check(arg)) : [];
    if (!spec) {
      const names =
        this.mode === "formula" ? [...functionNames, ...aggregateFunctionNames] : functionNames;
      const near = nearestName(node.name, names);
      const hint = near ? `; did you mean "${near}"?` : ".";
      return this.error(
        nameSpan,
        "unknown_function",
        `Unknown function "${node.name}" at ${positionText(nameSpan)}${hint}`,
      );
    }
    if (node.args.length < spec.minArgs || node.args.length > spec.maxArgs) {
      return this.error(
        node,
        "arity",
        `"${spec.name}" is written ${spec.usage}, got ${node.args.length} argument${node.args.length === 1 ? "" : "s"} at ${positionText(node)}.`,
      );
    }
    if (args.some((arg) => arg === null)) return null;
    const checked = args as CheckedExpression[];
    const type = spec.check(checked);
    if (typeof type !== "string") {
      const at = checked[type.index] ?? node;
      return this.error(at, "type", `${type.message} at ${positionText(at)}.`);
    }
    const call: CheckedExpression = { ...node, name: spec.name, args: checked, type: "null" };
    return retype(call, type);
  }
}

/**
 * How big the SQL of a checked tree is, counting repeated arguments as often as they repeat; a
 * column counts `columnSize(name)` (a calculated field's own size where it is compiled in place).
 */
export function compiledSize(
  node: CheckedExpression,
  columnSize: (name: string) => number = () => 1,
): number {
  switch (node.kind) {
    case "unary":
      return 1 + compiledSize(node.operand, columnSize);
    case "binary":
      return 1 + compiledSize(node.left, columnSize) + compiledSize(node.right, columnSize);
    case "call": {
      const repeats = functionSpec(node.name)?.repeats ?? 1;
      return node.args.reduce((total, arg) => total + repeats * compiledSize(arg, columnSize), 1);
    }
    case "column":
      return columnSize(node.name);
    default:
      return 1;
  }
}

/**
 * Parses and checks an expression over a dataset's columns: a calculated field's ("row": a value
 * per row) or a measure's formula ("formula": numbers of aggregates, every column inside one).
 * The typed tree and its type, or every problem with its place and a sentence.
 */
export function parseExpression(
  text: string,
  columns: readonly ExpressionColumn[],
  mode: ExpressionMode = "row",
): ParsedExpression {
  const parsed = parseSyntax(text);
  if ("error" in parsed) return { ok: false, errors: [parsed.error] };
  const checker = new Checker(columns, mode);
  const tree = checker.check(parsed.tree);
  if (!tree || checker.errors.length > 0) return { ok: false, errors: checker.errors };
  if (mode === "formula" && (!checker.aggregated || tree.type !== "number")) {
    const message = checker.aggregated
      ? `A formula gives a number, got ${typeWord(tree.type)}.`
      : "A formula combines rows: use an aggregate, such as sum([revenue]) / sum([orders]).";
    return {
      ok: false,
      errors: [{ code: "aggregate", start: tree.start, end: tree.end, message }],
    };
  }
  if (tree.type === "null") {
    return {
      ok: false,
      errors: [
        {
          code: "always_empty",
          start: tree.start,
          end: tree.end,
          message: "The expression is always empty.",
        },
      ],
    };
  }
  if (compiledSize(tree) > expressionLimits.maxCompiledSize) {
    return {
      ok: false,
      errors: [
        {
          code: "too_complex",
          start: 0,
          end: text.length,
          message: "The expression is too complex to run (it repeats too many of its parts).",
        },
      ],
    };
  }
  return { ok: true, tree, type: tree.type };
}
