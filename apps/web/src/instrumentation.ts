// Runs once per server process before it serves requests (Next's instrumentation hook).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installRequestHooks } = await import("./server/request-hooks");
  installRequestHooks();
  const { announceSetupToken } = await import("./server/first-admin");
  try {
    await announceSetupToken();
  } catch (error) {
    // A database that is down at start must not keep the server from starting: /api/health
    // answers, /api/ready says 503 until the database is back, and requests retry it.
    const { observability } = await import("./server/observability");
    observability().logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "Could not reach the database at start; setup token not checked",
    );
  }
  const { startProvisioning } = await import("./server/provisioning");
  startProvisioning();
  const { startDelivery } = await import("./server/delivery");
  startDelivery().catch(async (error) => {
    const { observability } = await import("./server/observability");
    observability().logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "Could not start checking alerts and sending scheduled reports",
    );
  });
}
