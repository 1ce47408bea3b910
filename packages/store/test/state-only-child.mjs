// The child process of the stateOnly test in test/rows-data-file.test.ts: a command-line tool's
// open of the store (dist/index.js) beside a running store that holds the DuckDB data file. It
// writes state (an audit event), then asks for a dataset's rows, and prints what happened as JSON.
import { openStore } from "../dist/index.js";

const { dataDir, datasetId } = JSON.parse(process.argv[2]);
const admin = { id: "cli", email: "cli@cli.invalid", role: "admin" };
const store = await openStore({ dataDir, databaseUrl: null, stateOnly: true });
try {
  await store.recordAuditEvent({
    actor: admin,
    action: "user.create",
    entityType: "user",
    entityId: "user-from-cli",
    detail: { via: "cli" },
  });
  let rowsError = null;
  try {
    await store.runChartQuery(datasetId, { x: { column: "region" }, measures: [] });
  } catch (error) {
    rowsError = error instanceof Error ? error.message : String(error);
  }
  process.stdout.write(`${JSON.stringify({ ok: true, rowsError, limits: store.rowsLimits })}\n`);
} finally {
  await store.close();
}
