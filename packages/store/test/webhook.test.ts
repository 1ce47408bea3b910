import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callWebhook,
  type DeliveryEvent,
  parseAllowedNetworks,
  webhookBody,
} from "../src/index.js";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/store webhook] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

interface Hit {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real HTTP receiver: each path answers as the test tells it. */
async function startReceiver(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const hits: Hit[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      hits.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How a receiver checks a call, written from the documented scheme, not from our code. */
function receiverAccepts(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  if (Math.abs(nowSeconds - Number(match[1])) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2] ?? "", "hex"));
}

const event: DeliveryEvent = {
  type: "alert.fired",
  title: "Revenue below 1,000 <EUR> & falling",
  text: "Revenue is 812 (was 1,204).",
  url: "https://seed.test/d/sales",
  value: 812,
  at: "2026-11-28T08:00:00.000Z",
};

// The receiver listens on loopback, which webhooks refuse unless the server allows it.
const loopback = parseAllowedNetworks("127.0.0.0/8");

describe("webhooks to a real receiver", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((request, response) => {
      const path = request.url ?? "";
      if (path === "/redirect") {
        response.writeHead(302, { location: receiver.url("/elsewhere") }).end();
      } else if (path === "/busy") {
        response.writeHead(429, { "retry-after": "7" }).end();
      } else if (path === "/down") {
        response.writeHead(503).end("maintenance");
      } else if (path === "/bad") {
        response.writeHead(400).end("no");
      } else if (path === "/hang") {
        // Never answers; the caller's timeout ends it.
      } else {
        response.writeHead(204).end();
      }
    });
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("signs any event so a receiver following the documented scheme accepts it, and nothing else", async () => {
    const text = fc.string({ unit: "grapheme", maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.string({ minLength: 16, maxLength: 64 }),
        async (title, body, secret) => {
          const before = receiver.hits.length;
          const now = new Date("2026-11-28T08:00:00Z");
          const outcome = await callWebhook({
            url: receiver.url("/hook"),
            format: "json",
            secret,
            event: { ...event, title, text: body },
            deliveryId: "delivery-1",
            now: () => now,
            allowedNetworks: loopback,
          });
          expect(outcome.ok).toBe(true);
          const hit = receiver.hits[before];
          const seconds = now.getTime() / 1000;
          const signature = hit?.headers["seed-signature"] as string | undefined;
          expect(receiverAccepts(secret, signature, hit?.body ?? "", seconds)).toBe(true);
          expect(receiverAccepts(`${secret}x`, signature, hit?.body ?? "", seconds)).toBe(false);
          expect(receiverAccepts(secret, signature, `${hit?.body} `, seconds)).toBe(false);
          // A replay ten minutes later is refused by its timestamp.
          expect(receiverAccepts(secret, signature, hit?.body ?? "", seconds + 600)).toBe(false);
          expect(JSON.parse(hit?.body ?? "{}")).toEqual({ ...event, title, text: body });
          expect(hit?.headers["seed-delivery"]).toBe("delivery-1");
          expect(hit?.headers["content-type"]).toBe("application/json");
        },
      ),
      { seed, numRuns: 60 },
    );
  });

  it("says which failures a retry may mend, and follows no redirect", async () => {
    const call = (path: string, timeoutMs?: number) =>
      callWebhook({
        url: receiver.url(path),
        format: "json",
        secret: "k".repeat(32),
        event,
        allowedNetworks: loopback,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    expect(await call("/ok")).toMatchObject({ ok: true });
    const before = receiver.hits.length;
    expect(await call("/redirect")).toMatchObject({ ok: false, retry: false });
    expect(receiver.hits.slice(before).map((hit) => hit.path)).toEqual(["/redirect"]);
    expect(await call("/busy")).toEqual({
      ok: false,
      retry: true,
      reason: "The webhook answered 429.",
      retryAfterMs: 7000,
    });
    expect(await call("/down")).toMatchObject({ ok: false, retry: true });
    expect(await call("/bad")).toMatchObject({ ok: false, retry: false });
    expect(await call("/hang", 300)).toMatchObject({
      ok: false,
      retry: true,
      reason: "The webhook did not answer within 0.3 s.",
    });
    const closed = await startReceiver(() => undefined);
    const url = closed.url("/gone");
    await closed.close();
    expect(
      await callWebhook({
        url,
        format: "json",
        secret: "k".repeat(32),
        event,
        allowedNetworks: loopback,
      }),
    ).toMatchObject({ ok: false, retry: true });
  });

  it("writes Slack's and Teams' bodies as they take them, with the app's link", async () => {
    const slack = JSON.parse(webhookBody(event, "slack"));
    expect(slack.text).toBe("Revenue below 1,000 <EUR> & falling: Revenue is 812 (was 1,204).");
    expect(slack.blocks[0]).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: "*Revenue below 1,000 &lt;EUR&gt; &amp; falling*\nRevenue is 812 (was 1,204).",
      },
    });
    expect(slack.blocks[1].elements[0].url).toBe(event.url);
    const teams = JSON.parse(webhookBody(event, "teams"));
    expect(teams.type).toBe("message");
    expect(teams.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(teams.attachments[0].content.body[0].text).toBe(event.title);
    expect(teams.attachments[0].content.actions[0]).toEqual({
      type: "Action.OpenUrl",
      title: "Open in Seed",
      url: event.url,
    });
    // Slack and Teams bodies carry no signature header: their address is the secret.
    const before = receiver.hits.length;
    await callWebhook({
      url: receiver.url("/slack"),
      format: "slack",
      secret: "k".repeat(32),
      event,
      allowedNetworks: loopback,
    });
    expect(receiver.hits[before]?.headers["seed-signature"]).toBeUndefined();
  });
});
