"use client";

import { textTileLimits } from "@seed/model";
import { addChartTile, addTextTile } from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { RecordFields } from "./record-fields";

export function AddChartTileForm({
  dashboardId,
  version,
  charts,
}: {
  dashboardId: string;
  version: number;
  charts: { id: string; title: string }[];
}) {
  const { state, pending, onSubmit } = useContentForm(addChartTile);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Add a chart tile">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <SelectField
        id="tile-chart"
        name="chartId"
        label="Chart"
        defaultValue=""
        errors={state.fieldErrors?.chartId}
      >
        <option value="">Choose a chart</option>
        {charts.map((chart) => (
          <option key={chart.id} value={chart.id}>
            {chart.title}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add chart tile
        </button>
      </div>
    </form>
  );
}

/** A heading or note in Markdown; raw HTML is not shown and links must be http(s) or mailto. */
export function AddTextTileForm({
  dashboardId,
  version,
}: {
  dashboardId: string;
  version: number;
}) {
  const { state, pending, onSubmit } = useContentForm(addTextTile);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Add a text tile">
      <RecordFields dashboardId={dashboardId} version={version} />
      <FormMessages state={state} />
      <TextAreaField
        id="text-markdown"
        name="markdown"
        label="Text (Markdown)"
        hint={`Headings (## Title), **bold**, *italic*, lists and [links](https://example.com). No HTML; at most ${textTileLimits.maxLength.toLocaleString("en-US")} characters.`}
        rows={5}
        errors={state.fieldErrors?.markdown}
      />
      <div>
        <button type="submit" className="button" disabled={pending}>
          Add text tile
        </button>
      </div>
    </form>
  );
}
