import type { RenderedDashboard } from "@seed/store";
import { CustomRangeSwitch } from "@/components/custom-range-switch";

const customDateIds = ["filter-from", "filter-to"] as const;

import {
  allTimeRange,
  customRange,
  datePresets,
  describeAppliedRange,
  drillPairs,
  filteredHref,
  withoutCategoryValue,
} from "@seed/model";
import { CircleXIcon } from "@seed/ui";

/**
 * The filter bar at the top of a dashboard: a plain GET form, so it works without JavaScript and
 * the address it leads to is the filtered view's link (canonicalised and cached by src/proxy.ts).
 */
export function DashboardFilterBar({
  filterBar,
  action,
}: {
  filterBar: RenderedDashboard["filterBar"];
  /**
   * The dashboard's own path: the form's target and "Clear filters", with any query every link
   * of the page keeps (a signed embed link's).
   */
  action: string;
}) {
  const { dateColumn, categories, applied, problems } = filterBar;
  const [formPath = action, keptQuery = ""] = action.split("?", 2);
  const kept = [...new URLSearchParams(keptQuery)];
  const notice =
    problems.length > 0 ? (
      <div className="dashboard-filter-problems" role="status">
        <p>Some filters in this link were ignored:</p>
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </div>
    ) : null;
  // A dashboard without filters still says what of its link it ignored (a drill it cannot take).
  if (dateColumn === null && categories.length === 0) {
    return notice ? <section className="dashboard-filters">{notice}</section> : null;
  }
  // Drilled charts stay drilled when the filters change or are cleared (their breadcrumbs undo).
  const drilled = drillPairs(applied);
  const cleared = filteredHref(action, {
    range: null,
    categories: {},
    ...(applied.drill ? { drill: applied.drill } : {}),
  });
  const range = applied.range;
  const rangeValue = range === null ? allTimeRange : "preset" in range ? range.preset : customRange;
  const custom = range !== null && !("preset" in range) ? range : null;
  const chosen = Object.entries(applied.categories);
  const summary = [
    ...(dateColumn !== null ? [describeAppliedRange(range)] : []),
    ...chosen.map(([column, values]) => `${column}: ${values.join(", ")}`),
  ].join("; ");
  return (
    <section className="dashboard-filters" aria-labelledby="dashboard-filters-heading">
      <h2 id="dashboard-filters-heading" className="visually-hidden">
        Filters
      </h2>
      {notice}
      {/* keyed by the filters, so a view reached in place (a chart click) shows its own choices */}
      <form
        method="get"
        action={formPath}
        className="dashboard-filter-form"
        key={filteredHref(action, applied)}
      >
        {/* a GET form drops its action's query: what the address must keep goes as fields */}
        {kept.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {drilled.map(([name, value]) => (
          <input key={value} type="hidden" name={name} value={value} />
        ))}
        {dateColumn !== null ? (
          <fieldset className="dashboard-filter-range">
            <legend>Date range ({dateColumn})</legend>
            <div className="field">
              <label htmlFor="filter-range">Period</label>
              <select id="filter-range" name="range" defaultValue={rangeValue}>
                <option value={allTimeRange}>All time</option>
                {datePresets.map((preset) => (
                  <option key={preset.id} value={preset.id}>
                    {preset.label}
                  </option>
                ))}
                <option value={customRange}>Custom dates</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="filter-from">From</label>
              <input
                id="filter-from"
                name="from"
                type="date"
                defaultValue={custom?.from ?? ""}
                aria-describedby="filter-dates-hint"
              />
            </div>
            <div className="field">
              <label htmlFor="filter-to">To</label>
              <input
                id="filter-to"
                name="to"
                type="date"
                defaultValue={custom?.to ?? ""}
                aria-describedby="filter-dates-hint"
              />
            </div>
            <p id="filter-dates-hint" className="muted dashboard-filter-hint">
              From and To apply with Period set to Custom dates.
            </p>
            <CustomRangeSwitch
              rangeId="filter-range"
              dateIds={customDateIds}
              customValue={customRange}
            />
          </fieldset>
        ) : null}
        {categories.map((category) => {
          const selected = applied.categories[category.column] ?? [];
          // A value chosen in a link stays offered even when it is not among the most common.
          const options = [
            ...category.values,
            ...selected.filter((value) => !category.values.includes(value)),
          ];
          const id = `filter-${category.param}`;
          return (
            <div className="field dashboard-filter-category" key={category.param}>
              <label htmlFor={id}>{category.column}</label>
              <select
                id={id}
                name={category.param}
                multiple
                size={Math.max(2, Math.min(5, options.length))}
                defaultValue={selected}
                aria-describedby="filter-multi-hint"
              >
                {options.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
        {categories.length > 0 ? (
          <p id="filter-multi-hint" className="muted dashboard-filter-hint">
            Choose several values with Ctrl, Cmd or Shift; none chooses all.
          </p>
        ) : null}
        <div className="dashboard-filter-actions">
          <button type="submit" className="button">
            Apply filters
          </button>
          <a href={cleared} className="button button-secondary">
            Clear filters
          </a>
        </div>
      </form>
      {summary ? (
        <p className="muted" data-testid="applied-filters">
          Showing: {summary}
        </p>
      ) : null}
      {chosen.length > 0 ? (
        // One chip per chosen value (a chart click chooses one): its link is the view without it.
        <ul className="dashboard-filter-chips no-print" aria-label="Chosen values">
          {chosen.flatMap(([column, values]) =>
            values.map((value) => (
              <li key={`${column}\u0000${value}`}>
                <a
                  className="dashboard-filter-chip"
                  href={filteredHref(action, withoutCategoryValue(applied, column, value))}
                  aria-label={`Remove ${column}: ${value}`}
                >
                  <span>
                    {column}: {value}
                  </span>
                  <CircleXIcon size={16} />
                </a>
              </li>
            )),
          )}
        </ul>
      ) : null}
    </section>
  );
}
