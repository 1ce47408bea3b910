// A second instance for test/jobs.test.ts: opens the store (dist/index.js), works one queue with a
// handler that never finishes, says which job it took, and waits to be killed.
import { openStore } from "../dist/index.js";

const { dataDir, databaseUrl, queue } = JSON.parse(process.argv[2]);
const store = await openStore({ dataDir, databaseUrl, seedDemo: false });
const jobs = await store.openJobQueue({ leaseMs: 2_000, pollMs: 200, retryDelayMs: 1_000 });
await jobs.work(queue, async (job) => {
  process.stdout.write(`${JSON.stringify({ taken: job.key })}\n`);
  await new Promise(() => {});
});
process.stdout.write(`${JSON.stringify({ working: queue })}\n`);
