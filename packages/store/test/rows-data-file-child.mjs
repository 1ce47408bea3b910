// The child process of test/rows-data-file.test.ts: opens the built store (dist/index.js) with
// dataset rows in the DuckDB data file and imports generated sales rows into a dataset; once the
// import has written `stopAt` rows it says "loading" on stdout and waits, where the test kills it
// with SIGKILL, in the middle of the DuckDB transaction and inside the state transaction.
import { salesCsvChunks } from "@seed/sample-data";
import { openStore } from "../dist/index.js";

const { dataDir, datasetId, expectedVersion, mode, rows, stopAt } = JSON.parse(process.argv[2]);
const editor = { id: "user-editor", email: "editor@example.com", role: "editor" };

async function* bytes() {
  const encoder = new TextEncoder();
  for (const chunk of salesCsvChunks(rows, { seed: 7 })) yield encoder.encode(chunk);
}

const store = await openStore({
  dataDir,
  databaseUrl: null,
  datasetEngine: "duckdb",
  seedDemo: false,
});
let said = false;
await store.importIntoDataset(
  {
    datasetId,
    expectedVersion,
    mode,
    source: bytes(),
    onProgress: (progress) => {
      if (said || progress.rows < stopAt) return;
      said = true;
      process.stdout.write("loading\n");
      // Blocks the event loop here, mid-import: the process stays until it is killed.
      const until = new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(until, 0, 0);
    },
  },
  editor,
);
process.stdout.write("done\n");
await store.close();
