import { z } from "zod";
import { isCategoryType } from "./column-types.js";
import { boundedText } from "./fields.js";
import { datasetLimits } from "./limits.js";
import type { DatasetColumnType } from "./vocabulary.js";

// Category hierarchies: a dataset names the columns a chart drills through, coarsest first
// (region -> country -> city). A chart whose x is a level above the last drills from a value
// (a bar "Europe") into the next level within it (its countries); see dashboard/drill.ts. Kept
// with the dataset and versioned with it. The one home of their limits and checks.

export const hierarchyLimits = {
  /** Hierarchies on one dataset. */
  maxHierarchies: 5,
  /** Levels of one hierarchy: at least two, a value and what is within it. */
  minLevels: 2,
  maxLevels: 5,
} as const;

/** A hierarchy's levels: column names, coarsest first. */
export type Hierarchy = readonly string[];

const levelSchema = boundedText(
  "Choose a column.",
  datasetLimits.maxColumnNameLength,
  `Column names are at most ${datasetLimits.maxColumnNameLength} characters.`,
);

export const hierarchiesSchema = z
  .array(
    z
      .array(levelSchema, { error: "A hierarchy is a list of columns." })
      .min(
        hierarchyLimits.minLevels,
        `A hierarchy has at least ${hierarchyLimits.minLevels} levels: a column and one within it.`,
      )
      .max(
        hierarchyLimits.maxLevels,
        `A hierarchy has at most ${hierarchyLimits.maxLevels} levels.`,
      ),
    { error: "Hierarchies must be a list of lists of columns." },
  )
  .max(
    hierarchyLimits.maxHierarchies,
    `A dataset has at most ${hierarchyLimits.maxHierarchies} hierarchies.`,
  );

/**
 * What is wrong with a dataset's hierarchies over its query columns (stored and calculated), by
 * field path ("hierarchies.0.2"): a column it does not have, a column that is no category (text
 * or true/false), a column in two places (a column drills one way).
 */
export function hierarchyErrors(
  columns: readonly { name: string; type: DatasetColumnType }[],
  hierarchies: readonly Hierarchy[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const typeOf = new Map(columns.map((column) => [column.name, column.type]));
  const seen = new Set<string>();
  hierarchies.forEach((levels, index) => {
    levels.forEach((column, level) => {
      const path = `hierarchies.${index}.${level}`;
      const type = typeOf.get(column);
      const problem =
        type === undefined
          ? `The dataset has no column "${column}".`
          : !isCategoryType(type)
            ? `"${column}" is a ${type} column; hierarchy levels are text or true/false columns.`
            : seen.has(column)
              ? `"${column}" is in a hierarchy already; a column drills one way.`
              : null;
      seen.add(column);
      if (problem !== null) errors[path] = [problem];
    });
  });
  return errors;
}

/**
 * The levels a chart whose x is `column` drills through, from that column down (["country",
 * "city"]); null when no hierarchy has it above its last level.
 */
export function hierarchyBelow(
  hierarchies: readonly Hierarchy[] | undefined,
  column: string,
): readonly string[] | null {
  for (const levels of hierarchies ?? []) {
    const at = levels.indexOf(column);
    if (at >= 0 && at < levels.length - 1) return levels.slice(at);
  }
  return null;
}

/** A hierarchy as a sentence reads it: "region → country → city". */
export function describeHierarchy(levels: Hierarchy): string {
  return levels.join(" → ");
}
