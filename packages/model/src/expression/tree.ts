import type { DatasetColumnType } from "../vocabulary.js";

// The typed tree of a calculated field's expression: what the parser builds (positions, no types)
// and what the checker returns (every node with its column type). Positions are character offsets
// into the expression's text: `start` inclusive, `end` exclusive.

export const binaryOperators = [
  "+",
  "-",
  "*",
  "/",
  "=",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "and",
  "or",
] as const;
export type BinaryOperator = (typeof binaryOperators)[number];
export type UnaryOperator = "-" | "not";

/** A node's type: a column type, or "null" for an empty value whose type nothing decided. */
export type ExpressionType = DatasetColumnType | "null";

interface Span {
  start: number;
  end: number;
}

export type Expression = Span &
  (
    | { kind: "number"; value: number }
    | { kind: "string"; value: string }
    | { kind: "boolean"; value: boolean }
    | { kind: "null" }
    | { kind: "column"; name: string }
    | { kind: "unary"; op: UnaryOperator; operand: Expression }
    | { kind: "binary"; op: BinaryOperator; left: Expression; right: Expression }
    | { kind: "call"; name: string; args: Expression[] }
  );

/** A checked node: its type, and its children checked. Calls carry their canonical name. */
export type CheckedExpression = Span & { type: ExpressionType } & (
    | { kind: "number"; value: number }
    | { kind: "string"; value: string }
    | { kind: "boolean"; value: boolean }
    | { kind: "null" }
    | { kind: "column"; name: string }
    | { kind: "unary"; op: UnaryOperator; operand: CheckedExpression }
    | { kind: "binary"; op: BinaryOperator; left: CheckedExpression; right: CheckedExpression }
    | { kind: "call"; name: string; args: CheckedExpression[] }
  );

export type ExpressionErrorCode =
  | "too_long"
  | "too_deep"
  | "too_complex"
  | "syntax"
  | "unknown_column"
  | "unknown_function"
  | "arity"
  | "type"
  | "always_empty"
  | "aggregate";

/** "row": one value per row (a calculated field); "formula": aggregates combined (a measure). */
export type ExpressionMode = "row" | "formula";

/** One problem with an expression, at a place in its text, in a sentence. */
export interface ExpressionError extends Span {
  code: ExpressionErrorCode;
  message: string;
}

/** The columns an expression may name, with their types. */
export interface ExpressionColumn {
  name: string;
  type: DatasetColumnType;
}

export type ParsedExpression =
  | { ok: true; tree: CheckedExpression; type: DatasetColumnType }
  | { ok: false; errors: ExpressionError[] };

export const expressionLimits = {
  /** Characters in an expression. */
  maxLength: 2_000,
  /** Nesting of parentheses, calls and operators. */
  maxDepth: 64,
  /**
   * The size of the SQL an expression becomes, in nodes, counting an argument once for each time
   * an engine's SQL repeats it (dateDiff and endsWith repeat theirs).
   */
  maxCompiledSize: 20_000,
} as const;

/** Where a span is, for people: 1-based first to last character ("at 1–8"). */
export function positionText(span: Span): string {
  return `${span.start + 1}–${Math.max(span.start + 1, span.end)}`;
}

const typeWords: Record<ExpressionType, string> = {
  number: "a number",
  string: "text",
  boolean: "true/false",
  date: "a date",
  timestamp: "a timestamp",
  null: "an empty value",
};

/** A type in words: "a number", "text", "a date". */
export function typeWord(type: ExpressionType): string {
  return typeWords[type];
}
