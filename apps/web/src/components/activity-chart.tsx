"use client";

import { BarChart } from "@seed/charts";

export interface ActivityRow {
  day: string;
  events: number;
}

/** Audit events per day for the admin overview. */
export function ActivityChart({ rows }: { rows: ActivityRow[] }) {
  return (
    <BarChart<ActivityRow>
      data={rows}
      index="day"
      indexType="time"
      series={[{ key: "events", label: "Events" }]}
      title="Audit events per day, last 14 days"
      height={220}
      locale="en-US"
      legend={false}
      emptyMessage="No activity in the last 14 days"
    />
  );
}
