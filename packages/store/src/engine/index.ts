export { type CompileOptions, compileChartQuery } from "./compile.js";
export {
  type QueryObserver,
  type QueryTiming,
  type RunQueryOptions,
  runQuery,
} from "./execute.js";
export { parseQuery, QueryError } from "./parse.js";
export type { QueryResult, QueryResultColumn } from "./result.js";
