// Runs once per server process before it serves requests (Next's instrumentation hook).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressHeader } = await import("./server/peer-address");
  installPeerAddressHeader();
  const { announceSetupToken } = await import("./server/first-admin");
  await announceSetupToken();
}
