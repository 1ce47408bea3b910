"use client";

import { type ChartForm, chartOfForm, formQuery } from "@seed/model";
import type { QueryResult } from "@seed/store";
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import styles from "@/components/admin/admin.module.css";
import { DashboardChart } from "@/components/dashboard-chart";
import { type DatasetChoice, previewBlocker, previewView } from "./draft";
import type { SectionProps } from "./section-props";

/**
 * The preview is drawn anew under a resting pointer whenever the query changes, and the browser
 * then reports the new chart as entered (boundary events with no move): Recharts would open the
 * tooltip on a point nobody pointed at. Each drawing lets no pointer events through to the chart
 * until the pointer really moves over it (set on the DOM at once, so the next event already
 * reaches the chart); keyboard focus is unaffected.
 */
function PreviewChart({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const arm = (event: MouseEvent) => {
      element.dataset.pointer = "moved";
      element.removeEventListener("mousemove", arm);
      // That first move reached only this box: hand it on to what now lies under the pointer.
      const under = document.elementFromPoint(event.clientX, event.clientY);
      if (under && under !== element && element.contains(under)) {
        under.dispatchEvent(
          new MouseEvent("mousemove", {
            bubbles: true,
            clientX: event.clientX,
            clientY: event.clientY,
            screenX: event.screenX,
            screenY: event.screenY,
          }),
        );
      }
    };
    element.addEventListener("mousemove", arm);
    return () => element.removeEventListener("mousemove", arm);
  }, []);
  return (
    <div ref={ref} className={styles.previewChart} data-pointer="resting">
      {children}
    </div>
  );
}

type PreviewState =
  | { status: "loading" }
  | { status: "ready"; result: QueryResult }
  | { status: "failed"; message: string };

/** Runs the draft's query in the database (debounced) for the live preview. */
function usePreview(
  draft: ChartForm,
  columns: DatasetChoice["columns"],
  enabled: boolean,
): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: "loading" });
  const body = useMemo(
    () =>
      JSON.stringify({
        datasetId: draft.datasetId,
        type: draft.type,
        query: formQuery(draft, columns),
        // events as a save would keep them (none while the x axis holds no dates)
        annotationSource: chartOfForm(draft, columns).chart.options?.annotationSource,
      }),
    [draft, columns],
  );
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState({ status: "loading" });
    const timer = setTimeout(() => {
      fetch("/admin/api/charts/preview", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: controller.signal,
      })
        .then(async (response) => {
          const json = (await response.json()) as {
            result?: QueryResult;
            fieldErrors?: Record<string, string[]>;
            message?: string;
          };
          if (json.result) return setState({ status: "ready", result: json.result });
          const reason =
            Object.values(json.fieldErrors ?? {}).flat()[0] ??
            json.message ??
            `The preview could not be loaded (${response.status}).`;
          setState({ status: "failed", message: reason });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : "The preview failed.";
          setState({ status: "failed", message });
        });
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body, enabled]);
  return state;
}

/** The live preview beside the form: why it cannot run yet, the query running, or the chart. */
export function ChartPreview({
  draft,
  columns,
  update,
}: Omit<SectionProps, "errors" | "setDraft">) {
  const missing = previewBlocker(draft);
  const preview = usePreview(draft, columns, missing === null);
  const view = useMemo(() => previewView(draft, columns), [draft, columns]);
  return (
    <section aria-labelledby="chart-preview-heading" className="stack">
      <h2 id="chart-preview-heading">Preview</h2>
      {missing ? (
        <p className="muted">{missing}</p>
      ) : preview.status === "ready" ? (
        <div data-testid="chart-preview" className="stack">
          {draft.aggregate === "none" &&
          draft.type !== "scatter" &&
          (preview.result.duplicateX ?? 0) > 0 ? (
            <p role="status">
              {preview.result.duplicateX?.toLocaleString("en-US")} rows share an x value with
              another row.{" "}
              <button type="button" className="button" onClick={() => update("aggregate", "sum")}>
                Sum them
              </button>
            </p>
          ) : null}
          <PreviewChart>
            <DashboardChart chart={view} result={preview.result} headingLevel="h3" />
          </PreviewChart>
        </div>
      ) : preview.status === "failed" ? (
        <p className="form-error">{preview.message}</p>
      ) : (
        <p className="muted" role="status">
          Running the query…
        </p>
      )}
    </section>
  );
}
