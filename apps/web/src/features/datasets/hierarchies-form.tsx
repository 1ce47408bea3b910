"use client";

import { hierarchyLimits } from "@seed/model";
import { saveHierarchies } from "@/app/admin/datasets/actions";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { useKeyedRows } from "@/components/admin/use-keyed-rows";

/**
 * A dataset's category hierarchies as one list: each names the columns a chart drills through,
 * coarsest first; add, change or remove them, then save them all. The server refuses a bad list
 * with an error at each level at fault and keeps the old one.
 */
export function HierarchiesForm({
  datasetId,
  version,
  columns,
  hierarchies,
}: {
  datasetId: string;
  version: number;
  /** The columns a level may name: the dataset's text and true/false columns and fields. */
  columns: readonly string[];
  hierarchies: readonly (readonly string[])[];
}) {
  const { state, pending, onSubmit } = useContentForm(saveHierarchies);
  const { rows, add, change, remove } = useKeyedRows(
    hierarchies.map((levels) => ({ levels: [...levels] })),
  );
  const errors = state.fieldErrors ?? {};
  const full = rows.length >= hierarchyLimits.maxHierarchies;
  return (
    <form onSubmit={onSubmit} className="form" noValidate aria-label="Drill-down hierarchies">
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="hierarchyCount" value={rows.length} />
      <FormMessages state={state} />
      {errors.hierarchies ? <p className="field-error">{errors.hierarchies.join(" ")}</p> : null}
      {rows.length === 0 ? <p className="muted">No hierarchies yet.</p> : null}
      {rows.map((row, index) => (
        <fieldset key={row.key} className="form hierarchy">
          <legend>{`Hierarchy ${index + 1}`}</legend>
          {errors[`hierarchies.${index}`] ? (
            <p className="field-error">{errors[`hierarchies.${index}`]?.join(" ")}</p>
          ) : null}
          {row.levels.map((column, level) => (
            <SelectField
              key={level}
              name={`level-${index}`}
              label={`Level ${level + 1}`}
              id={`hierarchy-${row.key}-level-${level}`}
              value={column}
              onChange={(event) =>
                change(row.key, {
                  levels: row.levels.map((old, at) =>
                    at === level ? event.currentTarget.value : old,
                  ),
                })
              }
              errors={errors[`hierarchies.${index}.${level}`]}
            >
              <option value="">Choose a column</option>
              {/* a level naming a column no longer offered is shown as it is, to be changed */}
              {column !== "" && !columns.includes(column) ? (
                <option value={column}>{column}</option>
              ) : null}
              {columns.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </SelectField>
          ))}
          <div className="button-row">
            <button
              type="button"
              className="button button-secondary"
              disabled={row.levels.length >= hierarchyLimits.maxLevels}
              onClick={() => change(row.key, { levels: [...row.levels, ""] })}
              aria-label={`Add a level to hierarchy ${index + 1}`}
            >
              Add a level
            </button>
            {row.levels.length > hierarchyLimits.minLevels ? (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => change(row.key, { levels: row.levels.slice(0, -1) })}
                aria-label={`Remove the last level of hierarchy ${index + 1}`}
              >
                Remove the last level
              </button>
            ) : null}
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Remove hierarchy ${index + 1}`}
              onClick={() => remove(row.key)}
            >
              Remove
            </button>
          </div>
        </fieldset>
      ))}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={full}
          onClick={() => add({ levels: ["", ""] })}
        >
          Add a hierarchy
        </button>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save hierarchies"}
        </button>
      </div>
      {full ? (
        <p className="muted">{`A dataset has at most ${hierarchyLimits.maxHierarchies} hierarchies.`}</p>
      ) : null}
    </form>
  );
}
