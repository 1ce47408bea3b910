import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Role, roles } from "../src/access.js";
import {
  accountAttributeLimits,
  boundedAttributes,
  type GroupRowAccess,
  type RowLimitConditions,
  resolveRowLimits,
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

describe("account attributes in row limits", () => {
  it("compares a text column with the account's values; other columns and bad names are refused", () => {
    const parsed = rowLimitSchema.parse({
      conditions: [{ column: "region", op: "is_attribute", attribute: "region" }],
    });
    expect(rowLimitProblems(parsed.conditions, columns)).toEqual({});
    expect(rowLimitPhrase(parsed.conditions)).toBe("region is the account's region");
    const onNumber = rowLimitSchema.parse({
      conditions: [{ column: "sales", op: "is_attribute", attribute: "region" }],
    });
    expect(Object.keys(rowLimitProblems(onNumber.conditions, columns))).toEqual([
      "conditions.0.op",
    ]);
    expect(
      rowLimitSchema.safeParse({
        conditions: [{ column: "region", op: "is_attribute", attribute: "Region!" }],
      }).success,
    ).toBe(false);
  });

  it("resolves to the account's values; an account without the attribute gets none of that limit's rows", () => {
    const byRegion: RowLimitConditions = [
      { column: "region", op: "is_attribute", attribute: "region" },
      { column: "sales", op: "gt", value: 0 },
    ];
    const north: RowLimitConditions = [{ column: "region", op: "eq", value: "North" }];
    expect(resolveRowLimits([byRegion], { region: ["East", "West"] })).toEqual([
      [
        { column: "region", op: "in", values: ["East", "West"] },
        { column: "sales", op: "gt", value: 0 },
      ],
    ]);
    expect(resolveRowLimits([byRegion], {})).toEqual([]);
    expect(resolveRowLimits([byRegion], { region: [] })).toEqual([]);
    // "constructor" and the like are no attribute of an account that has none.
    expect(
      resolveRowLimits([[{ column: "region", op: "is_attribute", attribute: "constructor" }]], {}),
    ).toEqual([]);
    expect(resolveRowLimits([byRegion, north], {})).toEqual([north]);
  });

  it("bounds what a provider's claims give, leaving out (never cutting) what does not fit", () => {
    const long = "x".repeat(accountAttributeLimits.maxValueLength + 1);
    const { attributes, refused } = boundedAttributes({
      region: ["North", "North", long, 7],
      "Bad Name": ["x"],
    });
    expect(attributes).toEqual({ region: ["North", "7"] });
    expect(refused).toEqual(["region value", "Bad Name"]);
  });
});
