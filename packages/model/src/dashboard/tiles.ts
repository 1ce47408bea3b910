import { z } from "zod";
import { queryLimits } from "../chart-types.js";
import { idSchema, optionalText, requiredText } from "../fields.js";
import { textLimits, textTileLimits, thresholdLimits } from "../limits.js";
import { numberFormatSchema } from "../number-format.js";
import {
  checkQuery,
  type QueryColumn,
  type QueryFilter,
  queryFilterSchema,
} from "../query/spec.js";
import { type Aggregation, aggregations, iconNameSchema } from "../vocabulary.js";

const cell = (what: string) =>
  z
    .number({ error: `The ${what} must be a whole number.` })
    .int(`The ${what} must be a whole number.`);

/** A tile's place on the 12-column grid; bounds per kind and overlaps are checked with its dashboard. */
export const tileLayoutSchema = z.object({
  x: cell("column"),
  y: cell("row"),
  w: cell("width"),
  h: cell("height"),
});

/** A tile's name in its dashboard's file, as the file's layout block refers to it. */
export const tileKeySchema = z
  .string({ error: 'Enter a tile key as text (quote one made of digits: "2024").' })
  .trim()
  .min(1, "Enter a tile key.")
  .max(64, "Keep the tile key under 65 characters.")
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "Use lowercase letters, digits and single hyphens, e.g. revenue-by-month.",
  );

export const chartTileInputSchema = z.object({
  kind: z.literal("chart"),
  id: z.string().min(1).optional(),
  key: tileKeySchema.optional(),
  layout: tileLayoutSchema.optional(),
  chartId: idSchema("chart"),
});

const allowedLinkSchemes = new Set(["http", "https", "mailto"]);

/** Decodes the character references a browser would, so "&#106;avascript:" is seen for what it is. */
function decodeReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000),
    )
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;|&newline;/gi, "");
}

/**
 * The first link or image target in Markdown whose scheme is not http, https or mailto (e.g.
 * "javascript:"), or null. The renderer drops such links too; this tells the editor why.
 */
export function unsafeMarkdownLink(markdown: string): string | null {
  const targets = [
    // Inline links and images: [text](target "title")
    ...[...markdown.matchAll(/\]\(\s*<?([^\s)>]+)/g)].map((match) => match[1]),
    // Reference definitions: [name]: target
    ...[...markdown.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
      (match) => match[1],
    ),
    // Autolinks: <scheme:...>
    ...[...markdown.matchAll(/<([a-z][a-z0-9+.-]*:[^\s>]*)>/gi)].map((match) => match[1]),
  ];
  for (const target of targets) {
    if (target === undefined) continue;
    // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
    const normalized = decodeReferences(target).replace(/[\u0000-\u0020\u007f]/g, "");
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(normalized)?.[1]?.toLowerCase();
    if (scheme !== undefined && !allowedLinkSchemes.has(scheme)) return target;
  }
  return null;
}

/** A heading or note written in Markdown; shown without any raw HTML (see apps/web). */
export const textTileInputSchema = z.object({
  kind: z.literal("text"),
  id: z.string().min(1).optional(),
  key: tileKeySchema.optional(),
  layout: tileLayoutSchema.optional(),
  markdown: requiredText("text", textTileLimits.maxLength, "the").superRefine((markdown, ctx) => {
    const target = unsafeMarkdownLink(markdown);
    if (target !== null) {
      ctx.addIssue({
        code: "custom",
        message: `Links must start with http://, https:// or mailto:, or be relative ("${target.slice(0, 40)}" is not).`,
      });
    }
  }),
});

export const thresholdWhens = ["below", "at_or_above"] as const;
export type ThresholdWhen = (typeof thresholdWhens)[number];
export const thresholdTones = ["good", "warning", "bad"] as const;
export type ThresholdTone = (typeof thresholdTones)[number];

export const thresholdRuleSchema = z.object({
  when: z.enum(thresholdWhens, { error: "Choose below or at or above." }),
  value: z
    .number({ error: "Enter the target as a number." })
    .refine(Number.isFinite, "Enter the target as a number."),
  tone: z.enum(thresholdTones, { error: "Choose good, warning or bad." }),
  /** Words shown beside the value, so the colour is never the only sign ("below target"). */
  label: optionalText("rule label", thresholdLimits.maxLabelLength).optional(),
});
export type ThresholdRule = z.output<typeof thresholdRuleSchema>;

const thresholdsSchema = z
  .array(thresholdRuleSchema, { error: "Thresholds must be a list." })
  .max(thresholdLimits.maxRules, `At most ${thresholdLimits.maxRules} threshold rules.`)
  .superRefine((rules, ctx) => {
    for (const [index, rule] of rules.entries()) {
      const twin = rules
        .slice(0, index)
        .some((earlier) => earlier.when === rule.when && earlier.value === rule.value);
      if (twin) {
        ctx.addIssue({
          code: "custom",
          path: [index, "value"],
          message: "Another rule already applies at this value.",
        });
      }
    }
  });

/** What a stat's value means against its rules: a tone and words, or null when no rule applies. */
export interface ThresholdStatus {
  tone: ThresholdTone;
  label: string;
}

/**
 * The rule a value meets; where several do, the one whose value is nearest wins, so "below 50
 * is bad" beats "below 100 is a warning" for 40.
 */
export function thresholdStatus(
  value: number | null,
  rules: readonly ThresholdRule[],
): ThresholdStatus | null {
  if (value === null || !Number.isFinite(value)) return null;
  let best: ThresholdRule | null = null;
  for (const rule of rules) {
    const meets = rule.when === "below" ? value < rule.value : value >= rule.value;
    if (!meets) continue;
    if (best === null || Math.abs(value - rule.value) < Math.abs(value - best.value)) best = rule;
  }
  if (!best) return null;
  const label =
    best.label && best.label.length > 0
      ? best.label
      : best.when === "below"
        ? "below target"
        : "at or above target";
  return { tone: best.tone, label };
}

/** What a stat tile's comparison reads: the period just before, or the same dates a year before. */
export const statComparisons = ["previous_period", "previous_year"] as const;
export type StatComparison = (typeof statComparisons)[number];

export const statTileInputSchema = z.object({
  kind: z.literal("stat"),
  id: z.string().min(1).optional(),
  key: tileKeySchema.optional(),
  layout: tileLayoutSchema.optional(),
  label: requiredText("label", textLimits.statLabel),
  datasetId: idSchema("dataset"),
  column: z.string({ error: "Choose a column." }).trim().min(1, "Choose a column."),
  aggregation: z.enum(aggregations, {
    error: `Aggregation must be ${aggregations.slice(0, -1).join(", ")} or ${aggregations.at(-1)}.`,
  }),
  format: numberFormatSchema.optional(),
  icon: iconNameSchema.optional(),
  /** Rows the value counts, as in a chart query. */
  filters: z
    .array(queryFilterSchema)
    .max(queryLimits.maxFilters, `At most ${queryLimits.maxFilters} filters.`)
    .optional(),
  /** Show the change against the previous period of the relative date filter. */
  compare: z.boolean({ error: "Compare must be true or false." }).optional(),
  /** What a comparison compares with: the period just before, or the same period a year before. */
  compareWith: z
    .enum(statComparisons, { error: "Compare with the previous period or the previous year." })
    .optional(),
  /** Rules that colour and name the value against targets, e.g. red "below target". */
  thresholds: thresholdsSchema.optional(),
});

export const tileInputSchema = z.discriminatedUnion(
  "kind",
  [chartTileInputSchema, statTileInputSchema, textTileInputSchema],
  {
    error: 'A tile\'s kind must be "chart", "stat" or "text".',
  },
);
export type TileInput = z.input<typeof tileInputSchema>;

/** Checks a stat tile's column against its dataset: count works on any column, the rest need numbers. */
export function checkStatTileColumn(
  tile: {
    column: string;
    aggregation: Aggregation;
    filters?: readonly QueryFilter[] | undefined;
    compare?: boolean | undefined;
  },
  columns: readonly QueryColumn[],
): string | null {
  const column = columns.find((candidate) => candidate.name === tile.column);
  if (!column) return `The dataset has no column "${tile.column}".`;
  if (tile.aggregation !== "count" && column.type !== "number") {
    return `"${tile.column}" is a ${column.type} column; ${tile.aggregation} needs a number column.`;
  }
  const filters = tile.filters ?? [];
  // Filters are checked by the query rules, as a count over the tile's column.
  const problems = checkQuery(
    {
      x: { column: tile.column },
      measures: [{ column: null, aggregate: "count" }],
      filters: [...filters],
    },
    columns,
  );
  const first = Object.values(problems).flat()[0];
  if (first) return first;
  if (tile.compare && tile.aggregation === "last") {
    return "A last-value tile already compares with the value before it; turn comparison off.";
  }
  if (tile.compare && !filters.some((filter) => filter.op === "relative")) {
    return "A comparison needs a relative date filter, for example the last 30 days.";
  }
  return null;
}
