import type { Chart, DatasetRow } from "@seed/store";
import { Card } from "@seed/ui";

// Placeholder until @seed/charts is built: the chart's data as a table.
export function DashboardChart({ chart, rows }: { chart: Chart; rows: DatasetRow[] }) {
  const columns = [chart.indexColumn, ...chart.seriesColumns];
  return (
    <Card title={chart.title} titleAs="h2">
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column}>{String(row[column] ?? "")}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
