import {
  aggregateFunctionSpec,
  type CheckedExpression,
  constantNumber,
  type DatasetColumnType,
  type DatePart,
  type TimeUnit,
} from "@seed/model";
import { type RawBuilder, sql } from "kysely";
import type { Dialect, TimeInput } from "../db/dialect.js";

// Compiles a checked calculated-field expression (@seed/model's parseExpression) to one SQL
// fragment. Every engine difference is a member of the dialect (db/dialect.ts); the rest is SQL
// every engine reads alike. Values as each engine stores them (booleans 1/0 on SQLite, dates as
// text there); `readExpression` gives the result as query results carry a column. Numbers are
// doubles everywhere (integer results are cast), a division by zero is empty, literals are bound
// parameters cast to their type.

type Sql = RawBuilder<unknown>;

/** What an expression compiles against: the dialect, the columns' SQL, the query's time zone. */
export interface ExpressionContext {
  dialect: Dialect;
  /** A column's SQL (checked names only reach here). */
  column(name: string): Sql;
  timeZone: string;
  /**
   * A measure's formula only: an aggregate of the group's rows (`sum`, `count`, ...; the model's
   * aggregateFunctionSpecs), given its argument's SQL (null: `count()`, every row).
   */
  aggregate?(name: string, value: Sql | null): Sql;
}

const dayUnits = new Set<TimeUnit>(["day", "week", "month", "quarter", "year"]);

function cast(dialect: Dialect, value: Sql, type: DatasetColumnType): Sql {
  return sql`cast(${value} as ${sql.raw(dialect.columnTypes[type])})`;
}

function literal(dialect: Dialect, type: DatasetColumnType, value: string | number | boolean): Sql {
  return cast(dialect, sql.val(dialect.stored(type, value)), type);
}

/** An integer count from a number: truncated toward zero. */
const integer = (value: Sql) => sql`cast(trunc(${value}) as integer)`;

function unitOf(node: CheckedExpression | undefined): TimeUnit {
  return (node?.kind === "string" ? node.value.toLowerCase() : "day") as TimeUnit;
}

class ExpressionCompiler {
  constructor(private readonly context: ExpressionContext) {}

  private get dialect() {
    return this.context.dialect;
  }

  private number(value: Sql): Sql {
    return cast(this.dialect, value, "number");
  }

  private time(node: CheckedExpression): TimeInput {
    return {
      value: this.compile(node),
      type: node.type === "date" ? "date" : "timestamp",
      timeZone: this.context.timeZone,
    };
  }

  compile(node: CheckedExpression): Sql {
    const dialect = this.dialect;
    switch (node.kind) {
      case "number":
        return literal(dialect, "number", node.value);
      case "string":
        return literal(dialect, "string", node.value);
      case "boolean":
        return literal(dialect, "boolean", node.value);
      case "null":
        return node.type === "null" ? sql`null` : cast(dialect, sql`null`, node.type);
      case "column":
        return this.context.column(node.name);
      case "unary":
        return node.op === "-"
          ? sql`(-${this.compile(node.operand)})`
          : sql`(not ${this.compile(node.operand)})`;
      case "binary":
        return this.binary(node);
      case "call":
        return this.call(node);
    }
  }

  private binary(node: CheckedExpression & { kind: "binary" }): Sql {
    const left = this.compile(node.left);
    const right = this.compile(node.right);
    switch (node.op) {
      case "/":
        return sql`(${this.number(left)} / nullif(${this.number(right)}, 0))`;
      case "+":
      case "-":
      case "*":
      case "and":
      case "or":
        return sql`(${left} ${sql.raw(node.op)} ${right})`;
      case "=":
        return sql`(${left} = ${right})`;
      case "!=":
        return sql`(${left} <> ${right})`;
      default: {
        // Text orders by bytes (SQLite's BINARY) on every engine.
        const text = node.left.type === "string" || node.right.type === "string";
        const order = (value: Sql) => (text ? this.dialect.textOrder(value) : value);
        return sql`(${order(left)} ${sql.raw(node.op)} ${order(right)})`;
      }
    }
  }

  private call(node: CheckedExpression & { kind: "call" }): Sql {
    const dialect = this.dialect;
    const args = node.args;
    const arg = (index: number) => this.compile(args[index] as CheckedExpression);
    if (this.context.aggregate && aggregateFunctionSpec(node.name)) {
      return this.number(this.context.aggregate(node.name, args.length > 0 ? arg(0) : null));
    }
    switch (node.name) {
      case "if":
        return sql`(case when ${arg(0)} then ${arg(1)} else ${arg(2)} end)`;
      case "case": {
        const whens: Sql[] = [];
        for (let index = 0; index + 1 < args.length; index += 2) {
          whens.push(sql`when ${arg(index)} then ${arg(index + 1)}`);
        }
        const otherwise = args.length % 2 === 1 ? arg(args.length - 1) : sql`null`;
        return sql`(case ${sql.join(whens, sql` `)} else ${otherwise} end)`;
      }
      case "coalesce":
        return args.length === 1 ? arg(0) : sql`coalesce(${sql.join(args.map((_, i) => arg(i)))})`;
      case "isNull":
        return sql`(${arg(0)} is null)`;
      case "abs":
      case "floor":
      case "ceil":
        return this.number(sql`${sql.raw(node.name)}(${arg(0)})`);
      case "round": {
        const digits = args[1] ? (constantNumber(args[1]) ?? 0) : 0;
        return dialect.round(this.number(arg(0)), digits);
      }
      case "concat":
        return sql`concat(${sql.join(args.map((_, i) => arg(i)))})`;
      case "lower":
        return dialect.lower(arg(0));
      case "upper":
        return dialect.upper(arg(0));
      case "trim":
        return sql`trim(${arg(0)})`;
      case "length":
        return this.number(dialect.textLength(arg(0)));
      case "contains":
        return sql`(${dialect.textPosition(arg(0), arg(1))} > 0)`;
      case "startsWith":
        return sql`(${dialect.textPosition(arg(0), arg(1))} = 1)`;
      case "endsWith":
        return dialect.endsWith(arg(0), arg(1));
      case "substring": {
        const start = dialect.greatest(integer(arg(1)), sql`1`);
        const length = dialect.greatest(integer(arg(2)), sql`0`);
        return sql`substr(${arg(0)}, ${start}, ${length})`;
      }
      case "replace":
        return sql`replace(${arg(0)}, ${arg(1)}, ${arg(2)})`;
      case "dateAdd":
        return dialect.dateAdd(
          this.time(args[0] as CheckedExpression),
          integer(arg(1)),
          unitOf(args[2]),
        );
      case "dateDiff":
        return this.number(this.dateDiff(node));
      case "date":
        return dialect.param("date", (args[0] as CheckedExpression & { kind: "string" }).value);
      default:
        return this.number(
          dialect.datePart(this.time(args[0] as CheckedExpression), node.name as DatePart),
        );
    }
  }

  /** Boundaries crossed from a to b: local days, ISO weeks, months; hours and shorter in UTC. */
  private dateDiff(node: CheckedExpression & { kind: "call" }): Sql {
    const [from, to] = [
      this.time(node.args[0] as CheckedExpression),
      this.time(node.args[1] as CheckedExpression),
    ];
    const dialect = this.dialect;
    const unit = unitOf(node.args[2]);
    if (!dayUnits.has(unit)) {
      const size = sql.lit(unit === "hour" ? 3_600_000 : unit === "minute" ? 60_000 : 1_000);
      const at = (input: TimeInput) =>
        sql`floor(${dialect.numericX(input.value, "timestamp")} / ${size})`;
      return sql`(${at(to)} - ${at(from)})`;
    }
    if (unit === "day") return sql`(${dialect.dayNumber(to)} - ${dialect.dayNumber(from)})`;
    // 1970-01-01 was a Thursday: day + 3 counts from the Monday before it.
    if (unit === "week") {
      const week = (input: TimeInput) => sql`floor((${dialect.dayNumber(input)} + 3) / 7.0)`;
      return sql`(${week(to)} - ${week(from)})`;
    }
    const months = sql.lit(unit === "month" ? 1 : unit === "quarter" ? 3 : 12);
    const period = (input: TimeInput) => sql`floor(${dialect.monthNumber(input)} / ${months}.0)`;
    return sql`(${period(to)} - ${period(from)})`;
  }
}

/** A checked expression as SQL of the engine's stored form of its type. */
export function compileExpression(tree: CheckedExpression, context: ExpressionContext): Sql {
  return new ExpressionCompiler(context).compile(tree);
}

/** A checked expression as query results read a column of its type (db/dialect.ts `read`). */
export function readExpression(tree: CheckedExpression, context: ExpressionContext): Sql {
  const type = tree.type === "null" ? "string" : tree.type;
  return context.dialect.read(compileExpression(tree, context), type);
}
