export interface DataTableColumn {
  key: string;
  label: string;
}

export interface DataTableProps {
  caption: string;
  indexLabel: string;
  columns: readonly DataTableColumn[];
  /** One entry per drawn point: its index label and one formatted cell per column. */
  rows: readonly { key: string; label: string; cells: readonly string[] }[];
  /** Every drawn point with raw values, header first: what `@seed/charts/export` writes as CSV. */
  csv?: () => (string | number | null)[][];
}

/** The table element carries its chart's CSV source, so the export entry needs no chart code. */
export type CsvSourceTable = HTMLTableElement & { seedCsv?: DataTableProps["csv"] };

/** A visually hidden table of exactly what the chart draws, for screen readers. */
export function DataTable({ caption, indexLabel, columns, rows, csv }: DataTableProps) {
  return (
    <table
      className="seed-chart-sr-only"
      data-testid="seed-chart-table"
      ref={(table: CsvSourceTable | null) => {
        if (table) table.seedCsv = csv;
      }}
    >
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{indexLabel}</th>
          {columns.map((column) => (
            <th key={column.key} scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {row.cells.map((cell, i) => (
              <td key={columns[i]?.key ?? i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
