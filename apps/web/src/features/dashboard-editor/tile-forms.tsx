"use client";

import { textTileLimits } from "@seed/model";
import { addChartTile, addTextTile } from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages, SelectField, TextAreaField } from "@/components/admin/form-controls";
import { useTileChangeForm } from "./editor-state";
import { RecordFields } from "./record-fields";

/** Adds a chart's tile in place; the choice empties for the next one. */
export function AddChartTileForm({ charts }: { charts: { id: string; title: string }[] }) {
  const { state, pending, onSubmit, changes } = useTileChangeForm(addChartTile);
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Add a chart tile">
      <RecordFields />
      <FormMessages state={state} />
      <SelectField
        key={changes}
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
export function AddTextTileForm() {
  const { state, pending, onSubmit, changes } = useTileChangeForm(addTextTile);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Add a text tile">
      <RecordFields />
      <FormMessages state={state} />
      <TextAreaField
        key={changes}
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
