// Test helper (not part of any build entry): fast-check runs of the "reads right" properties
// (issue 27) that print their seed, so any failure can be repeated.
import fc from "fast-check";

const DEFAULT_SEED = 20_270_027;

/**
 * fc.assert from a fixed seed (FC_SEED overrides it, FC_RUNS the run count), printing the seed
 * first and naming it again in a failure.
 */
export function assertSeeded<Ts>(name: string, property: fc.IRawProperty<Ts>, runs: number): void {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : DEFAULT_SEED;
  const numRuns = Number(process.env.FC_RUNS) || runs;
  console.log(`[@seed/charts reads-right] ${name}: fast-check seed ${seed}, ${numRuns} runs`);
  try {
    fc.assert(property, { seed, numRuns });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
    throw new Error(
      `${name}: fast-check seed ${seed} failed (repeat with FC_SEED=${seed} FC_RUNS=${numRuns}):\n${message}\n${cause}`,
    );
  }
}
