// @seed/model: the browser-safe rules every layer shares (zod only; no Node, no React).
export * from "./access.js";
export * from "./chart.js";
export * from "./chart-types.js";
export * from "./dashboard/dashboard.js";
export * from "./dashboard/filters.js";
export * from "./dashboard/layout.js";
export * from "./dashboard/tiles.js";
export * from "./dataset.js";
export * from "./errors.js";
export * from "./fields.js";
export * from "./limits.js";
export * from "./number-format.js";
export * from "./query/spec.js";
export * from "./query/time.js";
export * from "./source.js";
export * from "./values.js";
export * from "./vocabulary.js";
