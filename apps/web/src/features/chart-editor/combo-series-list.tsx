"use client";

import {
  type ComboAxis,
  type ComboKind,
  type ComboMark,
  comboAxes,
  comboMarks,
  comboSeriesOf,
} from "@seed/model";
import styles from "@/components/admin/admin.module.css";
import { errorsWhere, FieldMessages } from "@/components/admin/form-controls";

// A combo chart's measures, each drawn as bars or a line against the left value axis or a second
// one on the right: a row per measure of the query, in its order (the stored option is by position).

const markLabels: Record<ComboMark, string> = { bar: "Bars", line: "Line" };
const axisLabels: Record<ComboAxis, string> = {
  left: "Left axis",
  right: "Right axis (its own scale)",
};

export function ComboSeriesList({
  series,
  measures,
  errors,
  onChange,
}: {
  /** How the form draws each measure so far (shorter than the measures: the rest by default). */
  series: readonly ComboKind[];
  /** The query's measures by name, in order. */
  measures: readonly string[];
  errors: Record<string, string[] | undefined>;
  onChange: (series: ComboKind[]) => void;
}) {
  const kinds = comboSeriesOf(series, measures.length);
  const change = (at: number, part: Partial<ComboKind>) =>
    onChange(kinds.map((kind, k) => (k === at ? { ...kind, ...part } : kind)));
  const messages = errorsWhere(errors, (path) => path.startsWith("comboSeries"));
  return (
    <fieldset
      className={styles.fieldset}
      aria-describedby={messages.length > 0 ? "chart-combo-series-error" : undefined}
    >
      <legend>Bars and lines</legend>
      <p className="muted">
        Draw each measure as bars or a line. A measure of other units (a share beside an amount)
        reads best on the right axis, with its own scale.
      </p>
      {kinds.map((kind, at) => (
        <fieldset
          // by position: the stored option names measures by their place in the query
          key={at}
          className={styles.checkRow}
        >
          <legend>{measures[at]}</legend>
          <label>
            Drawn as
            <select
              id={`chart-combo-${at}-type`}
              value={kind.type}
              onChange={(event) => change(at, { type: event.currentTarget.value as ComboMark })}
            >
              {comboMarks.map((mark) => (
                <option key={mark} value={mark}>
                  {markLabels[mark]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Axis
            <select
              id={`chart-combo-${at}-axis`}
              value={kind.axis}
              onChange={(event) => change(at, { axis: event.currentTarget.value as ComboAxis })}
            >
              {comboAxes.map((axis) => (
                <option key={axis} value={axis}>
                  {axisLabels[axis]}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
      ))}
      <FieldMessages id="chart-combo-series" errors={messages} />
    </fieldset>
  );
}
