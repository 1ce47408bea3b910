// The calculated-field expression language: tokenizer, parser, type checker, functions, printer.
export { compiledSize, nearestName, parseExpression } from "./check.js";
export {
  aggregateFunctionNames,
  aggregateFunctionSpec,
  aggregateFunctionSpecs,
  constantNumber,
  type DatePart,
  dateParts,
  dateUnits,
  type FunctionSpec,
  functionNames,
  functionSpec,
  functionSpecs,
  type TimeUnit,
  timeParts,
  timeUnits,
} from "./functions.js";
export { parseSyntax } from "./parser.js";
export { printExpression } from "./print.js";
export * from "./tree.js";
