"use client";

import { updateDashboardFilters } from "@/app/admin/dashboards/actions";
import styles from "@/components/admin/admin.module.css";
import { FormMessages, SelectField } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { RecordFields } from "./record-fields";

/**
 * The dashboard's filter bar: a date range over one date column and up to five category filters,
 * each over a column of the dashboard's datasets (offered by name; the store checks the types).
 */
export function DashboardFiltersForm({
  initial,
  dateColumns,
  categoryColumns,
  maxCategories,
}: {
  initial: { dateColumn: string | null; categories: string[] };
  dateColumns: string[];
  categoryColumns: string[];
  maxCategories: number;
}) {
  const { state, pending, onSubmit } = useContentForm(updateDashboardFilters);
  const errors = state.fieldErrors ?? {};
  // A saved column no dataset has any more stays listed, so saving again does not drop it silently.
  const withSaved = (names: string[], saved: readonly (string | null)[]) => [
    ...names,
    ...saved.filter((name): name is string => name !== null && !names.includes(name)),
  ];
  const dateOptions = withSaved(dateColumns, [initial.dateColumn]);
  const categoryOptions = withSaved(categoryColumns, initial.categories);
  return (
    <form onSubmit={onSubmit} className={styles.wideForm} noValidate aria-label="Dashboard filters">
      <RecordFields />
      <FormMessages state={state} />
      <SelectField
        id="dashboard-filter-date"
        name="dateColumn"
        label="Date range filter"
        hint="Filters every tile whose dataset has a date or timestamp column of this name."
        defaultValue={initial.dateColumn ?? ""}
        errors={errors["filters.dateColumn"] ?? errors.filters}
      >
        <option value="">No date range</option>
        {dateOptions.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      {Array.from({ length: maxCategories }, (_, index) => (
        <SelectField
          key={index}
          id={`dashboard-filter-category-${index + 1}`}
          name="category"
          label={`Category filter ${index + 1}`}
          {...(index === 0
            ? {
                hint: "Filters every tile whose dataset has a text or true/false column of this name.",
              }
            : {})}
          defaultValue={initial.categories[index] ?? ""}
          errors={errors[`filters.categories.${index}`]}
        >
          <option value="">None</option>
          {categoryOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      ))}
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : "Save filters"}
        </button>
      </div>
    </form>
  );
}
