import { z } from "zod";
import { isRole, type Role } from "./access.js";
import {
  filterPhrase,
  filterProblemsAt,
  type QueryColumn,
  type QueryFilter,
  queryFilterSchema,
} from "./query/spec.js";

// Row limits: a group's access to a dataset narrowed to the rows that meet its conditions
// ("region is North", or "region is the account's region" from the identity provider). The store
// keeps one per group and dataset and hands the engine the rows an account may read (rowsSeenBy,
// then resolveRowLimits with the account's attributes); the engine adds them to every statement
// that reads the dataset.

export const rowLimitLimits = {
  /** Conditions one limit may have (all must hold). */
  maxConditions: 10,
  /** Limits one dataset may have (one per group). */
  maxPerDataset: 200,
} as const;

/** Account attributes from the identity provider's claims (SEED_OIDC_ATTRIBUTE_CLAIMS). */
export const accountAttributeLimits = {
  maxAttributes: 20,
  /** Values one attribute may hold (a claim may be a list); more are not taken. */
  maxValues: 50,
  maxValueLength: 200,
} as const;

/** An attribute's name: lower-case letters, digits and _, as SEED_OIDC_ATTRIBUTE_CLAIMS names it. */
export const attributeNamePattern = /^[a-z][a-z0-9_]{0,39}$/;

const attributeCondition = z.object({
  column: z
    .string({ error: "Choose a column." })
    .trim()
    .min(1, "Choose a column.")
    .max(64, "Column names are at most 64 characters."),
  /** The column holds one of the reading account's values of the attribute. */
  op: z.literal("is_attribute"),
  attribute: z
    .string({ error: "Name the account attribute." })
    .trim()
    .regex(
      attributeNamePattern,
      "Name the account attribute in lower-case letters, digits and _ (e.g. region).",
    ),
});
export type AttributeCondition = z.infer<typeof attributeCondition>;

/** One condition of a limit: a fixed filter of the query language, or an account attribute. */
export type RowLimitCondition = Exclude<QueryFilter, { op: "relative" }> | AttributeCondition;
export type RowLimitConditions = RowLimitCondition[];

const conditionSchema = z.discriminatedUnion("op", [
  ...queryFilterSchema.options,
  attributeCondition,
]);

export const rowLimitSchema = z.object({
  conditions: z
    .array(conditionSchema, { error: "Give the conditions a row must meet." })
    .min(1, "Give at least one condition.")
    .max(
      rowLimitLimits.maxConditions,
      `A row limit has at most ${rowLimitLimits.maxConditions} conditions.`,
    )
    .superRefine((conditions, issue) => {
      for (const [index, condition] of conditions.entries()) {
        if (condition.op === "relative") {
          issue.addIssue({
            code: "custom",
            path: [index, "op"],
            message:
              "A row limit cannot follow the calendar; compare with a fixed value or range instead.",
          });
        }
      }
    })
    .transform((conditions) => conditions as RowLimitConditions),
});

/** Problems of a limit's conditions against the dataset's columns, keyed `conditions.N.field`. */
export function rowLimitProblems(
  conditions: RowLimitConditions,
  columns: readonly QueryColumn[],
): Record<string, string[]> {
  let errors: Record<string, string[]> = {};
  for (const [index, condition] of conditions.entries()) {
    const path = `conditions.${index}`;
    if (condition.op !== "is_attribute") {
      errors = { ...errors, ...filterProblemsAt(condition, columns, path) };
      continue;
    }
    const column = columns.find((one) => one.name === condition.column);
    if (!column) errors[`${path}.column`] = [`The dataset has no column "${condition.column}".`];
    else if (column.type !== "string") {
      errors[`${path}.op`] = [
        `"${column.name}" is a ${column.type} column; an account attribute is text, so compare it with a text column.`,
      ];
    }
  }
  return errors;
}

/** A limit in words: "region is North and year ≥ 2020", "region is the account's region". */
export function rowLimitPhrase(conditions: readonly (RowLimitCondition | QueryFilter)[]): string {
  return conditions
    .map((condition) =>
      condition.op === "is_attribute"
        ? `${condition.column} is the account's ${condition.attribute}`
        : filterPhrase(condition),
    )
    .join(" and ");
}

/** One of an account's groups as a dataset's row limits see it. */
export interface GroupRowAccess {
  /** The group's limit on the dataset; null: none. */
  limit: RowLimitConditions | null;
  /** Whether the group is granted the collection the dataset lives in (never for Shared). */
  grantsCollection: boolean;
}

/**
 * The rows of a dataset an account reads: null for every row, else the rows meeting any one of
 * these condition sets (each a group's limit, whose conditions all hold). Admins read every row.
 * An account none of whose groups limits the dataset reads every row; one whose groups limit it
 * reads the rows of all those limits together, unless another of its groups is granted the
 * dataset's collection with no limit there (that grant gives every row, as it would alone).
 */
export function rowsSeenBy(
  role: Role | null | undefined,
  groups: readonly GroupRowAccess[],
): RowLimitConditions[] | null {
  if (isRole(role) && role === "admin") return null;
  const limits = groups.flatMap((group) => (group.limit === null ? [] : [group.limit]));
  if (limits.length === 0) return null;
  if (groups.some((group) => group.limit === null && group.grantsCollection)) return null;
  return limits;
}

/**
 * The limits as the engine applies them for one account: each attribute condition becomes "the
 * column is one of the account's values"; a limit naming an attribute the account has no value
 * of leaves it no rows (it is dropped, and no limits at all means no rows).
 */
export function resolveRowLimits(
  sets: readonly RowLimitConditions[],
  attributes: Readonly<Record<string, readonly string[]>>,
): QueryFilter[][] {
  return sets.flatMap((conditions) => {
    const resolved: QueryFilter[] = [];
    for (const condition of conditions) {
      if (condition.op !== "is_attribute") {
        resolved.push(condition);
        continue;
      }
      const values = Object.hasOwn(attributes, condition.attribute)
        ? (attributes[condition.attribute] ?? [])
        : [];
      if (values.length === 0) return [];
      resolved.push({ column: condition.column, op: "in", values: [...values] });
    }
    return [resolved];
  });
}

/**
 * An account's attributes from its provider's claims, bounded: names as given (those not fitting
 * attributeNamePattern, and past the first maxAttributes, are left out), values as text, each
 * list cut to maxValues and each value to maxValueLength characters (a longer one is left out,
 * never cut: a cut value would match other rows). Returns what was left out, to be logged.
 */
export function boundedAttributes(raw: Readonly<Record<string, readonly unknown[]>>): {
  attributes: Record<string, string[]>;
  refused: string[];
} {
  const attributes: Record<string, string[]> = {};
  const refused: string[] = [];
  for (const [name, values] of Object.entries(raw)) {
    if (
      !attributeNamePattern.test(name) ||
      Object.keys(attributes).length >= accountAttributeLimits.maxAttributes
    ) {
      refused.push(name.slice(0, 40));
      continue;
    }
    const kept: string[] = [];
    for (const value of values) {
      const text = typeof value === "string" ? value : String(value);
      if (
        text.length > accountAttributeLimits.maxValueLength ||
        kept.length >= accountAttributeLimits.maxValues
      ) {
        refused.push(`${name} value`);
        continue;
      }
      if (!kept.includes(text)) kept.push(text);
    }
    attributes[name] = kept;
  }
  return { attributes, refused };
}
