import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { type CommittedRows, type DataFile, openDataFile } from "../src/db/data-file.js";
import type { TableColumn } from "../src/db/dataset-table.js";
import { dialects } from "../src/db/dialect.js";
import type { CsvFilePlan } from "../src/db/duckdb-csv.js";
import { deleteRows, readKeyedRows, updateRow } from "../src/db/rows-table.js";

// Row keys in the DuckDB data file: a CSV file bulk-loaded into a fresh generation keeps no keys
// of its own (its row ids imply them, data-file.ts), every other write gives them. Whatever the
// writes, a row's key never changes while the row lives, and no two rows share one: generated
// sequences of replaces (CSV), appends (CSV and appender), crashed appends (committed in the
// file, never in the state), row edits and deletes (a copied generation), checkpoints and
// reopens with recovery, against a model of the committed rows. Sizes reach past DuckDB's row
// group (122,880 rows), where deleted rows are vacuumed away at a checkpoint.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`data-file-keys-property seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

const columns: TableColumn[] = [
  { id: "c_n", name: "n", type: "number" },
  { id: "c_s", name: "s", type: "string" },
];
const datasetId = "keys";
const rowGroup = 122_880;
/** The key every read and edit uses (a stored key, or the row id plus one). */
const keyRef = dialects.duckdb.rowKeyRef;
const md5 = (text: string) => createHash("md5").update(text).digest("hex");

type Op =
  | { kind: "replaceCsv"; rows: number }
  | { kind: "appendCsv"; rows: number }
  | { kind: "appendRows"; rows: number }
  | { kind: "crashedAppend"; rows: number }
  | { kind: "edit"; picks: number[]; deletes: number[] }
  | { kind: "checkpoint" }
  | { kind: "reopen" };

const size = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 2048, 2049, rowGroup - 1, rowGroup + 5) },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("replaceCsv" as const), rows: size }),
  fc.record({ kind: fc.constant("appendCsv" as const), rows: size }),
  fc.record({ kind: fc.constant("appendRows" as const), rows: fc.integer({ min: 0, max: 300 }) }),
  fc.record({
    kind: fc.constant("crashedAppend" as const),
    rows: fc.integer({ min: 1, max: 300 }),
  }),
  fc.record({
    kind: fc.constant("edit" as const),
    picks: fc.array(fc.nat(), { maxLength: 5 }),
    deletes: fc.array(fc.nat(), { maxLength: 5 }),
  }),
  fc.constant({ kind: "checkpoint" as const }),
  fc.constant({ kind: "reopen" as const }),
);

const dir = mkdtempSync(path.join(tmpdir(), "seed-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("row keys in the DuckDB data file", () => {
  it("stay with their rows and stay unique through every kind of write, crash and reopen", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 20 }),
        async (ops, firstRows) => {
          run++;
          const fileName = path.join(dir, `run-${run}.duckdb`);
          let file: DataFile = await openDataFile(fileName);
          let label = 0;
          /** The committed rows: key, then the label it was written with and its number. */
          let model: Array<[number, string, number]> = [];
          let committed: CommittedRows = { version: 0, generation: 0 };
          const csvOf = (rows: number) => {
            const added: Array<[string, number]> = [];
            const lines = ["n,s"];
            for (let i = 0; i < rows; i++) {
              const name = `r${++label}`;
              added.push([name, label % 97]);
              lines.push(`${label % 97},${name}`);
            }
            const csv = path.join(dir, `run-${run}-${label}.csv`);
            writeFileSync(csv, `${lines.join("\n")}\n`);
            const plan: CsvFilePlan = {
              file: csv,
              delimiter: ",",
              headerCount: 2,
              order: [0, 1],
              carriageReturns: false,
              edgeWhitespace: false,
              quotes: false,
              underscores: false,
              plusSigns: false,
            };
            return { plan, added };
          };
          // A loop, not Math.max(...keys): a row group's worth of arguments overflows the stack.
          const nextKey = () => model.reduce((most, [key]) => Math.max(most, key), 0) + 1;
          const check = async () => {
            if (committed.generation === 0) return;
            const table = file.readTable(datasetId, committed, columns);
            // A page from the end, as the data table reads it, then every row by a digest.
            const tail = model.slice(-50);
            const read = await readKeyedRows(file.db, table, {
              limit: 50,
              offset: model.length - tail.length,
            });
            expect(read.map(({ key, row }) => [key, row.s, row.n])).toEqual(tail);
            const whole = await sql<{
              n: number | string;
              d: string | null;
            }>`select count(*) as n, count(distinct ${keyRef}) as u, md5(string_agg(cast(${keyRef} as varchar) || ':' || c_s || ':' || cast(cast(c_n as bigint) as varchar), ',' order by ${keyRef})) as d from ${sql.table(table.table)} where "_v" <= ${sql.lit(committed.version)}`.execute(
              file.db,
            );
            const [found] = whole.rows as Array<{ n: unknown; u: unknown; d: string | null }>;
            expect(Number(found?.u)).toBe(Number(found?.n));
            const expected =
              model.length === 0 ? null : md5(model.map((entry) => entry.join(":")).join(","));
            expect({ rows: Number(found?.n), digest: found?.d }).toEqual({
              rows: model.length,
              digest: expected,
            });
          };
          const replace = async (rows: number) => {
            const { plan, added } = csvOf(rows);
            const write = await file.beginReplace(datasetId, committed.version + 1, columns);
            await write.insertCsv(plan);
            await write.commit();
            const old = committed.generation;
            committed = { version: committed.version + 1, generation: write.generation };
            if (old > 0) await file.dropGeneration(datasetId, old);
            model = added.map(([name, n], index) => [index + 1, name, n]);
          };
          const appendWith = async (rows: number, csv: boolean, crash: boolean) => {
            const write = await file.beginAppend(datasetId, committed, columns);
            const first = crash ? 0 : nextKey();
            const added: Array<[string, number]> = [];
            if (csv) {
              const made = csvOf(rows);
              await write.insertCsv(made.plan);
              for (const entry of made.added) added.push(entry);
            } else {
              const writer = await write.openWriter();
              for (let i = 0; i < rows; i++) {
                const name = `r${++label}`;
                added.push([name, label % 97]);
                await writer.write([label % 97, name]);
              }
              await writer.close();
            }
            await write.commit();
            // A crashed append: committed in the file, never recorded by the state database.
            if (crash) return;
            committed = { ...committed, version: committed.version + 1 };
            added.forEach(([name, n], index) => {
              model.push([first + index, name, n]);
            });
          };
          await replace(firstRows);
          await check();
          for (const step of ops) {
            switch (step.kind) {
              case "replaceCsv":
                if (step.rows > 0) await replace(step.rows);
                break;
              case "appendCsv":
                if (step.rows > 0) await appendWith(step.rows, true, false);
                break;
              case "appendRows":
                await appendWith(step.rows, false, false);
                break;
              case "crashedAppend":
                await appendWith(step.rows, false, true);
                break;
              case "edit": {
                if (model.length === 0) break;
                const write = await file.beginCopy(datasetId, committed, columns);
                const edited = new Map(model.map((entry) => [entry[0], entry]));
                for (const pick of step.picks) {
                  const [key, name] = model[pick % model.length] as [number, string, number];
                  await updateRow(write.trx, write.table, key, { c_n: -1, c_s: `${name}!` });
                  edited.set(key, [key, `${name}!`, -1]);
                }
                const doomed = [
                  ...new Set(step.deletes.map((d) => model[d % model.length]?.[0] ?? 0)),
                ];
                await deleteRows(write.trx, write.table.table, doomed);
                for (const key of doomed) edited.delete(key);
                await write.commit();
                const old = committed.generation;
                committed = { version: committed.version + 1, generation: write.generation };
                await file.dropGeneration(datasetId, old);
                model = [...edited.values()].sort((a, b) => a[0] - b[0]);
                break;
              }
              case "checkpoint":
                await sql`checkpoint`.execute(file.db);
                break;
              case "reopen":
                await file.close();
                file = await openDataFile(fileName);
                await file.recover(new Map([[datasetId, committed]]));
                break;
            }
            await check();
          }
          await file.close();
        },
      ),
      { seed, numRuns: 20 },
    );
  }, 600_000);
});
