import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP webhook receiver for the tests (unit, browser and cluster): it listens on
// loopback, records each call and answers 204 unless the test's `answer` says otherwise.

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>, to which a test adds its path. */
  origin: string;
  /** Every call answered 2xx, in arrival order. */
  calls: ReceivedCall[];
  close(): Promise<void>;
}

/** Starts a receiver; `answer` picks each call's status (a call answered otherwise is not kept). */
export async function startWebhookReceiver(
  answer: (call: ReceivedCall) => number = () => 204,
): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const call = {
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const status = answer(call);
      if (status >= 200 && status < 300) calls.push(call);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
