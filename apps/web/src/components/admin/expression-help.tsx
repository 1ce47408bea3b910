import {
  aggregateFunctionSpecs,
  type ExpressionColumn,
  type ExpressionMode,
  functionSpecs,
  parseExpression,
  typeWord,
} from "@seed/model";

// What the admin forms say about an expression (a dataset's calculated field, a chart's formula):
// what it gives as it is typed, and which columns and functions it may use.

const examples: Record<ExpressionMode, string> = {
  row: "[revenue] / [orders]",
  formula: "sum([revenue]) / sum([orders])",
};

/** What an expression gives over the columns, checked as it is typed (the server checks again). */
export function expressionCheck(
  text: string,
  columns: readonly ExpressionColumn[],
  mode: ExpressionMode,
): string {
  if (text.trim() === "") return `Write an expression, e.g. ${examples[mode]}.`;
  const parsed = parseExpression(text, columns, mode);
  return parsed.ok
    ? `Gives ${typeWord(parsed.type)}.`
    : parsed.errors.map((error) => error.message).join(" ");
}

/** The columns an expression may name and the functions (and, in a formula, aggregates) it may call. */
export function ExpressionHelp({
  columns,
  mode,
}: {
  columns: readonly ExpressionColumn[];
  mode: ExpressionMode;
}) {
  return (
    <details>
      <summary>Columns and functions</summary>
      <p>
        Name a column in brackets:{" "}
        {columns.map((column, index) => (
          <span key={column.name}>
            {index > 0 ? ", " : null}
            <code>[{column.name}]</code> ({typeWord(column.type)})
          </span>
        ))}
        . Operators: <code>+ - * /</code>, <code>= != &lt; &lt;= &gt; &gt;=</code>,{" "}
        <code>and or not</code>. A division by zero is empty.
      </p>
      {mode === "formula" ? (
        <>
          <p>
            A formula combines each group's rows: every column sits inside one aggregate, such as{" "}
            <code>{examples.formula}</code>.
          </p>
          <ul className="function-list" aria-label="Aggregates">
            {aggregateFunctionSpecs.map((spec) => (
              <li key={spec.name}>
                <code>{spec.usage}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ul className="function-list" aria-label="Functions">
        {functionSpecs.map((spec) => (
          <li key={spec.name}>
            <code>{spec.usage}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}
