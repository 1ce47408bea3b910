import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CheckedExpression,
  type ExpressionColumn,
  expressionLimits,
  parseExpression,
  printExpression,
} from "../src/index.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`expression property seed: ${seed} (set FC_SEED to replay)`);

const columns: ExpressionColumn[] = [
  { name: "Revenue", type: "number" },
  { name: "Units", type: "number" },
  { name: "Region", type: "string" },
  { name: "Day", type: "date" },
  { name: "At", type: "timestamp" },
  { name: "Paid", type: "boolean" },
  { name: "Odd ]name", type: "string" },
];

function ok(text: string) {
  const result = parseExpression(text, columns);
  if (!result.ok) throw new Error(`${text}: ${result.errors.map((e) => e.message).join(" | ")}`);
  return result;
}

function errors(text: string) {
  const result = parseExpression(text, columns);
  if (result.ok) throw new Error(`${text} parsed`);
  return result.errors;
}

/** A tree without positions, to compare trees of different texts. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== "start" && key !== "end")
        .map(([key, value]) => [key, shape(value)]),
    );
  }
  return node;
}

describe("expression parser and checker", () => {
  it.each([
    ["[Revenue] * [Units]", "number"],
    ["[Revenue] / 0", "number"],
    ['case([Revenue] > 10, "big", [Revenue] > 5, "mid", "small")', "string"],
    ["if([Paid], [Revenue], null)", "number"],
    ["coalesce([Revenue], 0)", "number"],
    ['CONCAT([Region], " ", upper([Region]))', "string"],
    ["year([Day]) + hour([At])", "number"],
    ['dateAdd([Day], 1, "year")', "date"],
    ['dateAdd([At], -2, "hour")', "timestamp"],
    ['dateDiff([Day], date("2024-02-29"), "month")', "number"],
    ["not [Paid] and [Revenue] >= 2 or [Region] != 'x'", "boolean"],
    ["round([Revenue], -1)", "number"],
    ["[Odd ]]name] = null", "boolean"],
    ["isNull([Day])", "boolean"],
    ["-(-[Revenue])", "number"],
    ["1.5e3 <> .5", "boolean"],
  ])("%s is %s", (text, type) => {
    expect(ok(text).type).toBe(type);
  });

  it("groups by precedence: * before +, comparisons before and, and before or", () => {
    expect(printExpression(ok("1 + 2 * 3 - 4").tree)).toBe("1 + 2 * 3 - 4");
    const tree = ok("[Paid] or [Revenue] > 1 and not [Paid]").tree;
    expect(tree.kind === "binary" && tree.op).toBe("or");
    expect(printExpression(ok("(1 + 2) * 3").tree)).toBe("(1 + 2) * 3");
    expect(printExpression(ok("1 - (2 - 3)").tree)).toBe("1 - (2 - 3)");
    expect(printExpression(ok("dateadd([Day],1,'day')").tree)).toBe('dateAdd([Day], 1, "day")');
  });

  it("gives empty values the type of their place", () => {
    const tree = ok("coalesce(null, [Day])").tree as CheckedExpression & { kind: "call" };
    expect(tree.args[0]?.type).toBe("date");
  });

  it("says where and what is wrong", () => {
    expect(errors("[Revenu] + 1")).toEqual([
      {
        code: "unknown_column",
        start: 0,
        end: 8,
        message: 'Unknown column "Revenu" at 1–8; did you mean "Revenue"?',
      },
    ]);
    expect(errors("1 + year([Region])")[0]).toMatchObject({
      code: "type",
      start: 9,
      end: 17,
      message: '"year" takes a date or a timestamp, got text at 10–17.',
    });
    expect(errors("yeer([Day])")[0]?.message).toBe(
      'Unknown function "yeer" at 1–4; did you mean "year"?',
    );
    expect(errors("if([Paid], 1)")[0]?.code).toBe("arity");
    expect(errors('[Region] + "x"')[0]?.message).toMatch(/join texts with "concat"/);
    expect(errors("1 < 2 < 3")[0]?.code).toBe("syntax");
    expect(errors("Revenue + 1")[0]?.message).toMatch(
      /write column names in brackets: \[Revenue\]/,
    );
    expect(errors('dateAdd([Day], 1, "hour")')[0]?.message).toMatch(/for a date is one of/);
    expect(errors("round([Revenue], [Units])")[0]?.code).toBe("type");
    expect(errors('"abc')[0]).toMatchObject({ code: "syntax", start: 0, end: 4 });
    expect(errors("null")[0]?.code).toBe("always_empty");
    expect(errors("")[0]?.message).toBe("The expression is empty.");
    expect(errors('date("2023-02-29")')[0]?.code).toBe("type");
    // Independent mistakes are all reported.
    expect(errors("[A] + [B]").map((e) => e.start)).toEqual([0, 6]);
  });

  it("refuses expressions past the bounds", () => {
    expect(errors("1+".repeat(1000) + "1")[0]?.code).toBe("too_long");
    expect(errors(`${"(".repeat(65)}1${")".repeat(65)}`)[0]?.code).toBe("too_deep");
    expect(errors(`${"-".repeat(65)}1`)[0]?.code).toBe("too_deep");
    expect(ok(`${"(".repeat(60)}1${")".repeat(60)}`).type).toBe("number");
    let nested = "[Day]";
    for (let i = 0; i < 16; i += 1)
      nested = `dateAdd([Day], dateDiff(${nested}, ${nested}, "day"), "day")`;
    expect(nested.length).toBeGreaterThan(expressionLimits.maxLength);
    let deep = "[Day]";
    for (let i = 0; i < 20; i += 1) deep = `dateAdd([Day], dateDiff(${deep}, [Day], "day"), "day")`;
    expect(errors(deep)[0]?.code).toBe("too_complex");
  });
});

// Random well-typed trees, written as text.
const { text: generated } = fc.letrec<{ text: string; number: string; boolean: string }>((tie) => ({
  number: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("[Revenue]", "[Units]", "1", "2.5", "null"),
    fc
      .tuple(tie("number"), fc.constantFrom("+", "-", "*", "/"), tie("number"))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("number").map((a) => `-${a}`),
    fc
      .tuple(tie("boolean"), tie("number"), tie("number"))
      .map(([c, a, b]) => `if(${c}, ${a}, ${b})`),
    fc.constantFrom(
      "length([Region])",
      'dateDiff([Day], [Day], "week")',
      "year([At])",
      "weekday([Day])",
    ),
    tie("number").map((a) => `round(${a}, -1)`),
  ),
  boolean: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("[Paid]", "true", "false", 'contains([Region], "a")'),
    fc
      .tuple(tie("number"), fc.constantFrom("=", "!=", "<", ">="), tie("number"))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc
      .tuple(tie("boolean"), fc.constantFrom("and", "or"), tie("boolean"))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("boolean").map((a) => `not (${a})`),
  ),
  text: fc.oneof(tie("number"), tie("boolean")),
}));

describe("formulas of aggregates (a measure's formula)", () => {
  const formula = (text: string) => parseExpression(text, columns, "formula");
  const messages = (text: string) => {
    const result = formula(text);
    return result.ok ? [] : result.errors.map((error) => error.message);
  };

  it.each([
    "sum([Revenue]) / sum([Units])",
    "count() - count([Revenue])",
    'sum(if([Region] = "North", [Revenue], 0)) / SUM([Revenue])',
    "median([Units]) + countDistinct([Day]) * 2",
    "round(avg([Revenue]), 2)",
    "coalesce(max([Revenue]) - min([Revenue]), 0)",
  ])("%s is a number", (text) => {
    const result = formula(text);
    expect(result.ok && result.type).toBe("number");
  });

  it("puts every column inside an aggregate, one aggregate deep, and gives a number", () => {
    expect(messages("sum([Revenue]) / [Units]")).toEqual([
      "A formula combines rows: put [Units] inside an aggregate, such as sum([Units]), at 18–24.",
    ]);
    expect(messages("sum(sum([Revenue]))")).toEqual([
      'An aggregate cannot hold another ("sum" at 5–7).',
    ]);
    expect(messages("1 + 2")).toEqual([
      "A formula combines rows: use an aggregate, such as sum([revenue]) / sum([orders]).",
    ]);
    expect(messages("sum([Revenue]) > 2")).toEqual(["A formula gives a number, got true/false."]);
    expect(messages("sum([Region])")[0]).toMatch(/^"sum" takes a number, got text at 5–12/);
    expect(messages("summ([Revenue])")[0]).toBe(
      'Unknown function "summ" at 1–4; did you mean "sum"?',
    );
  });

  it("keeps aggregates out of calculated fields (one value per row)", () => {
    expect(errors("sum([Revenue])")[0]?.message).toBe(
      '"sum" combines rows: a calculated field is one value per row; use it in a chart measure\'s formula, at 1–3.',
    );
  });
});

describe("expression properties", () => {
  it("well-typed generated expressions check, and print back to the same tree", () => {
    fc.assert(
      fc.property(generated, (text) => {
        fc.pre(text.length <= expressionLimits.maxLength);
        const result = parseExpression(text, columns);
        if (!result.ok) {
          // Only a tree that is always empty may be refused.
          expect(result.errors.map((e) => e.code)).toEqual(["always_empty"]);
          return;
        }
        const printed = printExpression(result.tree);
        const again = parseExpression(printed, columns);
        expect(again.ok).toBe(true);
        if (again.ok) {
          expect(shape(again.tree)).toEqual(shape(result.tree));
          expect(printExpression(again.tree)).toBe(printed);
        }
      }),
      { seed, numRuns: 400 },
    );
  });

  it("garbage never throws: a tree or typed errors with positions inside the text", () => {
    const pieces = fc.constantFrom(
      "(",
      ")",
      "[",
      "]",
      ",",
      '"',
      "'",
      "\\",
      "-",
      "+",
      "not ",
      "and",
      "if(",
      "case(",
      "[Day]",
      "1",
      "null",
      " ",
      "é",
      "🎉",
      "==",
      "<=",
      "year(",
      "]]",
    );
    const garbage = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(pieces, { maxLength: 300 }).map((parts) => parts.join("")),
      fc
        .tuple(
          fc.integer({ min: 0, max: 3000 }),
          fc.constantFrom("(", "-", "not ", "if(1,", "[Day]+"),
        )
        .map(([n, p]) => p.repeat(n)),
    );
    fc.assert(
      fc.property(garbage, (text) => {
        const started = performance.now();
        const result = parseExpression(text, columns);
        expect(performance.now() - started).toBeLessThan(1000);
        if (result.ok) return;
        expect(result.errors.length).toBeGreaterThan(0);
        for (const error of result.errors) {
          expect(error.start).toBeGreaterThanOrEqual(0);
          expect(error.end).toBeLessThanOrEqual(text.length);
          expect(error.start).toBeLessThanOrEqual(error.end);
          expect(error.message.length).toBeGreaterThan(0);
        }
      }),
      { seed, numRuns: 1000 },
    );
  });
});
