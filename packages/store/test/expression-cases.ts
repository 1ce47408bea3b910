// One table of calculated-field expressions, each evaluated over the same five rows on SQLite,
// PostgreSQL and DuckDB (expression-cases.test.ts): every engine must give exactly these values,
// as query results carry them (numbers, text, yyyy-mm-dd, epoch ms, booleans as 1/0). Time zone:
// Europe/Paris, which moves to summer time at 2024-03-31T01:00Z and back at 2024-10-27T01:00Z.

export const timeZone = "Europe/Paris";

export const columns = [
  { name: "n", type: "number" },
  { name: "m", type: "number" },
  { name: "t", type: "string" },
  { name: "d", type: "date" },
  { name: "ts", type: "timestamp" },
  { name: "b", type: "boolean" },
] as const;

export const rows = [
  // Paris 23:59 CET on the 30th, a leap day.
  { n: 7, m: 2, t: "Été à Paris", d: "2024-02-29", ts: "2024-03-30T22:59:00.000Z", b: true },
  // Paris 03:30 CEST, just after the spring change; a division by zero.
  { n: -2.5, m: 0, t: "  abc  ", d: "2024-01-31", ts: "2024-03-31T01:30:00.000Z", b: false },
  { n: null, m: null, t: null, d: null, ts: null, b: null },
  // Paris 02:30 CEST, half an hour before the autumn change.
  { n: 1234.5, m: -4, t: "🎉x", d: "2024-12-30", ts: "2024-10-27T00:30:00.000Z", b: true },
  // Paris 02:30 CET, the second 02:30 of that night.
  { n: 0.125, m: 8, t: "", d: "2023-03-26", ts: "2024-10-27T01:30:00.000Z", b: false },
];

type Value = string | number | null;

export interface ExpressionCase {
  expression: string;
  values: [Value, Value, Value, Value, Value];
}

const all = (value: Value): ExpressionCase["values"] => [value, value, value, value, value];

export const expressionCases: ExpressionCase[] = [
  // Arithmetic: numbers are doubles, a division by zero is empty.
  { expression: "[n] + [m] * 2", values: [11, -2.5, null, 1226.5, 16.125] },
  { expression: "[n] - [m]", values: [5, -2.5, null, 1238.5, -7.875] },
  { expression: "[n] / [m]", values: [3.5, null, null, -308.625, 0.015625] },
  { expression: "7 / 2", values: all(3.5) },
  { expression: "1 / 0", values: all(null) },
  { expression: "length([t]) / 2", values: [5.5, 3.5, null, 1, 0] },
  { expression: "-[n]", values: [-7, 2.5, null, -1234.5, -0.125] },
  // Comparisons and logic (three-valued: unknown stays unknown).
  { expression: "[n] > [m]", values: [1, 0, null, 1, 0] },
  { expression: '[t] < "b"', values: [0, 1, null, 0, 1] },
  { expression: '[d] >= date("2024-02-01")', values: [1, 0, null, 1, 0] },
  { expression: "[ts] = [ts]", values: [1, 1, null, 1, 1] },
  { expression: "[b] = false", values: [0, 1, null, 0, 1] },
  { expression: "[b] and [n] > 0", values: [1, 0, null, 1, 0] },
  { expression: "not [b] or isNull([n])", values: [0, 1, 1, 0, 1] },
  // Conditionals.
  {
    expression: 'if([m] > 0, "pos", "not pos")',
    values: ["pos", "not pos", "not pos", "not pos", "pos"],
  },
  {
    expression: 'case([n] > 100, "big", [n] > 0, "small")',
    values: ["small", null, null, "big", "small"],
  },
  {
    expression: 'case([n] > 100, "big", [n] > 0, "small", "other")',
    values: ["small", "other", "other", "big", "small"],
  },
  { expression: "if([b], [d], null)", values: ["2024-02-29", null, null, "2024-12-30", null] },
  { expression: "coalesce([n], [m], -1)", values: [7, -2.5, -1, 1234.5, 0.125] },
  { expression: 'coalesce([t], "none")', values: ["Été à Paris", "  abc  ", "none", "🎉x", ""] },
  // Numbers: halves round away from zero, negative digits round to tens.
  { expression: "abs([n])", values: [7, 2.5, null, 1234.5, 0.125] },
  { expression: "round([n])", values: [7, -3, null, 1235, 0] },
  { expression: "round([n], 2)", values: [7, -2.5, null, 1234.5, 0.13] },
  { expression: "round([n], -1)", values: [10, 0, null, 1230, 0] },
  { expression: "floor([n])", values: [7, -3, null, 1234, 0] },
  { expression: "ceil([n])", values: [7, -2, null, 1235, 1] },
  // Text: characters, not bytes; Unicode case.
  { expression: 'concat([t], "!", null)', values: ["Été à Paris!", "  abc  !", "!", "🎉x!", "!"] },
  { expression: "lower([t])", values: ["été à paris", "  abc  ", null, "🎉x", ""] },
  { expression: "upper([t])", values: ["ÉTÉ À PARIS", "  ABC  ", null, "🎉X", ""] },
  { expression: "trim([t])", values: ["Été à Paris", "abc", null, "🎉x", ""] },
  { expression: "length([t])", values: [11, 7, null, 2, 0] },
  { expression: 'length("€")', values: all(1) },
  { expression: 'contains([t], "a")', values: [1, 1, null, 0, 0] },
  { expression: 'startsWith([t], "É")', values: [1, 0, null, 0, 0] },
  { expression: 'endsWith([t], "x")', values: [0, 0, null, 1, 0] },
  { expression: 'endsWith([t], "")', values: [1, 1, null, 1, 1] },
  { expression: "substring([t], 2, 3)", values: ["té ", " ab", null, "x", ""] },
  { expression: "substring([t], 0, 2)", values: ["Ét", "  ", null, "🎉x", ""] },
  { expression: 'replace([t], "a", "4")', values: ["Été à P4ris", "  4bc  ", null, "🎉x", ""] },
  // Date parts: ISO weeks (2024-12-30 is in week 1 of 2025), ISO weekdays (Monday 1).
  { expression: "year([d])", values: [2024, 2024, null, 2024, 2023] },
  { expression: "quarter([d])", values: [1, 1, null, 4, 1] },
  { expression: "month([d])", values: [2, 1, null, 12, 3] },
  { expression: "day([d])", values: [29, 31, null, 30, 26] },
  { expression: "week([d])", values: [9, 5, null, 1, 12] },
  { expression: "weekday([d])", values: [4, 3, null, 1, 7] },
  // A timestamp's parts in the query's zone, across both changes.
  { expression: "hour([ts])", values: [23, 3, null, 2, 2] },
  { expression: "minute([ts])", values: [59, 30, null, 30, 30] },
  { expression: "day([ts])", values: [30, 31, null, 27, 27] },
  { expression: "weekday([ts])", values: [6, 7, null, 7, 7] },
  // Date arithmetic: a leap day plus a year is Feb 28; month ends stay month ends.
  {
    expression: 'dateAdd([d], 1, "year")',
    values: ["2025-02-28", "2025-01-31", null, "2025-12-30", "2024-03-26"],
  },
  {
    expression: 'dateAdd([d], 1, "month")',
    values: ["2024-03-29", "2024-02-29", null, "2025-01-30", "2023-04-26"],
  },
  {
    expression: 'dateAdd([d], -1, "month")',
    values: ["2024-01-29", "2023-12-31", null, "2024-11-30", "2023-02-26"],
  },
  {
    expression: 'dateAdd([d], 1, "quarter")',
    values: ["2024-05-29", "2024-04-30", null, "2025-03-30", "2023-06-26"],
  },
  {
    expression: 'dateAdd([d], 2, "week")',
    values: ["2024-03-14", "2024-02-14", null, "2025-01-13", "2023-04-09"],
  },
  {
    expression: 'dateAdd([d], 1.9, "day")',
    values: ["2024-03-01", "2024-02-01", null, "2024-12-31", "2023-03-27"],
  },
  {
    expression: 'dateAdd([d], [m], "day")',
    values: ["2024-03-02", "2024-01-31", null, "2024-12-26", "2023-04-03"],
  },
  // A timestamp plus days keeps the local time (23 or 25 hours across a change); hours are exact.
  {
    expression: 'dateAdd([ts], 1, "day")',
    values: [1711922340000, 1711935000000, null, 1730079000000, 1730079000000],
  },
  {
    expression: 'dateAdd([ts], -1, "day")',
    values: [1711753140000, 1711765800000, null, 1729902600000, 1729902600000],
  },
  {
    expression: 'dateAdd([ts], 1, "month")',
    values: [1714514340000, 1714440600000, null, 1732671000000, 1732671000000],
  },
  {
    expression: 'dateAdd([ts], 90, "minute")',
    values: [1711844940000, 1711854000000, null, 1729994400000, 1729998000000],
  },
  // Differences count boundaries crossed: local days, ISO weeks, months; hours in UTC.
  { expression: 'dateDiff(date("2024-01-31"), [d], "day")', values: [29, 0, null, 334, -311] },
  { expression: 'dateDiff([d], date("2025-01-01"), "week")', values: [44, 48, null, 0, 93] },
  { expression: 'dateDiff(date("2024-01-31"), [d], "month")', values: [1, 0, null, 11, -10] },
  { expression: 'dateDiff([d], date("2025-01-01"), "quarter")', values: [4, 4, null, 1, 8] },
  { expression: 'dateDiff([d], date("2025-01-01"), "year")', values: [1, 1, null, 1, 2] },
  { expression: 'dateDiff([ts], dateAdd([ts], 1, "day"), "hour")', values: [23, 24, null, 25, 24] },
  { expression: 'dateDiff([ts], dateAdd([ts], 1, "day"), "day")', values: [1, 1, null, 1, 1] },
];
