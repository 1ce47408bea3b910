import type { ExpressionError } from "./tree.js";
import { positionText } from "./tree.js";

// The tokenizer: the expression's text as a list of tokens with their positions, or the first
// character it cannot read. Column names are in brackets ([Unit price]; "]]" is a "]" in a name),
// text in double or single quotes (a backslash escapes a quote, a backslash, n or t).

export type TokenKind =
  | "number"
  | "string"
  | "column"
  | "word"
  | "operator"
  | "("
  | ")"
  | ","
  | "end";

export interface Token {
  kind: TokenKind;
  /** The number's, text's, column's or word's value; the operator itself. */
  text: string;
  start: number;
  end: number;
}

const operators = ["<=", ">=", "!=", "<>", "=", "<", ">", "+", "-", "*", "/"];
const escapes: Record<string, string> = { '"': '"', "'": "'", "\\": "\\", n: "\n", t: "\t" };

function syntax(start: number, end: number, message: string): ExpressionError {
  return { code: "syntax", start, end, message: `${message} at ${positionText({ start, end })}.` };
}

export function tokenize(text: string): { tokens: Token[] } | { error: ExpressionError } {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    const start = at;
    if (char === "[") {
      let name = "";
      at += 1;
      for (;;) {
        if (at >= text.length) return { error: syntax(start, at, 'A column name has no "]"') };
        if (text[at] === "]") {
          if (text[at + 1] === "]") {
            name += "]";
            at += 2;
            continue;
          }
          at += 1;
          break;
        }
        name += text[at];
        at += 1;
      }
      if (name.trim() === "") return { error: syntax(start, at, "An empty column name") };
      tokens.push({ kind: "column", text: name, start, end: at });
      continue;
    }
    if (char === '"' || char === "'") {
      let value = "";
      at += 1;
      for (;;) {
        if (at >= text.length) return { error: syntax(start, at, "A text has no closing quote") };
        const next = text[at] as string;
        if (next === char) {
          at += 1;
          break;
        }
        if (next === "\\") {
          const escaped = escapes[text[at + 1] ?? ""];
          if (escaped === undefined) {
            return {
              error: syntax(
                at,
                Math.min(at + 2, text.length),
                "Unknown escape (write \\\\, \\\", \\', \\n or \\t)",
              ),
            };
          }
          value += escaped;
          at += 2;
          continue;
        }
        value += next;
        at += 1;
      }
      tokens.push({ kind: "string", text: value, start, end: at });
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (number) {
      at += number[0].length;
      if (/[A-Za-z_]/.test(text[at] ?? "")) {
        return { error: syntax(start, Math.min(at + 1, text.length), "A number runs into a word") };
      }
      tokens.push({ kind: "number", text: number[0], start, end: at });
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at, at + 400));
    if (word) {
      at += word[0].length;
      tokens.push({ kind: "word", text: word[0], start, end: at });
      continue;
    }
    if (char === "(" || char === ")" || char === ",") {
      at += 1;
      tokens.push({ kind: char, text: char, start, end: at });
      continue;
    }
    const operator = operators.find((op) => text.startsWith(op, at));
    if (operator) {
      at += operator.length;
      tokens.push({ kind: "operator", text: operator === "<>" ? "!=" : operator, start, end: at });
      continue;
    }
    return { error: syntax(start, start + 1, `Unexpected "${char}"`) };
  }
  tokens.push({ kind: "end", text: "", start: text.length, end: text.length });
  return { tokens };
}
