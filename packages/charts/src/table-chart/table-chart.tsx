import { useId, useMemo, useState } from "react";
import type { RowKey } from "../data/series";
import { ChartErrorBoundary } from "../parts/chart-error-boundary";
import type { CsvSourceTable } from "../parts/data-table";
import { EmptyState, LoadingState } from "../parts/states";
import { useDataIssues } from "../parts/use-data-issues";
import type { BaseChartProps } from "../types";
import {
  knownLocale,
  prepareTableFrame,
  sortTableRows,
  type TableColumn,
  type TableSort,
  type TableTone,
} from "./prepare";

export interface TableChartProps<Row>
  extends Pick<
    BaseChartProps<Row>,
    | "data"
    | "title"
    | "description"
    | "locale"
    | "loading"
    | "emptyMessage"
    | "onDataIssues"
    | "onValueChange"
    | "className"
    | "style"
  > {
  /** The columns shown, in order: row keys, or settings (label, kind, number format, colour rules). */
  columns: readonly (RowKey<Row> | TableColumn<Row>)[];
  /** Rows per page (default 10); 0 shows every row on one page. */
  pageSize?: number;
  /** The sort the table opens with (default: the data's order). */
  defaultSort?: { key: RowKey<Row>; direction: "asc" | "desc" };
  /** IANA time zone for date columns (default "UTC"). */
  timeZone?: string;
}

/** Drawn beside a toned value, so the tone is never told by colour alone. */
const toneMarks: Record<TableTone, string> = { good: "✓", warning: "!", bad: "✕" };

const sortWords = { asc: "ascending", desc: "descending" } as const;

/**
 * A table of rows: sorted by any column (press its header), paged, each column formatted for its
 * kind (numbers by Intl, dates in the locale, text as is), with conditional colours on number
 * columns that also say their tone in words. Wide tables scroll inside their own box.
 */
export function TableChart<Row>(props: TableChartProps<Row>) {
  return (
    <ChartErrorBoundary chartName="TableChart">
      <TableBody {...props} />
    </ChartErrorBoundary>
  );
}

function TableBody<Row>(props: TableChartProps<Row>) {
  const { data, columns, timeZone, onValueChange } = props;
  const locale = knownLocale(props.locale);
  const frame = useMemo(
    () => prepareTableFrame(data, columns, { locale, timeZone }),
    [data, columns, locale, timeZone],
  );
  useDataIssues("TableChart", frame.issues, props.onDataIssues);
  const [sort, setSort] = useState<TableSort | null>(
    props.defaultSort
      ? { key: props.defaultSort.key, direction: props.defaultSort.direction }
      : null,
  );
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => sortTableRows(frame, sort, locale), [frame, sort, locale]);
  const summaryId = useId();
  const size =
    typeof props.pageSize === "number" && Number.isFinite(props.pageSize) && props.pageSize >= 1
      ? Math.floor(props.pageSize)
      : props.pageSize === 0
        ? Number.POSITIVE_INFINITY
        : 10;
  const pages = Math.max(1, Math.ceil(sorted.length / size));
  const shownPage = Math.min(page, pages - 1);
  const first = Number.isFinite(size) ? shownPage * size : 0;
  const shown = Number.isFinite(size) ? sorted.slice(first, first + size) : sorted;
  const sortedColumn = sort ? frame.columns.find((column) => column.key === sort.key) : undefined;
  const title =
    props.title ?? `Table of ${frame.columns.map((column) => column.label).join(", ") || "rows"}`;
  const summary =
    props.description ??
    `${title}: ${sorted.length.toLocaleString(locale)} row${sorted.length === 1 ? "" : "s"}${
      sortedColumn && sort ? `, sorted by ${sortedColumn.label} ${sortWords[sort.direction]}` : ""
    }.`;
  const status = props.loading
    ? "loading"
    : frame.rows.length === 0 || frame.columns.length === 0
      ? "empty"
      : "ready";

  const toggleSort = (key: string) => {
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === "asc" ? "desc" : "asc" }
        : { key, direction: "asc" },
    );
    setPage(0);
  };

  const csv = () => [
    frame.columns.map((column) => column.label),
    ...sorted.map((row) => row.cells.map((cell) => cell.value)),
  ];

  return (
    <figure
      className={props.className ? `seed-chart ${props.className}` : "seed-chart"}
      style={props.style}
      data-chart="TableChart"
      aria-label={title}
      aria-describedby={summaryId}
      aria-busy={status === "loading" || undefined}
    >
      {status === "loading" ? (
        <div className="seed-chart-plot seed-table-placeholder">
          <LoadingState />
        </div>
      ) : status === "empty" ? (
        <div className="seed-chart-plot seed-table-placeholder">
          <EmptyState
            message={props.emptyMessage ?? "No data to display"}
            reason={frame.emptyReason}
          />
        </div>
      ) : (
        // A labelled group, not a landmark (a page's card of the same name would make two);
        // tabIndex: a scrolling box is reached by keyboard to scroll it.
        // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        <div className="seed-table-scroll" role="group" aria-label={title} tabIndex={0}>
          <table
            className="seed-table"
            data-testid="seed-chart-table"
            ref={(table: CsvSourceTable | null) => {
              if (table) table.seedCsv = csv;
            }}
          >
            <caption className="seed-chart-sr-only">{summary}</caption>
            <thead>
              <tr>
                {frame.columns.map((column) => {
                  const direction = sort?.key === column.key ? sort.direction : null;
                  return (
                    <th
                      key={column.key}
                      scope="col"
                      data-kind={column.kind}
                      aria-sort={direction ? sortWords[direction] : undefined}
                    >
                      <button type="button" onClick={() => toggleSort(column.key)}>
                        {column.label}
                        <span aria-hidden="true" className="seed-table-sort">
                          {direction === "asc" ? " ▲" : direction === "desc" ? " ▼" : " ↕"}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.index}>
                  {row.cells.map((cell, at) => {
                    const column = frame.columns[at];
                    const content = (
                      <>
                        {cell.tone ? (
                          <span aria-hidden="true" className="seed-table-mark">
                            {toneMarks[cell.tone]}
                          </span>
                        ) : null}
                        {cell.text}
                        {cell.toneLabel ? (
                          <span className="seed-chart-sr-only"> ({cell.toneLabel})</span>
                        ) : null}
                      </>
                    );
                    const Cell = at === 0 ? "th" : "td";
                    return (
                      <Cell
                        key={column?.key ?? at}
                        scope={at === 0 ? "row" : undefined}
                        data-kind={column?.kind}
                        data-tone={cell.tone ?? undefined}
                      >
                        {at === 0 && onValueChange ? (
                          <button
                            type="button"
                            className="seed-table-row-button"
                            onClick={() =>
                              onValueChange({
                                row: (data as readonly Row[])[row.index] as Row,
                                rowIndex: row.index,
                              })
                            }
                          >
                            {content}
                          </button>
                        ) : (
                          content
                        )}
                      </Cell>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {status === "ready" && pages > 1 ? (
        <nav className="seed-table-pages" aria-label={`Pages of ${title}`}>
          <button type="button" onClick={() => setPage(shownPage - 1)} disabled={shownPage === 0}>
            Previous page
          </button>
          <span aria-live="polite">
            Rows {(first + 1).toLocaleString(locale)}–
            {(first + shown.length).toLocaleString(locale)} of{" "}
            {sorted.length.toLocaleString(locale)}
          </span>
          <button
            type="button"
            className="seed-table-page-button"
            onClick={() => setPage(shownPage + 1)}
            disabled={shownPage >= pages - 1}
          >
            Next page
          </button>
        </nav>
      ) : null}
      <p id={summaryId} className="seed-chart-sr-only">
        {status === "loading" ? `Loading ${title}` : summary}
      </p>
    </figure>
  );
}
