import { createHmac, randomUUID } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { WebhookFormat } from "@seed/model";
import type { DeliveryOutcome } from "./mail.js";
import {
  type AllowedNetworks,
  RefusedAddressError,
  type Resolve,
  refuseLiteralHost,
  vettedLookup,
} from "./public-address.js";

// Webhooks: a JSON body signed with HMAC-SHA256 over "<timestamp>.<body>" (so a receiver can
// refuse a replay), or a body Slack's and Teams' incoming webhooks take as it is. Redirects are
// not followed: the address an admin set is the only one called, and only if it is public
// (public-address.ts), checked at the call on the very addresses connected to.

/** What a delivery says, whatever carries it. */
export interface DeliveryEvent {
  type: "alert.fired" | "alert.resolved" | "report.sent" | "test";
  title: string;
  text: string;
  /** Where to see it in the app. */
  url: string;
  /** The value an alert saw, when there is one. */
  value?: number | null;
  at: string;
}

export const webhookSignatureHeader = "Seed-Signature";

/** "t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>". */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${mac}`;
}

function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The body for a format: our event as JSON, Slack's blocks, or a Teams adaptive card. */
export function webhookBody(event: DeliveryEvent, format: WebhookFormat): string {
  switch (format) {
    case "json":
      return JSON.stringify(event);
    case "slack": {
      const line = `*${slackEscape(event.title)}*\n${slackEscape(event.text)}`;
      return JSON.stringify({
        text: `${event.title}: ${event.text}`,
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: line } },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                text: { type: "plain_text", text: "Open in Seed" },
                url: event.url,
              },
            ],
          },
        ],
      });
    }
    case "teams":
      return JSON.stringify({
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                {
                  type: "TextBlock",
                  text: event.title,
                  weight: "Bolder",
                  size: "Medium",
                  wrap: true,
                },
                { type: "TextBlock", text: event.text, wrap: true },
              ],
              actions: [{ type: "Action.OpenUrl", title: "Open in Seed", url: event.url }],
            },
          },
        ],
      });
  }
}

export interface WebhookCall {
  url: string;
  format: WebhookFormat;
  /** Signs json bodies; Slack and Teams addresses are secrets themselves. */
  secret: string;
  event: DeliveryEvent;
  /** The same id on every retry of one delivery, so a receiver can keep it once. */
  deliveryId?: string;
  now?: () => Date;
  timeoutMs?: number;
  /** Networks this server may call besides public addresses (none unless configured). */
  allowedNetworks?: AllowedNetworks;
  /** The DNS to ask; the system's unless a test brings its own. */
  resolve?: Resolve;
}

/** Posts `body` and resolves with the answer's head; the answer's body is read no further. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  call: WebhookCall,
  timeoutMs: number,
): Promise<IncomingMessage> {
  refuseLiteralHost(url.hostname, call.allowedNetworks ?? []);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: vettedLookup(call.allowedNetworks ?? [], call.resolve) as never,
      signal: AbortSignal.timeout(timeoutMs),
    });
    outgoing.on("response", (response) => {
      // Nothing from the answer is shown or kept.
      response.resume();
      resolve(response);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** One call; the outcome says whether a retry may pass (a timeout, 408, 429, 5xx) or not. */
export async function callWebhook(
  call: WebhookCall,
): Promise<DeliveryOutcome & { retryAfterMs?: number }> {
  const body = webhookBody(call.event, call.format);
  const seconds = Math.floor((call.now?.() ?? new Date()).getTime() / 1000);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Seed-Webhooks/1",
    "seed-delivery": call.deliveryId ?? randomUUID(),
  };
  if (call.format === "json")
    headers[webhookSignatureHeader] = webhookSignature(call.secret, body, seconds);
  const timeoutMs = call.timeoutMs ?? 10_000;
  let response: IncomingMessage;
  try {
    response = await post(new URL(call.url), headers, body, call, timeoutMs);
  } catch (error) {
    if (error instanceof RefusedAddressError) {
      return { ok: false, retry: false, reason: `The webhook was not called: ${error.message}.` };
    }
    const code = (error as { code?: string }).code;
    const timedOut =
      (error as Error).name === "TimeoutError" ||
      ((error as Error).name === "AbortError" && code === "ABORT_ERR");
    return {
      ok: false,
      retry: true,
      reason: timedOut
        ? `The webhook did not answer within ${timeoutMs / 1000} s.`
        : `The webhook could not be reached${code ? ` (${code})` : ""}.`,
    };
  }
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return { ok: true, id: headers["seed-delivery"] ?? "" };
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      retry: false,
      reason: `The webhook answered ${status} (a redirect); redirects are not followed.`,
    };
  }
  const retry = status === 408 || status === 429 || status >= 500;
  const after = Number(response.headers["retry-after"]);
  return {
    ok: false,
    retry,
    reason: `The webhook answered ${status}.`,
    ...(retry && Number.isFinite(after) && after > 0
      ? { retryAfterMs: Math.min(after, 3600) * 1000 }
      : {}),
  };
}
