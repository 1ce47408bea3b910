import { type ChartQueryInput, percentileOfSorted } from "@seed/model";
import { expect } from "vitest";
import type { QueryResult, RunQueryOptions, StatQuery, StatValue } from "../src/index.js";

// One table of cases, run on SQLite and PostgreSQL through whole stores (query-cases.test.ts) and
// on DuckDB through the engine (query-cases-duckdb.test.ts): every engine must give exactly the
// expected rows. The values are exact in binary (halves and quarters), so sums do not depend on
// summing order.

export const rows = [
  { day: "2023-12-31", at: "2023-12-31T23:30:00.000Z", region: "North", revenue: 10, units: 1 },
  { day: "2024-01-01", at: "2024-01-01T00:30:00.000Z", region: "North", revenue: 20, units: 2 },
  { day: "2024-01-31", at: "2024-01-31T12:00:00.000Z", region: "South", revenue: 5, units: 1 },
  { day: "2024-02-28", at: "2024-02-28T12:00:00.000Z", region: "South", revenue: 7.5, units: 3 },
  { day: "2024-02-29", at: "2024-02-29T12:00:00.000Z", region: "East", revenue: 2.5, units: 1 },
  { day: "2024-03-01", at: "2024-03-01T12:00:00.000Z", region: "East", revenue: null, units: 4 },
  // Paris moves to summer time at 2024-03-31T01:00Z and back at 2024-10-27T01:00Z.
  { day: "2024-03-30", at: "2024-03-30T22:59:00.000Z", region: "West", revenue: 1, units: 1 },
  { day: "2024-03-31", at: "2024-03-31T00:30:00.000Z", region: "West", revenue: 2, units: 1 },
  { day: "2024-10-27", at: "2024-10-26T22:30:00.000Z", region: null, revenue: 4, units: 2 },
  { day: "2024-10-27", at: "2024-10-27T22:59:00.000Z", region: "North", revenue: 8, units: 2 },
  { day: "2024-12-30", at: "2024-12-30T08:00:00.000Z", region: "North", revenue: 16, units: 1 },
  { day: "2025-01-05", at: "2025-01-05T18:00:00.000Z", region: "South", revenue: 32, units: 5 },
];

export const columns = [
  { name: "day", type: "date" },
  { name: "at", type: "timestamp" },
  { name: "region", type: "string" },
  { name: "revenue", type: "number" },
  { name: "units", type: "number" },
] as const;

export const sum = (column: string) => ({ column, aggregate: "sum" as const });
export const count = { column: null, aggregate: "count" as const };

export interface Case {
  name: string;
  query: ChartQueryInput;
  options?: RunQueryOptions;
  series?: string[];
  rows: Array<Record<string, string | number | null>>;
}

export const cases: Case[] = [
  {
    name: "sum by ISO week of a date column (weeks start on Monday, across a year end)",
    query: { x: { column: "day", grain: "week" }, measures: [sum("revenue")] },
    rows: [
      { x: "2023-12-25", m0: 10 },
      { x: "2024-01-01", m0: 20 },
      { x: "2024-01-29", m0: 5 },
      { x: "2024-02-26", m0: 10 },
      { x: "2024-03-25", m0: 3 },
      { x: "2024-10-21", m0: 12 },
      { x: "2024-12-30", m0: 48 },
    ],
  },
  {
    name: "sum, count and average by month (month ends, a leap day, a null)",
    query: {
      x: { column: "day", grain: "month" },
      measures: [
        sum("revenue"),
        count,
        { column: "revenue", aggregate: "count" },
        { column: "revenue", aggregate: "avg" },
      ],
    },
    rows: [
      { x: "2023-12-01", m0: 10, m1: 1, m2: 1, m3: 10 },
      { x: "2024-01-01", m0: 25, m1: 2, m2: 2, m3: 12.5 },
      { x: "2024-02-01", m0: 10, m1: 2, m2: 2, m3: 5 },
      { x: "2024-03-01", m0: 3, m1: 3, m2: 2, m3: 1.5 },
      { x: "2024-10-01", m0: 12, m1: 2, m2: 2, m3: 6 },
      { x: "2024-12-01", m0: 16, m1: 1, m2: 1, m3: 16 },
      { x: "2025-01-01", m0: 32, m1: 1, m2: 1, m3: 32 },
    ],
  },
  {
    name: "min, max and distinct count by quarter",
    query: {
      x: { column: "day", grain: "quarter" },
      measures: [
        { column: "revenue", aggregate: "min" },
        { column: "revenue", aggregate: "max" },
        { column: "region", aggregate: "count_distinct" },
      ],
    },
    rows: [
      { x: "2023-10-01", m0: 10, m1: 10, m2: 1 },
      { x: "2024-01-01", m0: 1, m1: 20, m2: 4 },
      { x: "2024-10-01", m0: 4, m1: 16, m2: 1 },
      { x: "2025-01-01", m0: 32, m1: 32, m2: 1 },
    ],
  },
  {
    name: "a group whose only value is null sums to null (day grain)",
    query: {
      x: { column: "day", grain: "day" },
      measures: [sum("revenue")],
      filters: [{ column: "day", op: "between", from: "2024-02-29", to: "2024-03-01" }],
    },
    rows: [
      { x: "2024-02-29", m0: 2.5 },
      { x: "2024-03-01", m0: null },
    ],
  },
  {
    name: "timestamps by day in UTC",
    query: {
      x: { column: "at", grain: "day" },
      measures: [sum("revenue")],
      filters: [{ column: "at", op: "gte", value: "2024-03-30T00:00:00Z" }],
    },
    rows: [
      { x: "2024-03-30", m0: 1 },
      { x: "2024-03-31", m0: 2 },
      { x: "2024-10-26", m0: 4 },
      { x: "2024-10-27", m0: 8 },
      { x: "2024-12-30", m0: 16 },
      { x: "2025-01-05", m0: 32 },
    ],
  },
  {
    name: "timestamps by day in Europe/Paris, across both daylight-saving changes",
    query: { x: { column: "at", grain: "day" }, measures: [sum("revenue")] },
    options: { timeZone: "Europe/Paris" },
    rows: [
      { x: "2024-01-01", m0: 30 },
      { x: "2024-01-31", m0: 5 },
      { x: "2024-02-28", m0: 7.5 },
      { x: "2024-02-29", m0: 2.5 },
      { x: "2024-03-01", m0: null },
      { x: "2024-03-30", m0: 1 },
      { x: "2024-03-31", m0: 2 },
      { x: "2024-10-27", m0: 12 },
      { x: "2024-12-30", m0: 16 },
      { x: "2025-01-05", m0: 32 },
    ],
  },
  {
    name: "timestamps by year in America/New_York (the year's first hours in UTC belong to the last year)",
    query: { x: { column: "at", grain: "year" }, measures: [count] },
    options: { timeZone: "America/New_York" },
    rows: [
      { x: "2023-01-01", m0: 2 },
      { x: "2024-01-01", m0: 9 },
      { x: "2025-01-01", m0: 1 },
    ],
  },
  {
    name: "hour grain stays in UTC",
    query: {
      x: { column: "at", grain: "hour" },
      measures: [count],
      filters: [{ column: "at", op: "lt", value: "2024-01-02T00:00:00Z" }],
    },
    options: { timeZone: "Europe/Paris" },
    rows: [
      { x: "2023-12-31T23:00:00.000Z", m0: 1 },
      { x: "2024-01-01T00:00:00.000Z", m0: 1 },
    ],
  },
  {
    name: "breakdown by region, top 2 and the rest as Other",
    query: {
      x: { column: "day", grain: "year" },
      measures: [sum("revenue")],
      breakdown: { column: "region", top: 2 },
    },
    series: ["North", "South", "Other"],
    rows: [
      { x: "2023-01-01", s0: 10, s1: null, other: null },
      { x: "2024-01-01", s0: 44, s1: 12.5, other: 9.5 },
      { x: "2025-01-01", s0: null, s1: 32, other: null },
    ],
  },
  {
    name: "breakdown with empty values as their own series",
    query: {
      x: { column: "day", grain: "year" },
      measures: [sum("revenue")],
      breakdown: { column: "region", top: 3 },
    },
    series: ["North", "South", "(empty)", "Other"],
    rows: [
      { x: "2023-01-01", s0: 10, s1: null, s2: null, other: null },
      { x: "2024-01-01", s0: 44, s1: 12.5, s2: 4, other: 5.5 },
      { x: "2025-01-01", s0: null, s1: 32, s2: null, other: null },
    ],
  },
  {
    name: "equals and not equals (empty cells are not equal to anything)",
    query: {
      x: { column: "day", grain: "year" },
      measures: [sum("revenue")],
      filters: [{ column: "region", op: "neq", value: "North" }],
    },
    rows: [
      { x: "2024-01-01", m0: 22 },
      { x: "2025-01-01", m0: 32 },
    ],
  },
  {
    name: "in, by category, sorted by value descending",
    query: {
      x: { column: "region" },
      measures: [count],
      filters: [{ column: "region", op: "in", values: ["East", "West", "South"] }],
      sort: { by: "value", direction: "desc" },
    },
    rows: [
      { x: "South", m0: 3 },
      { x: "East", m0: 2 },
      { x: "West", m0: 2 },
    ],
  },
  {
    name: "top categories by value with a limit; empty category last when sorting by x",
    query: {
      x: { column: "region" },
      measures: [sum("revenue")],
      sort: { by: "value", direction: "desc" },
      limit: 2,
    },
    rows: [
      { x: "North", m0: 54 },
      { x: "South", m0: 44.5 },
    ],
  },
  {
    name: "top 2 by value and Other: the rest measured from its rows (sum, distinct, count)",
    query: {
      x: { column: "region" },
      measures: [sum("revenue"), { column: "day", aggregate: "count_distinct" }, count],
      sort: { by: "value", direction: "desc" },
      limit: 2,
      other: true,
    },
    rows: [
      { x: "North", m0: 54, m1: 4, m2: 4 },
      { x: "South", m0: 44.5, m1: 3, m2: 3 },
      // The empty region (4), West (1, 2) and East (2.5 and an empty revenue).
      { x: "Other", m0: 9.5, m1: 5, m2: 5 },
    ],
  },
  {
    name: "an average of Other is the rest's rows' average, not an average of averages",
    query: {
      x: { column: "region" },
      measures: [
        { column: "revenue", aggregate: "avg" },
        { column: "revenue", aggregate: "min" },
      ],
      filters: [{ column: "region", op: "in", values: ["East", "West", "North"] }],
      limit: 1,
      other: true,
    },
    rows: [
      { x: "East", m0: 2.5, m1: 2.5 },
      // North (10, 20, 8, 16) and West (1, 2): 57 / 6, where the groups' averages give 7.5.
      { x: "Other", m0: 9.5, m1: 1 },
    ],
  },
  {
    name: "first 3 by x and Other holding the empty group; no Other when every group fits",
    query: {
      x: { column: "region" },
      measures: [sum("revenue"), { column: "revenue", aggregate: "min" }],
      limit: 3,
      other: true,
    },
    rows: [
      { x: "East", m0: 2.5, m1: 2.5 },
      { x: "North", m0: 54, m1: 8 },
      { x: "South", m0: 44.5, m1: 5 },
      { x: "Other", m0: 7, m1: 1 },
    ],
  },
  {
    name: "Other is left out when the limit keeps every group",
    query: { x: { column: "region" }, measures: [count], limit: 5, other: true },
    rows: [
      { x: "East", m0: 2 },
      { x: "North", m0: 4 },
      { x: "South", m0: 3 },
      { x: "West", m0: 2 },
      { x: null, m0: 1 },
    ],
  },
  {
    name: "the last 2 months of the data (anchored to the newest day, not today)",
    query: {
      x: { column: "day", grain: "month" },
      measures: [sum("revenue")],
      filters: [
        { column: "day", op: "relative", unit: "month", which: "last_n", n: 2, anchor: "latest" },
      ],
    },
    options: { now: new Date("2031-02-03T12:00:00Z") },
    rows: [
      { x: "2024-12-01", m0: 16 },
      { x: "2025-01-01", m0: 32 },
    ],
  },
  {
    name: "the quarter before the newest one of the data, by a timestamp in Paris",
    query: {
      x: { column: "region" },
      measures: [count],
      filters: [
        { column: "at", op: "relative", unit: "quarter", which: "previous", anchor: "latest" },
      ],
    },
    options: { timeZone: "Europe/Paris" },
    rows: [
      { x: "North", m0: 2 },
      { x: null, m0: 1 },
    ],
  },
  {
    name: "share of the total over every row the filters keep, the groups past the limit included",
    query: {
      x: { column: "region" },
      measures: [
        { ...sum("revenue"), show: "share_of_total" },
        { ...count, show: "share_of_total" },
      ],
      sort: { by: "value", direction: "desc" },
      limit: 2,
    },
    series: ["Sum of revenue (share of total)", "Count (share of total)"],
    rows: [
      { x: "North", m0: 54 / 108, m1: 4 / 12 },
      { x: "South", m0: 44.5 / 108, m1: 3 / 12 },
    ],
  },
  {
    name: "count where, sum where and a median where beside the plain count (a group none of whose rows pass counts 0 and sums nothing)",
    query: {
      x: { column: "region" },
      measures: [
        count,
        { ...count, where: [{ column: "revenue", op: "gt", value: 5 }] },
        { ...sum("revenue"), where: [{ column: "units", op: "gte", value: 2 }] },
        {
          column: "revenue",
          aggregate: "median",
          where: [{ column: "day", op: "between", from: "2024-01-01", to: "2024-12-31" }],
        },
      ],
    },
    series: [
      "Count",
      "Count where revenue > 5",
      "Sum of revenue where units ≥ 2",
      "Median of revenue where day from 2024-01-01 to 2024-12-31",
    ],
    rows: [
      { x: "East", m0: 2, m1: 0, m2: null, m3: 2.5 },
      { x: "North", m0: 4, m1: 4, m2: 28, m3: 16 },
      { x: "South", m0: 3, m1: 2, m2: 39.5, m3: 6.25 },
      { x: "West", m0: 2, m1: 0, m2: null, m3: 1.5 },
      { x: null, m0: 1, m1: 0, m2: 4, m3: 4 },
    ],
  },
  {
    name: "a formula of aggregates (revenue per unit) ranks the regions, and Other is the rest's sums divided, not an average of ratios",
    query: {
      x: { column: "region" },
      measures: [{ column: null, aggregate: "formula", formula: "sum([revenue]) / sum([units])" }],
      sort: { by: "value", direction: "desc" },
      limit: 2,
      other: true,
    },
    series: ["sum([revenue]) / sum([units])"],
    rows: [
      { x: "North", m0: 54 / 6 },
      { x: "South", m0: 44.5 / 9 },
      { x: "Other", m0: 9.5 / 9 },
    ],
  },
  {
    name: "formulas with count(), conditions inside and beside them, a median, a distinct count and a division by zero",
    query: {
      x: { column: "region" },
      measures: [
        { column: null, aggregate: "formula", formula: "count([revenue]) / count()" },
        {
          column: null,
          aggregate: "formula",
          formula: "sum(if([units] >= 2, [revenue], 0)) / sum(if([units] >= 2, [units], 0))",
        },
        {
          column: null,
          aggregate: "formula",
          formula: "max([revenue]) - min([revenue])",
          where: [{ column: "day", op: "gte", value: "2024-01-01" }],
        },
        { column: null, aggregate: "formula", formula: "median([units]) + countDistinct([day])" },
      ],
    },
    rows: [
      { x: "East", m0: 0.5, m1: 0, m2: 0, m3: 4.5 },
      { x: "North", m0: 1, m1: 7, m2: 12, m3: 5.5 },
      { x: "South", m0: 1, m1: 39.5 / 8, m2: 27, m3: 6 },
      { x: "West", m0: 1, m1: null, m2: 1, m3: 3 },
      { x: null, m0: 1, m1: 2, m2: 0, m3: 3 },
    ],
  },
  {
    name: "a formula split by the top region and Other, by year, each cell from its own rows",
    query: {
      x: { column: "day", grain: "year" },
      measures: [{ column: null, aggregate: "formula", formula: "sum([revenue]) / sum([units])" }],
      breakdown: { column: "region", top: 1 },
    },
    series: ["North", "Other"],
    rows: [
      { x: "2023-01-01", s0: 10, other: null },
      { x: "2024-01-01", s0: 44 / 5, other: 22 / 13 },
      { x: "2025-01-01", s0: null, other: 32 / 5 },
    ],
  },
  {
    name: "a count where ranks the groups, and Other counts the rest's passing rows only",
    query: {
      x: { column: "region" },
      measures: [
        {
          ...count,
          where: [
            { column: "revenue", op: "gt", value: 5 },
            { column: "region", op: "neq", value: "North" },
          ],
        },
      ],
      sort: { by: "value", direction: "desc" },
      limit: 1,
      other: true,
    },
    series: ["Count where revenue > 5 and region is not North"],
    rows: [
      { x: "South", m0: 2 },
      { x: "Other", m0: 0 },
    ],
  },
  {
    name: "a running total by month, beside the month's own sum",
    query: {
      x: { column: "day", grain: "month" },
      measures: [sum("revenue"), { ...sum("revenue"), show: "running_total" }],
    },
    rows: [
      { x: "2023-12-01", m0: 10, m1: 10 },
      { x: "2024-01-01", m0: 25, m1: 35 },
      { x: "2024-02-01", m0: 10, m1: 45 },
      { x: "2024-03-01", m0: 3, m1: 48 },
      { x: "2024-10-01", m0: 12, m1: 60 },
      { x: "2024-12-01", m0: 16, m1: 76 },
      { x: "2025-01-01", m0: 32, m1: 108 },
    ],
  },
  {
    name: "running totals by year for each of the top 2 regions and Other",
    query: {
      x: { column: "day", grain: "year" },
      measures: [{ ...sum("revenue"), show: "running_total" }],
      breakdown: { column: "region", top: 2 },
    },
    series: ["North", "South", "Other"],
    rows: [
      { x: "2023-01-01", s0: 10, s1: null, other: null },
      { x: "2024-01-01", s0: 54, s1: 12.5, other: 9.5 },
      { x: "2025-01-01", s0: 54, s1: 44.5, other: 9.5 },
    ],
  },
  {
    name: "top 2 by the second measure (a count), the first (a sum) beside it",
    query: {
      x: { column: "region" },
      measures: [sum("revenue"), count],
      sort: { by: "value", direction: "desc", measure: 1 },
      limit: 2,
    },
    rows: [
      { x: "North", m0: 54, m1: 4 },
      { x: "South", m0: 44.5, m1: 3 },
    ],
  },
  {
    name: "raw values ordered by the second measure, smallest first",
    query: {
      x: { column: "day" },
      measures: [
        { column: "units", aggregate: "none" },
        { column: "revenue", aggregate: "none" },
      ],
      filters: [{ column: "region", op: "eq", value: "South" }],
      sort: { by: "value", direction: "asc", measure: 1 },
    },
    rows: [
      { x: "2024-01-31", m0: 1, m1: 5 },
      { x: "2024-02-28", m0: 3, m1: 7.5 },
      { x: "2025-01-05", m0: 5, m1: 32 },
    ],
  },
  {
    name: "the same two days a year before, across a leap day (three days of 2024)",
    query: {
      x: { column: "day" },
      measures: [sum("revenue"), count],
      filters: [
        { column: "day", op: "relative", unit: "day", which: "last_n", n: 2, yearsBack: 1 },
      ],
    },
    options: { now: new Date("2025-03-01T12:00:00Z") },
    rows: [
      { x: "2024-02-28", m0: 7.5, m1: 1 },
      { x: "2024-02-29", m0: 2.5, m1: 1 },
      { x: "2024-03-01", m0: null, m1: 1 },
    ],
  },
  {
    name: "median and percentiles by region: interpolated between the values in order",
    query: {
      x: { column: "region" },
      measures: [
        { column: "revenue", aggregate: "median" },
        { column: "revenue", aggregate: "p25" },
        { column: "revenue", aggregate: "p90" },
      ],
      filters: [{ column: "region", op: "in", values: ["North", "South", "East"] }],
    },
    series: ["Median of revenue", "25th percentile of revenue", "90th percentile of revenue"],
    rows: [
      // East: 2.5 and an empty revenue, which no percentile counts.
      { x: "East", m0: 2.5, m1: 2.5, m2: 2.5 },
      // North in order: 8, 10, 16, 20.
      {
        x: "North",
        m0: 13,
        m1: 9.5,
        m2: 16 * (1 - (3 * 0.9 - 2)) + 20 * (3 * 0.9 - 2),
      },
      // South in order: 5, 7.5, 32.
      { x: "South", m0: 7.5, m1: 6.25, m2: 7.5 * (1 - (2 * 0.9 - 1)) + 32 * (2 * 0.9 - 1) },
    ],
  },
  {
    name: "a median split by region ranks its series in SQL, Other's median from its own rows",
    query: {
      x: { column: "day", grain: "year" },
      measures: [{ column: "revenue", aggregate: "median" }],
      breakdown: { column: "region", top: 1 },
    },
    // North's median over everything (13) ranks first.
    series: ["North", "Other"],
    rows: [
      { x: "2023-01-01", s0: 10, other: null },
      // North in 2024: 8, 16, 20; the rest: 1, 2, 2.5, 4, 5, 7.5.
      { x: "2024-01-01", s0: 16, other: 3.25 },
      { x: "2025-01-01", s0: null, other: 32 },
    ],
  },
  {
    name: "the change from the month before, none where that month has no rows",
    query: {
      x: { column: "day", grain: "month" },
      measures: [{ ...sum("revenue"), show: "change_from_previous" }],
    },
    series: ["Sum of revenue (change from the period before)"],
    rows: [
      { x: "2023-12-01", m0: null },
      { x: "2024-01-01", m0: (25 - 10) / 10 },
      { x: "2024-02-01", m0: (10 - 25) / 25 },
      { x: "2024-03-01", m0: (3 - 10) / 10 },
      { x: "2024-10-01", m0: null },
      { x: "2024-12-01", m0: null },
      { x: "2025-01-01", m0: (32 - 16) / 16 },
    ],
  },
  {
    name: "the change from the year before for the top region and Other",
    query: {
      x: { column: "day", grain: "year" },
      measures: [{ ...sum("revenue"), show: "change_from_previous" }],
      breakdown: { column: "region", top: 1 },
    },
    series: ["North", "Other"],
    rows: [
      { x: "2023-01-01", s0: null, other: null },
      // North: 10 then 20 + 8 + 16; the rest: nothing in 2023, 22 in 2024, 32 in 2025.
      { x: "2024-01-01", s0: (44 - 10) / 10, other: null },
      { x: "2025-01-01", s0: null, other: (32 - 22) / 22 },
    ],
  },
  {
    name: "the change from the same month a year before, beside the month's own sum",
    query: {
      x: { column: "day", grain: "month" },
      measures: [sum("revenue"), { ...sum("revenue"), show: "change_from_year_before" }],
    },
    series: ["Sum of revenue", "Sum of revenue (change from a year before)"],
    rows: [
      { x: "2023-12-01", m0: 10, m1: null },
      { x: "2024-01-01", m0: 25, m1: null },
      { x: "2024-02-01", m0: 10, m1: null },
      { x: "2024-03-01", m0: 3, m1: null },
      { x: "2024-10-01", m0: 12, m1: null },
      { x: "2024-12-01", m0: 16, m1: (16 - 10) / 10 },
      { x: "2025-01-01", m0: 32, m1: (32 - 25) / 25 },
    ],
  },
  {
    name: "the change from a year before reads the year-earlier months outside the last 2 months of the data",
    query: {
      x: { column: "day", grain: "month" },
      measures: [{ ...sum("revenue"), show: "change_from_year_before" }],
      filters: [
        { column: "day", op: "relative", unit: "month", which: "last_n", n: 2, anchor: "latest" },
      ],
    },
    rows: [
      { x: "2024-12-01", m0: (16 - 10) / 10 },
      { x: "2025-01-01", m0: (32 - 25) / 25 },
    ],
  },
  {
    name: "categories sorted by x descending, the empty group last",
    query: { x: { column: "region" }, measures: [count], sort: { by: "x", direction: "desc" } },
    rows: [
      { x: "West", m0: 2 },
      { x: "South", m0: 3 },
      { x: "North", m0: 4 },
      { x: "East", m0: 2 },
      { x: null, m0: 1 },
    ],
  },
  {
    name: "less than, empty and not empty",
    query: {
      x: { column: "day", grain: "year" },
      measures: [count],
      filters: [
        { column: "revenue", op: "lt", value: 5 },
        { column: "region", op: "not_empty" },
      ],
    },
    rows: [{ x: "2024-01-01", m0: 3 }],
  },
  {
    name: "relative: previous month of a date column",
    query: {
      x: { column: "region" },
      measures: [sum("revenue")],
      filters: [{ column: "day", op: "relative", unit: "month", which: "previous" }],
    },
    options: { now: new Date("2024-11-15T12:00:00Z") },
    rows: [
      { x: "North", m0: 8 },
      { x: null, m0: 4 },
    ],
  },
  {
    name: "relative: this quarter and the last 2 years",
    query: {
      x: { column: "day", grain: "quarter" },
      measures: [sum("revenue")],
      filters: [{ column: "day", op: "relative", unit: "year", which: "last_n", n: 2 }],
    },
    options: { now: new Date("2024-11-15T12:00:00Z") },
    rows: [
      { x: "2023-10-01", m0: 10 },
      { x: "2024-01-01", m0: 38 },
      { x: "2024-10-01", m0: 28 },
    ],
  },
  {
    name: "relative: this year of a timestamp follows the time zone",
    query: {
      x: { column: "at", grain: "year" },
      measures: [sum("revenue")],
      filters: [{ column: "at", op: "relative", unit: "year", which: "this" }],
    },
    options: { now: new Date("2024-12-31T23:30:00Z"), timeZone: "Europe/Paris" },
    rows: [{ x: "2025-01-01", m0: 32 }],
  },
  {
    name: "relative: this year in UTC at the same instant",
    query: {
      x: { column: "at", grain: "year" },
      measures: [sum("revenue")],
      filters: [{ column: "at", op: "relative", unit: "year", which: "this" }],
    },
    options: { now: new Date("2024-12-31T23:30:00Z") },
    rows: [{ x: "2024-01-01", m0: 66 }],
  },
  {
    name: "raw series keep every row, duplicates of x included, in x order",
    query: {
      x: { column: "day" },
      measures: [{ column: "units", aggregate: "none" }],
      filters: [{ column: "day", op: "gte", value: "2024-10-01" }],
    },
    rows: [
      { x: "2024-10-27", m0: 2 },
      { x: "2024-10-27", m0: 2 },
      { x: "2024-12-30", m0: 1 },
      { x: "2025-01-05", m0: 5 },
    ],
  },
  {
    name: "raw series over timestamps read back as ISO instants",
    query: {
      x: { column: "at" },
      measures: [{ column: "revenue", aggregate: "none" }],
      filters: [{ column: "region", op: "eq", value: "West" }],
    },
    rows: [
      { x: "2024-03-30T22:59:00.000Z", m0: 1 },
      { x: "2024-03-31T00:30:00.000Z", m0: 2 },
    ],
  },
  {
    name: "a filter that keeps nothing gives no rows",
    query: {
      x: { column: "day", grain: "month" },
      measures: [sum("revenue")],
      filters: [{ column: "region", op: "eq", value: "Nowhere" }],
    },
    rows: [],
  },
];

/** Runs a chart query on the case dataset. */
export type RunCase = (query: ChartQueryInput, options?: RunQueryOptions) => Promise<QueryResult>;

/** Stat tiles on the case dataset: every aggregation, "last", and a previous-period comparison. */
export async function expectStatTiles(
  stat: (query: StatQuery, options?: RunQueryOptions) => Promise<StatValue>,
) {
  expect(await stat({ column: "revenue", aggregation: "sum" })).toEqual({
    value: 108,
    delta: null,
    deltaLabel: null,
    empty: null,
    previous: null,
  });
  expect((await stat({ column: "revenue", aggregation: "avg" })).value).toBeCloseTo(108 / 11);
  expect((await stat({ column: "revenue", aggregation: "count" })).value).toBe(11);
  expect((await stat({ column: "region", aggregation: "count" })).value).toBe(11);
  expect((await stat({ column: "revenue", aggregation: "min" })).value).toBe(1);
  expect((await stat({ column: "revenue", aggregation: "max" })).value).toBe(32);
  // The eleven non-empty values in order: 1 2 2.5 4 5 7.5 8 10 16 20 32 (percentileOf's rule).
  expect((await stat({ column: "revenue", aggregation: "median" })).value).toBe(7.5);
  expect((await stat({ column: "revenue", aggregation: "p90" })).value).toBe(20);
  expect((await stat({ column: "revenue", aggregation: "p95" })).value).toBe(26);
  const ordered = [1, 2, 2.5, 4, 5, 7.5, 8, 10, 16, 20, 32];
  for (const [aggregation, p] of [
    ["p25", 0.25],
    ["p75", 0.75],
    ["p99", 0.99],
  ] as const) {
    expect((await stat({ column: "revenue", aggregation })).value).toBe(
      percentileOfSorted(ordered, p),
    );
  }
  expect(await stat({ column: "revenue", aggregation: "last" })).toEqual({
    value: 32,
    delta: 1,
    deltaLabel: "vs previous",
    empty: null,
    previous: 16,
  });
  // "last" keeps to the rows the tile's filters keep, and skips empty values.
  const last = (region: string) =>
    stat({
      column: "revenue",
      aggregation: "last",
      filters: [{ column: "region", op: "eq", value: region }],
    });
  expect(await last("West")).toEqual({
    value: 2,
    delta: 1,
    deltaLabel: "vs previous",
    empty: null,
    previous: 1,
  });
  expect(await last("East")).toEqual({
    value: 2.5,
    delta: null,
    deltaLabel: null,
    empty: null,
    previous: null,
  });
  expect(await last("Nowhere")).toEqual({
    value: null,
    delta: null,
    deltaLabel: null,
    empty: "No rows match the filters.",
    previous: null,
  });
  // February 2024 (7.5 + 2.5) against January 2024 (20 + 5): -60%.
  const compared = await stat(
    {
      column: "revenue",
      aggregation: "sum",
      filters: [{ column: "day", op: "relative", unit: "month", which: "previous" }],
      compare: true,
    },
    { now: new Date("2024-03-15T12:00:00Z") },
  );
  expect(compared).toEqual({
    value: 10,
    delta: -0.6,
    deltaLabel: "vs previous period",
    empty: null,
    previous: 25,
  });
  // No rows in the period before: no percentage, never a division by zero.
  const fromNothing = await stat(
    {
      column: "revenue",
      aggregation: "sum",
      filters: [{ column: "day", op: "relative", unit: "quarter", which: "this" }],
      compare: true,
    },
    { now: new Date("2024-11-15T12:00:00Z") },
  );
  expect(fromNothing).toEqual({
    value: 28,
    delta: null,
    deltaLabel: null,
    empty: null,
    previous: null,
  });

  // The same period a year before: January 2025 (32) against January 2024 (20 + 5), not against
  // December 2024 (16), the period just before.
  const january = { now: new Date("2025-01-20T12:00:00Z") };
  const thisMonth = {
    column: "day",
    op: "relative",
    unit: "month",
    which: "this",
  } as const;
  expect(
    await stat(
      {
        column: "revenue",
        aggregation: "sum",
        filters: [thisMonth],
        compare: true,
        compareWith: "previous_year",
      },
      january,
    ),
  ).toEqual({
    value: 32,
    delta: 0.28,
    deltaLabel: "vs same period last year",
    empty: null,
    previous: 25,
  });
  expect(
    await stat(
      { column: "revenue", aggregation: "sum", filters: [thisMonth], compare: true },
      january,
    ),
  ).toEqual({ value: 32, delta: 1, deltaLabel: "vs previous period", empty: null, previous: 16 });

  // Periods anchored to the data: the rows end on 2025-01-05, whatever today is.
  const later = { now: new Date("2030-06-15T12:00:00Z") };
  const last30 = {
    column: "day",
    op: "relative",
    unit: "day",
    which: "last_n",
    n: 30,
  } as const;
  // 2024-12-07 to 2025-01-05: 16 + 32; the 30 days before hold nothing, so no percentage.
  expect(
    await stat(
      {
        column: "revenue",
        aggregation: "sum",
        filters: [{ ...last30, anchor: "latest" }],
        compare: true,
      },
      later,
    ),
  ).toEqual({ value: 48, delta: null, deltaLabel: null, empty: null, previous: null });
  // Counted back from today instead: an empty tile says which period holds no rows.
  expect(await stat({ column: "revenue", aggregation: "sum", filters: [last30] }, later)).toEqual({
    value: null,
    delta: null,
    deltaLabel: null,
    empty: "No rows in the last 30 days (2030-05-17 to 2030-06-15).",
    previous: null,
  });
  // The newest value is the column's, whatever the other filters keep.
  expect(
    await stat(
      {
        column: "revenue",
        aggregation: "max",
        filters: [
          { ...last30, anchor: "latest" },
          { column: "region", op: "eq", value: "East" },
        ],
      },
      later,
    ),
  ).toEqual({
    value: null,
    delta: null,
    deltaLabel: null,
    empty: "No rows in the last 30 days of the data (2024-12-07 to 2025-01-05).",
    previous: null,
  });
  // Rows in the period, but no value in the column: said so.
  expect(
    await stat({
      column: "revenue",
      aggregation: "sum",
      filters: [{ column: "day", op: "eq", value: "2024-03-01" }],
    }),
  ).toEqual({
    value: null,
    delta: null,
    deltaLabel: null,
    empty: 'No values of "revenue" in these rows.',
    previous: null,
  });
  // A timestamp's newest instant counts in the zone: 2025-01-05T18:00Z is 2025-01-06 in
  // Kiritimati (UTC+14), so "the newest day" there holds that row alone.
  expect(
    await stat(
      {
        column: "revenue",
        aggregation: "sum",
        filters: [{ column: "at", op: "relative", unit: "day", which: "this", anchor: "latest" }],
      },
      { ...later, timeZone: "Pacific/Kiritimati" },
    ),
  ).toEqual({ value: 32, delta: null, deltaLabel: null, empty: null, previous: null });
}

/** A breakdown by an average (not foldable: ranked in SQL first). */
export async function expectAverageBreakdown(run: RunCase) {
  const result = await run({
    x: { column: "day", grain: "year" },
    measures: [{ column: "revenue", aggregate: "avg" }],
    breakdown: { column: "region", top: 2 },
  });
  expect(result.series.map((series) => series.label)).toEqual(["South", "North", "Other"]);
  const [y2023, y2024, y2025] = result.rows;
  expect(y2023).toEqual({ x: "2023-01-01", s0: null, s1: 10, other: null });
  expect(y2024).toMatchObject({ x: "2024-01-01", s0: 6.25, other: 2.375 });
  expect(y2024?.s1).toBeCloseTo(44 / 3);
  expect(y2025).toEqual({ x: "2025-01-01", s0: 32, s1: null, other: null });
}

/** Raw rows that share an x value are counted and named in a note. */
export async function expectDuplicateX(run: RunCase) {
  const result = await run({
    x: { column: "day" },
    measures: [{ column: "revenue", aggregate: "none" }],
  });
  expect(result.rows).toHaveLength(rows.length);
  expect(result.duplicateX).toBe(1);
  expect(result.notes.join(" ")).toMatch(/1 rows share an x value/);
}
