"use client";

import { type ChartForm, chartFormOf, textLimits } from "@seed/model";
import type { Chart } from "@seed/store";
import { useState } from "react";
import { saveChart } from "@/app/admin/charts/actions";
import styles from "@/components/admin/admin.module.css";
import { FieldMessages, FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { FormField } from "@/components/form-field";
import { type DatasetChoice, withoutStaleOptions } from "./draft";
import { OptionsSection } from "./options-section";
import { ChartPreview } from "./preview";
import { QuerySection } from "./query-section";
import type { SectionProps } from "./section-props";

export type { DatasetChoice } from "./draft";

/** Chart form with a live preview drawn by @seed/charts from the chosen dataset's rows. */
export function ChartEditor({
  datasets,
  chart,
}: {
  datasets: DatasetChoice[];
  chart: Chart | null;
}) {
  const { state, pending, onSubmit } = useContentForm(saveChart);
  const [draft, setRawDraft] = useState(() => chartFormOf(chart, datasets[0]));
  // Every change goes through here, so options a new type or query no longer offers reset.
  function setDraft(change: (current: ChartForm) => ChartForm) {
    setRawDraft((current) => {
      const next = change(current);
      const nextColumns = datasets.find((choice) => choice.id === next.datasetId)?.columns ?? [];
      return withoutStaleOptions(next, nextColumns);
    });
  }
  const errors = state.fieldErrors ?? {};
  const dataset = datasets.find((candidate) => candidate.id === draft.datasetId);
  const columns = dataset?.columns ?? [];

  function update<Key extends keyof ChartForm>(key: Key, value: ChartForm[Key]) {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  const section: SectionProps = { draft, columns, errors, setDraft, update };

  return (
    <div className={styles.editorLayout}>
      <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Chart">
        {chart ? (
          <>
            <input type="hidden" name="chartId" value={chart.id} />
            <input type="hidden" name="version" value={chart.version} />
          </>
        ) : null}
        <FormMessages state={state} />
        <input type="hidden" name="chart" value={JSON.stringify(draft)} />
        <FormField
          name="title"
          label="Title"
          id="chart-title"
          required
          maxLength={textLimits.title}
          value={draft.title}
          onChange={(event) => update("title", event.currentTarget.value)}
          errors={errors.title}
        />
        <QuerySection {...section} datasets={datasets} />
        <OptionsSection {...section} datasets={datasets} />
        <FieldMessages id="chart-query-errors" errors={errors.query} />
        <div>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Saving…" : chart ? "Save chart" : "Create chart"}
          </button>
        </div>
      </form>
      <ChartPreview draft={draft} columns={columns} update={update} />
    </div>
  );
}
