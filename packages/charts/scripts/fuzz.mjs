// `pnpm fuzz`: the never-crash properties (src/never-crash) at 100,000 runs in all, in rounds.
// Each round is a fresh Vitest process: chart renders in happy-dom keep memory for the life
// of a worker (about 1 MB a render, raw Recharts too), so one long run would run out of memory.
//
// FC_SEED: seed of the first round (round r uses FC_SEED + r); random when unset (`pnpm test`
// uses a fixed one). FUZZ_TOTAL: total runs (default 100,000); FC_RUNS: runs per property and
// round (default 500; `pnpm test` runs 200 from a fixed seed).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

// one property per test file: each chart type and option combination
const PROPERTIES = readdirSync(new URL("../src/never-crash/", import.meta.url)).filter((file) =>
  file.endsWith(".test.tsx"),
).length;
const total = Number(process.env.FUZZ_TOTAL) || 100_000;
const runs = Number(process.env.FC_RUNS) || 500;
const rounds = Math.ceil(total / (runs * PROPERTIES));
const base = process.env.FC_SEED ? Number(process.env.FC_SEED) : (Math.random() * 2 ** 31) | 0;

console.log(
  `[@seed/charts fuzz] ${rounds} rounds x ${PROPERTIES} properties x ${runs} runs; first seed ${base} (FC_SEED=${base} repeats this fuzz run)`,
);
const started = Date.now();
for (let round = 0; round < rounds; round++) {
  const seed = (base + round) | 0;
  console.log(`[@seed/charts fuzz] round ${round + 1}/${rounds}, seed ${seed}`);
  const result = spawnSync("pnpm", ["exec", "vitest", "run", "--config", "vitest.fuzz.config.ts"], {
    stdio: "inherit",
    env: { ...process.env, FC_SEED: String(seed), FC_RUNS: String(runs) },
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    console.error(
      `[@seed/charts fuzz] round ${round + 1} failed; repeat it with FC_SEED=${seed} FC_RUNS=${runs} pnpm exec vitest run src/never-crash`,
    );
    process.exit(result.status ?? 1);
  }
}
console.log(
  `[@seed/charts fuzz] ${rounds * runs * PROPERTIES} runs passed in ${Math.round((Date.now() - started) / 1000)} s`,
);
