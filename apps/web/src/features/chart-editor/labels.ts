import { aggregationLabels, type MeasureShow, type QueryAggregate } from "@seed/model";

// The chart editor's words for how rows are combined and how values are shown.

// The words of the aggregates a stat tile offers too are the model's (aggregationLabels).
const { last: _last, ...statWords } = aggregationLabels;
export const aggregateLabels: Record<QueryAggregate, string> = {
  none: "Raw values (no grouping)",
  ...statWords,
  count_distinct: "Count of distinct values",
  formula: "A formula of aggregates",
};

export const showLabels: Record<MeasureShow, string> = {
  value: "Values",
  share_of_total: "Share of the total (percent)",
  running_total: "Running total (along x)",
  change_from_previous: "Change from the period before (percent)",
  change_from_year_before: "Change from the same period a year before (percent)",
};
