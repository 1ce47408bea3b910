import { type Token, tokenize } from "./tokens.js";
import {
  type BinaryOperator,
  type Expression,
  type ExpressionError,
  expressionLimits,
  positionText,
} from "./tree.js";

// A precedence-climbing (Pratt) parser over the tokens. Loosest to tightest: or, and, not,
// comparisons (one per level: `a < b < c` is refused), + and -, * and /, unary minus, then
// literals, columns, calls and parentheses. Operators of one level group to the left. Nesting
// (parentheses, calls, prefix operators) is bounded, so no input recurses deeper than
// expressionLimits.maxDepth; chains of one level are read by a loop.

class ParseFailure {
  constructor(readonly error: ExpressionError) {}
}

const comparisons = new Set(["=", "!=", "<", "<=", ">", ">="]);
const keywords = new Set(["and", "or", "not", "true", "false", "null"]);

function binaryLevel(token: Token): { op: BinaryOperator; level: number } | null {
  if (token.kind === "word") {
    const word = token.text.toLowerCase();
    if (word === "or") return { op: "or", level: 1 };
    if (word === "and") return { op: "and", level: 2 };
    return null;
  }
  if (token.kind !== "operator") return null;
  if (comparisons.has(token.text)) return { op: token.text as BinaryOperator, level: 4 };
  if (token.text === "+" || token.text === "-") return { op: token.text, level: 5 };
  if (token.text === "*" || token.text === "/") return { op: token.text, level: 6 };
  return null;
}

/** A token's end, at least one character on (the end of the text has none). */
function spanEnd(token: Token): number {
  return token.kind === "end" ? token.end : Math.max(token.end, token.start + 1);
}

function describe(token: Token): string {
  switch (token.kind) {
    case "end":
      return "the end";
    case "column":
      return "a column";
    case "string":
      return "a text";
    default:
      return `"${token.text}"`;
  }
}

class Parser {
  private at = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.at += 1;
    return token;
  }

  private fail(token: Token, message: string): never {
    const span = { start: token.start, end: spanEnd(token) };
    throw new ParseFailure({
      code: "syntax",
      ...span,
      message: `${message} at ${positionText(span)}.`,
    });
  }

  private enter(token: Token) {
    this.depth += 1;
    if (this.depth > expressionLimits.maxDepth) {
      throw new ParseFailure({
        code: "too_deep",
        start: token.start,
        end: spanEnd(token),
        message: `The expression nests more than ${expressionLimits.maxDepth} levels deep at ${positionText(token)}.`,
      });
    }
  }

  whole(): Expression {
    const tree = this.expression(1);
    const token = this.peek();
    if (token.kind !== "end") {
      this.fail(token, `Expected an operator or the end, got ${describe(token)}`);
    }
    return tree;
  }

  private expression(minimum: number): Expression {
    let left = this.prefix(minimum);
    for (;;) {
      const token = this.peek();
      const binary = binaryLevel(token);
      if (!binary || binary.level < minimum) return left;
      this.next();
      const right = this.expression(binary.level + 1);
      if (binary.level === 4 && binaryLevel(this.peek())?.level === 4) {
        this.fail(this.peek(), "Comparisons do not chain (write a < b and b < c)");
      }
      left = { kind: "binary", op: binary.op, left, right, start: left.start, end: right.end };
    }
  }

  private prefix(minimum: number): Expression {
    const token = this.peek();
    const word = token.kind === "word" ? token.text.toLowerCase() : "";
    if (word === "not" && minimum <= 3) {
      this.next();
      this.enter(token);
      const operand = this.expression(3);
      this.depth -= 1;
      return { kind: "unary", op: "not", operand, start: token.start, end: operand.end };
    }
    if (token.kind === "operator" && token.text === "-") {
      this.next();
      this.enter(token);
      const operand = this.expression(7);
      this.depth -= 1;
      return { kind: "unary", op: "-", operand, start: token.start, end: operand.end };
    }
    return this.primary();
  }

  private primary(): Expression {
    const token = this.next();
    const span = { start: token.start, end: token.end };
    switch (token.kind) {
      case "number": {
        const value = Number(token.text);
        if (!Number.isFinite(value)) this.fail(token, "A number too large");
        return { kind: "number", value, ...span };
      }
      case "string":
        return { kind: "string", value: token.text, ...span };
      case "column":
        return { kind: "column", name: token.text, ...span };
      case "(": {
        this.enter(token);
        const inner = this.expression(1);
        const close = this.next();
        if (close.kind !== ")") this.fail(close, `Expected ")", got ${describe(close)}`);
        this.depth -= 1;
        return { ...inner, start: token.start, end: close.end };
      }
      case "word":
        return this.word(token);
      default:
        return this.fail(token, `Expected a value, got ${describe(token)}`);
    }
  }

  private word(token: Token): Expression {
    const span = { start: token.start, end: token.end };
    const word = token.text.toLowerCase();
    if (word === "true" || word === "false")
      return { kind: "boolean", value: word === "true", ...span };
    if (word === "null") return { kind: "null", ...span };
    if (keywords.has(word)) this.fail(token, `Expected a value, got "${token.text}"`);
    if (this.peek().kind !== "(") {
      this.fail(
        token,
        `"${token.text}" is not a function call; write column names in brackets: [${token.text}]`,
      );
    }
    this.next();
    this.enter(token);
    const args: Expression[] = [];
    if (this.peek().kind !== ")") {
      for (;;) {
        args.push(this.expression(1));
        const separator = this.peek();
        if (separator.kind === ",") {
          this.next();
          continue;
        }
        if (separator.kind === ")") break;
        this.fail(separator, `Expected "," or ")", got ${describe(separator)}`);
      }
    }
    const close = this.next();
    this.depth -= 1;
    return { kind: "call", name: token.text, args, start: token.start, end: close.end };
  }
}

/** The untyped tree of an expression's text, or its first syntax error. */
export function parseSyntax(text: string): { tree: Expression } | { error: ExpressionError } {
  if (text.length > expressionLimits.maxLength) {
    return {
      error: {
        code: "too_long",
        start: expressionLimits.maxLength,
        end: text.length,
        message: `The expression is longer than ${expressionLimits.maxLength.toLocaleString("en-US")} characters.`,
      },
    };
  }
  const tokens = tokenize(text);
  if ("error" in tokens) return tokens;
  if (tokens.tokens.length === 1) {
    return { error: { code: "syntax", start: 0, end: 0, message: "The expression is empty." } };
  }
  try {
    return { tree: new Parser(tokens.tokens).whole() };
  } catch (error) {
    if (error instanceof ParseFailure) return { error: error.error };
    throw error;
  }
}
