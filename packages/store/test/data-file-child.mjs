// The child process of test/data-file-crash.test.ts: one replace or append of a dataset's rows
// through the built data file (dist/data-file.js), its state committed to a small SQLite file as
// the store would, stopping for good at `killAt` after saying so on stdout, where the test kills it
// with SIGKILL. Points: "load" (inside the DuckDB transaction, rows inserted, uncommitted),
// "staged" (DuckDB committed, state not), "committed" (state committed, old generation not
// dropped), or "none" (runs to the end and prints "done").
import Database from "better-sqlite3";
import { sql } from "kysely";
import { openDataFile } from "../dist/data-file.js";

const { duckPath, statePath, csvPath, datasetId, columns, csvColumns, mode, killAt } = JSON.parse(
  process.argv[2],
);

async function point(name) {
  if (killAt !== name) return;
  process.stdout.write(`${name}\n`);
  // Waits on stdin, which the test never writes: the process stays here until it is killed.
  await new Promise((resolve) => process.stdin.once("data", resolve));
  throw new Error(`resumed at ${name}`);
}

const ids = columns.map((column) => `"${column.id}"`).join(", ");
const types = csvColumns.map(([name, type]) => `'${name}': '${type}'`).join(", ");
// Keys are given by the load (data-file tables have no key sequence), from `firstKey` on.
const load = async (target, trx, firstKey) => {
  await sql`insert into ${sql.table(target.table)} ("_row", ${sql.raw(ids)}) select ${sql.lit(
    firstKey - 1,
  )} + row_number() over (), * from read_csv(${sql.lit(csvPath)}, header = true, columns = {${sql.raw(types)}})`.execute(
    trx,
  );
  await point("load");
};

const state = new Database(statePath);
const file = await openDataFile(duckPath);
await file.serialise(datasetId, async () => {
  const committed = state
    .prepare("select version, generation from datasets where id = ?")
    .get(datasetId);
  let generation = committed.generation;
  if (mode === "replace") {
    ({ generation } = await file.stageReplace(datasetId, committed.version + 1, columns, load));
  } else {
    await file.stageAppend(datasetId, committed, columns, load);
  }
  await point("staged");
  state
    .prepare("update datasets set version = ?, generation = ? where id = ?")
    .run(committed.version + 1, generation, datasetId);
  await point("committed");
  if (generation !== committed.generation) {
    await file.dropGeneration(datasetId, committed.generation);
  }
});
await file.close();
state.close();
process.stdout.write("done\n");
