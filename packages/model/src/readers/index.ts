// Value readers: the formats files write values in, the detection of a column's type and format
// from its cells, and the reading of one cell into the value stored. Browser-safe (date-fns only).
export * from "./choices.js";
export { daysFromCivil, readDay, readInstant } from "./dates.js";
export {
  type DetectedColumn,
  type DetectOptions,
  detectColumn,
  detectFormat,
  misfitShare,
} from "./detect.js";
export * from "./formats.js";
export { readNumber } from "./numbers.js";
export {
  booleanWords,
  emptyMarkerTexts,
  expectedCell,
  isCanonicalFormat,
  isEmptyMarker,
  readCell,
} from "./read-cell.js";
