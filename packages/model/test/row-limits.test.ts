import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Role, roles } from "../src/access.js";
import {
  type GroupRowAccess,
  type RowLimitConditions,
  rowLimitLimits,
  rowLimitPhrase,
  rowLimitProblems,
  rowLimitSchema,
  rowsSeenBy,
} from "../src/row-limits.js";

const columns = [
  { name: "region", type: "string" as const },
  { name: "sales", type: "number" as const },
  { name: "day", type: "date" as const },
];

describe("row limit conditions", () => {
  it("takes one to ten fixed conditions and names what is wrong with the rest", () => {
    const north = { column: "region", op: "eq", value: "North" };
    expect(rowLimitSchema.safeParse({ conditions: [north] }).success).toBe(true);
    expect(rowLimitSchema.safeParse({ conditions: [] }).error?.issues[0]?.message).toBe(
      "Give at least one condition.",
    );
    const many = Array.from({ length: rowLimitLimits.maxConditions + 1 }, () => north);
    expect(rowLimitSchema.safeParse({ conditions: many }).success).toBe(false);
    const calendar = rowLimitSchema.safeParse({
      conditions: [{ column: "day", op: "relative", unit: "day", which: "last_n", n: 30 }],
    });
    expect(calendar.error?.issues[0]?.path).toEqual(["conditions", 0, "op"]);
  });

  it("checks conditions against the dataset's columns like a chart's filters", () => {
    const conditions: RowLimitConditions = [
      { column: "region", op: "eq", value: "North" },
      { column: "missing", op: "eq", value: "x" },
      { column: "sales", op: "gt", value: "lots" },
    ];
    const problems = rowLimitProblems(conditions, columns);
    expect(Object.keys(problems).sort()).toEqual(["conditions.1.column", "conditions.2.value"]);
    expect(rowLimitPhrase(conditions.slice(0, 1))).toBe("region is North");
  });
});

describe("the rows an account reads", () => {
  const condition = fc
    .constantFrom("North", "South", "East", "")
    .map((value): RowLimitConditions => [{ column: "region", op: "eq", value }]);
  const group: fc.Arbitrary<GroupRowAccess> = fc.record({
    limit: fc.option(condition, { nil: null }),
    grantsCollection: fc.boolean(),
  });

  it("never widens for a limited account and never narrows for an admin (property)", () => {
    const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
    console.log(`row limits property seed: ${seed} (rerun with SEED=${seed})`);
    fc.assert(
      fc.property(
        fc.constantFrom<Role | null>(...roles, null),
        fc.array(group, { maxLength: 8 }),
        (role, groups) => {
          const seen = rowsSeenBy(role, groups);
          const limits = groups.flatMap((one) => (one.limit ? [one.limit] : []));
          const freeGrant = groups.some((one) => one.limit === null && one.grantsCollection);
          if (role === "admin" || limits.length === 0 || freeGrant) {
            expect(seen).toBeNull();
            return;
          }
          // Exactly its groups' limits: no condition set it was not given, none of them dropped.
          expect(seen).toEqual(limits);
          // A group with no limit that is not granted the collection (Shared, or another
          // collection) does not lift the others' limits.
          expect(rowsSeenBy(role, [...groups, { limit: null, grantsCollection: false }])).toEqual(
            limits,
          );
          // An unlimited grant on the collection gives every row.
          expect(rowsSeenBy(role, [...groups, { limit: null, grantsCollection: true }])).toBeNull();
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });
});
