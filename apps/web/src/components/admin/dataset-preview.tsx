import type { DatasetColumn, DatasetRow } from "@seed/model";
import { TableRegion } from "@/components/table-region";

/** The columns with their inferred types, then the first rows, as an import would save them. */
export function DatasetPreview({
  columns,
  rows,
  rowCount,
}: {
  columns: readonly DatasetColumn[];
  rows: readonly DatasetRow[];
  rowCount: number;
}) {
  return (
    <TableRegion label="Preview">
      <table>
        <caption>
          Preview: {columns.length} columns, {rowCount} rows (first {rows.length} shown)
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.name} scope="col">
                {column.name} <span className="muted">({column.type})</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column.name}>{formatCell(row[column.name])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function formatCell(value: DatasetRow[string] | undefined): string {
  if (value === null || value === undefined) return "—";
  return String(value);
}
