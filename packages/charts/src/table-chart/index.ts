export type {
  TableColumn,
  TableColumnKind,
  TableRule,
  TableTone,
} from "./prepare";
export type { TableChartProps } from "./table-chart";
export { TableChart } from "./table-chart";
