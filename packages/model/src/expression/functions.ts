import type { DatasetColumnType } from "../vocabulary.js";
import type { CheckedExpression, ExpressionType } from "./tree.js";
import { typeWord } from "./tree.js";

// The functions of the expression language, one row each: canonical name (calls match it in any
// case), how many arguments, the types they take and the type they give. A row's `check` gets the
// checked arguments and returns the call's type, or the argument at fault and what it should be.
// `repeats` is how many times some engine's SQL repeats an argument (bounds the compiled size).

export const dateUnits = ["year", "quarter", "month", "week", "day"] as const;
export const timeUnits = [...dateUnits, "hour", "minute", "second"] as const;
export type TimeUnit = (typeof timeUnits)[number];

export const dateParts = ["year", "quarter", "month", "week", "day", "weekday"] as const;
export const timeParts = [...dateParts, "hour", "minute"] as const;
export type DatePart = (typeof timeParts)[number];

/** Why a call is wrong: the argument at fault (or the call, index -1) and a sentence. */
export interface CallProblem {
  index: number;
  message: string;
}

export interface FunctionSpec {
  name: string;
  minArgs: number;
  maxArgs: number;
  /** How the call is written, for messages and the README. */
  usage: string;
  repeats?: number;
  check(args: CheckedExpression[]): ExpressionType | CallProblem;
}

const got = (arg: CheckedExpression) => typeWord(arg.type);

/** The first argument not of one of the types (an empty value fits any type). */
function wrongArg(
  name: string,
  args: CheckedExpression[],
  types: ReadonlyArray<ReadonlyArray<DatasetColumnType>>,
): CallProblem | null {
  for (const [index, arg] of args.entries()) {
    const allowed = types[Math.min(index, types.length - 1)] ?? [];
    if (arg.type === "null" || (allowed as ExpressionType[]).includes(arg.type)) continue;
    const words = allowed.map(typeWord).join(" or ");
    const which = args.length > 1 ? `argument ${index + 1} of "${name}"` : `"${name}"`;
    return { index, message: `${which} takes ${words}, got ${got(arg)}` };
  }
  return null;
}

function fixed(
  name: string,
  params: ReadonlyArray<ReadonlyArray<DatasetColumnType>>,
  result: DatasetColumnType | ((args: CheckedExpression[]) => ExpressionType),
  options: { minArgs?: number; maxArgs?: number; usage: string; repeats?: number },
): FunctionSpec {
  return {
    name,
    minArgs: options.minArgs ?? params.length,
    maxArgs: options.maxArgs ?? params.length,
    usage: options.usage,
    repeats: options.repeats,
    check: (args) =>
      wrongArg(name, args, params) ?? (typeof result === "function" ? result(args) : result),
  };
}

/** The one type of several values (empty values fit any), or the value at fault. */
export function commonType(
  name: string,
  args: CheckedExpression[],
  indexes: number[],
): ExpressionType | CallProblem {
  let type: ExpressionType = "null";
  for (const index of indexes) {
    const arg = args[index] as CheckedExpression;
    if (arg.type === "null") continue;
    if (type === "null") type = arg.type;
    else if (arg.type !== type) {
      return {
        index,
        message: `The values of "${name}" must all be of one type: ${typeWord(type)}, got ${got(arg)}`,
      };
    }
  }
  return type;
}

/** A number written in the expression (`2`, `-1`), or null. */
export function constantNumber(node: CheckedExpression): number | null {
  if (node.kind === "number") return node.value;
  if (node.kind === "unary" && node.op === "-" && node.operand.kind === "number") {
    return -node.operand.value;
  }
  return null;
}

function literalText(arg: CheckedExpression | undefined): string | null {
  return arg?.kind === "string" ? arg.value.toLowerCase() : null;
}

function unitProblem(name: string, args: CheckedExpression[], index: number, type: ExpressionType) {
  const units: readonly string[] = type === "date" ? dateUnits : timeUnits;
  const unit = literalText(args[index]);
  if (unit !== null && units.includes(unit)) return null;
  return {
    index,
    message: `The unit of "${name}" ${type === "date" ? "for a date " : ""}is one of ${units.map((u) => `"${u}"`).join(", ")}`,
  };
}

const number = ["number"] as const;
const text = ["string"] as const;
const time = ["date", "timestamp"] as const;
const any = ["number", "string", "boolean", "date", "timestamp"] as const;
const condition = ["boolean"] as const;

function part(name: DatePart): FunctionSpec {
  const timestampOnly = name === "hour" || name === "minute";
  return fixed(name, [timestampOnly ? ["timestamp"] : time], "number", {
    usage: `${name}(${timestampOnly ? "timestamp" : "date or timestamp"})`,
  });
}

export const functionSpecs: readonly FunctionSpec[] = [
  {
    name: "if",
    minArgs: 3,
    maxArgs: 3,
    usage: "if(condition, then, else)",
    check: (args) =>
      wrongArg("if", args.slice(0, 1), [condition]) ?? commonType("if", args, [1, 2]),
  },
  {
    name: "case",
    minArgs: 2,
    maxArgs: Number.POSITIVE_INFINITY,
    usage: "case(condition1, value1, condition2, value2, …, else)",
    check(args) {
      const values: number[] = [];
      for (let index = 0; index < args.length; index += 1) {
        const isCondition = index % 2 === 0 && index < args.length - 1;
        if (!isCondition) {
          values.push(index);
          continue;
        }
        const arg = args[index] as CheckedExpression;
        if (arg.type !== "null" && arg.type !== "boolean") {
          return {
            index,
            message: `Argument ${index + 1} of "case" is a condition (true/false), got ${got(arg)}`,
          };
        }
      }
      return commonType("case", args, values);
    },
  },
  {
    name: "coalesce",
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    usage: "coalesce(value1, value2, …)",
    check: (args) =>
      commonType(
        "coalesce",
        args,
        args.map((_, index) => index),
      ),
  },
  fixed("isNull", [any], "boolean", { usage: "isNull(value)" }),
  fixed("abs", [number], "number", { usage: "abs(number)" }),
  fixed("floor", [number], "number", { usage: "floor(number)" }),
  fixed("ceil", [number], "number", { usage: "ceil(number)" }),
  {
    ...fixed("round", [number, number], "number", { minArgs: 1, usage: "round(number, digits)" }),
    check(args) {
      const wrong = wrongArg("round", args, [number, number]);
      if (wrong) return wrong;
      const digits = args[1] ? constantNumber(args[1]) : 0;
      if (digits === null || !Number.isInteger(digits) || Math.abs(digits) > 15) {
        return {
          index: 1,
          message:
            'The digits of "round" are a whole number from -15 to 15 written in the expression',
        };
      }
      return "number";
    },
  },
  fixed("concat", [text], "string", {
    maxArgs: Number.POSITIVE_INFINITY,
    usage: "concat(text1, text2, …)",
  }),
  fixed("lower", [text], "string", { usage: "lower(text)" }),
  fixed("upper", [text], "string", { usage: "upper(text)" }),
  fixed("trim", [text], "string", { usage: "trim(text)" }),
  fixed("length", [text], "number", { usage: "length(text)" }),
  fixed("contains", [text, text], "boolean", { usage: "contains(text, part)" }),
  fixed("startsWith", [text, text], "boolean", { usage: "startsWith(text, start)" }),
  fixed("endsWith", [text, text], "boolean", { usage: "endsWith(text, end)", repeats: 2 }),
  fixed("substring", [text, number, number], "string", { usage: "substring(text, start, length)" }),
  fixed("replace", [text, text, text], "string", { usage: "replace(text, find, replacement)" }),
  ...timeParts.map(part),
  {
    name: "dateAdd",
    minArgs: 3,
    maxArgs: 3,
    usage: 'dateAdd(date or timestamp, number, "unit")',
    check(args) {
      const wrong = wrongArg("dateAdd", args, [time, number, text]);
      if (wrong) return wrong;
      const type = (args[0] as CheckedExpression).type;
      if (type === "null")
        return { index: 0, message: '"dateAdd" takes a date or a timestamp, got an empty value' };
      return unitProblem("dateAdd", args, 2, type) ?? type;
    },
  },
  {
    name: "dateDiff",
    minArgs: 3,
    maxArgs: 3,
    usage: 'dateDiff(from, to, "unit")',
    repeats: 2,
    check(args) {
      const wrong = wrongArg("dateDiff", args, [time, time, text]);
      if (wrong) return wrong;
      const type = commonType("dateDiff", args, [0, 1]);
      if (typeof type !== "string") return type;
      if (type === "null")
        return { index: 0, message: '"dateDiff" takes dates or timestamps, got empty values' };
      return unitProblem("dateDiff", args, 2, type) ?? "number";
    },
  },
  {
    name: "date",
    minArgs: 1,
    maxArgs: 1,
    usage: 'date("yyyy-mm-dd")',
    check(args) {
      const arg = args[0] as CheckedExpression;
      if (arg.kind === "string" && isCalendarDay(arg.value)) return "date";
      return { index: 0, message: '"date" takes a day written in the expression as "yyyy-mm-dd"' };
    },
  },
];

function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The aggregates a measure's formula may use (`sum([revenue]) / sum([orders])`): each combines
 * the rows of a group into one number, takes a row expression, and cannot hold another aggregate.
 * `count()` counts rows; `count(x)` the rows where x is not empty.
 */
export const aggregateFunctionSpecs: readonly FunctionSpec[] = [
  fixed("sum", [number], "number", { usage: "sum(number)" }),
  fixed("avg", [number], "number", { usage: "avg(number)" }),
  fixed("min", [number], "number", { usage: "min(number)" }),
  fixed("max", [number], "number", { usage: "max(number)" }),
  fixed("median", [number], "number", { usage: "median(number)" }),
  fixed("count", [any], "number", { minArgs: 0, usage: "count() or count(value)" }),
  fixed("countDistinct", [any], "number", { usage: "countDistinct(value)" }),
];

const byName = new Map(functionSpecs.map((spec) => [spec.name.toLowerCase(), spec]));
const aggregateByName = new Map(
  aggregateFunctionSpecs.map((spec) => [spec.name.toLowerCase(), spec]),
);

/** An aggregate by name, in any case ("SUM", "sum"). */
export function aggregateFunctionSpec(name: string): FunctionSpec | undefined {
  return aggregateByName.get(name.toLowerCase());
}

export const aggregateFunctionNames: readonly string[] = aggregateFunctionSpecs.map(
  (spec) => spec.name,
);

/** A function by name, in any case ("DATEADD", "dateadd"). */
export function functionSpec(name: string): FunctionSpec | undefined {
  return byName.get(name.toLowerCase());
}

export const functionNames: readonly string[] = functionSpecs.map((spec) => spec.name);
