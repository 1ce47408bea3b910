"use client";

import type { CsvProblem } from "@seed/store/csv";

/** Every problem found in the file (up to the listed limit), each with its line. */
export function CsvProblemList({
  id,
  problem,
}: {
  id: string;
  /** A parse's problem, or an import preview's problems. */
  problem: Pick<CsvProblem, "problemCount"> & {
    problems: readonly { message: string; line: number | null; column: string | null }[];
  };
}) {
  const more = problem.problemCount - problem.problems.length;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="field-error stack">
      <p id={`${id}-title`}>
        <strong>
          {problem.problemCount === 1
            ? "1 problem in the file; nothing is saved until it is fixed"
            : `${problem.problemCount.toLocaleString()} problems in the file; nothing is saved until they are fixed`}
        </strong>
      </p>
      <ol>
        {problem.problems.map((found, index) => (
          <li key={`${found.line}-${found.column}-${index}`}>{found.message}</li>
        ))}
      </ol>
      {more > 0 ? (
        <p>
          The first {problem.problems.length} are listed; {more.toLocaleString()} more are not.
        </p>
      ) : null}
    </section>
  );
}
