import { useEffect } from "react";
import { type DataIssue, describeIssues } from "../data/rows";

declare const process: { env: Record<string, string | undefined> };

/** Reports a frame's data issues to the caller, and to the console in development. */
export function useDataIssues(
  chartName: string,
  issues: readonly DataIssue[],
  onDataIssues: ((issues: readonly DataIssue[]) => void) | undefined,
): void {
  useEffect(() => {
    if (issues.length === 0) return;
    onDataIssues?.(issues);
    // written out (not through a helper) so bundlers drop the warning from production builds
    if (typeof process !== "undefined" && process.env.NODE_ENV !== "production") {
      console.warn(describeIssues(chartName, issues));
    }
  }, [issues, chartName, onDataIssues]);
}
