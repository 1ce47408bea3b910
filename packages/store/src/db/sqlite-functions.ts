import { offsetAt, percentileOfSorted } from "@seed/model";
import type BetterSqlite3 from "better-sqlite3";

// The SQL functions the store adds to each SQLite connection, for what SQLite lacks: time zones
// (a timestamp's wall clock in an IANA zone, and back, from the runtime's ICU data) and Unicode
// case. Calculated-field expressions use them (db/dialect.ts); they are deterministic.

/** A zone's wall-clock ms back to the instant; a wall time the clocks skip reads as before the jump. */
export function utcOfLocalMs(timeZone: string, localMs: number): number {
  const first = localMs - offsetAt(timeZone, localMs);
  return localMs - offsetAt(timeZone, first);
}

export function registerSqliteFunctions(database: BetterSqlite3.Database): void {
  const options = { deterministic: true } as const;
  // The continuous percentile of the non-empty values (percentileOf's rule, as on every engine).
  type Values = { values: number[]; p: number };
  const percentile = {
    start: (): Values => ({ values: [], p: 0.5 }),
    step: (state: Values, value: unknown, p: unknown) => {
      state.p = Number(p);
      if (value !== null && value !== undefined) state.values.push(Number(value));
    },
    result: (state: Values) =>
      percentileOfSorted(
        state.values.sort((a, b) => a - b),
        state.p,
      ),
  };
  // better-sqlite3 passes every argument to step; its types name only the first.
  database.aggregate(
    "seed_percentile",
    percentile as unknown as Parameters<BetterSqlite3.Database["aggregate"]>[1],
  );
  database.function("seed_local_ms", options, (ms: unknown, zone: unknown) =>
    ms === null ? null : Number(ms) + offsetAt(String(zone), Number(ms)),
  );
  database.function("seed_utc_ms", options, (ms: unknown, zone: unknown) =>
    ms === null ? null : utcOfLocalMs(String(zone), Number(ms)),
  );
  database.function("seed_lower", options, (text: unknown) =>
    text === null ? null : String(text).toLowerCase(),
  );
  database.function("seed_upper", options, (text: unknown) =>
    text === null ? null : String(text).toUpperCase(),
  );
}
