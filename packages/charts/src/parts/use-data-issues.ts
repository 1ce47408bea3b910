import { useEffect } from "react";
import { type DataIssue, describeIssues } from "../data/rows";
import { isDevelopment } from "./environment";

/** Reports a frame's data issues to the caller, and to the console in development. */
export function useDataIssues(
  chartName: string,
  issues: readonly DataIssue[],
  onDataIssues: ((issues: readonly DataIssue[]) => void) | undefined,
): void {
  useEffect(() => {
    if (issues.length === 0) return;
    onDataIssues?.(issues);
    if (isDevelopment()) console.warn(describeIssues(chartName, issues));
  }, [issues, chartName, onDataIssues]);
}
