import { z } from "zod";
import { isRole, type Role } from "./access.js";
import {
  filterPhrase,
  filterProblems,
  type QueryColumn,
  type QueryFilter,
  queryFilterSchema,
} from "./query/spec.js";

// Row limits: a group's access to a dataset narrowed to the rows that meet its conditions
// ("region is North"). The store keeps one per group and dataset and hands the engine the rows an
// account may read (rowsSeenBy); the engine adds them to every statement that reads the dataset.

export const rowLimitLimits = {
  /** Conditions one limit may have (all must hold). */
  maxConditions: 10,
  /** Limits one dataset may have (one per group). */
  maxPerDataset: 200,
} as const;

/** A row limit's conditions: filters of the query language, all of which a row must meet. */
export type RowLimitConditions = Exclude<QueryFilter, { op: "relative" }>[];

export const rowLimitSchema = z.object({
  conditions: z
    .array(queryFilterSchema, { error: "Give the conditions a row must meet." })
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
  return filterProblems(conditions, columns, "conditions");
}

/** A limit in words: "region is North and year ≥ 2020". */
export function rowLimitPhrase(conditions: RowLimitConditions): string {
  return conditions.map(filterPhrase).join(" and ");
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
