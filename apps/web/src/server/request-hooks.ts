import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { methodLabel, routeLabel, statusLabel } from "@/lib/route-label";
import { peerAddressHeader, peerHeaderSecret } from "./client-address";
import { observability } from "./observability";

const installed = Symbol.for("seed.requestHooks");

/** The id a client or proxy sent is kept when it looks like one; otherwise a new one is made. */
export const requestIdHeader = "x-request-id";
const wellFormedRequestId = /^[A-Za-z0-9._:-]{8,64}$/;

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Hooks every incoming request of this process's HTTP servers, before Next sees it:
 * - puts "<process secret> <socket peer address>" in x-seed-peer-address, replacing whatever a
 *   client sent (Next's `next start` exposes no peer address to server code, and keeps a
 *   client-sent X-Forwarded-For as it is, so this is the only trustworthy source);
 * - gives the request an id (x-request-id on the request and the response);
 * - when the response ends, writes one JSON log line and observes the request-duration metric.
 */
export function installRequestHooks(): void {
  const secret = peerHeaderSecret();
  const { logger, requestDuration } = observability();
  for (const prototype of [http.Server.prototype, https.Server.prototype] as unknown as Record<
    string | symbol,
    unknown
  >[]) {
    if (prototype[installed]) continue;
    const emit = prototype.emit as Emit;
    prototype.emit = function emitWithHooks(
      this: unknown,
      event: string | symbol,
      ...args: unknown[]
    ) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        const response = args[1] as http.ServerResponse;
        request.headers[peerAddressHeader] = `${secret} ${request.socket?.remoteAddress ?? ""}`;
        const sent = request.headers[requestIdHeader];
        const requestId =
          typeof sent === "string" && wellFormedRequestId.test(sent) ? sent : randomUUID();
        request.headers[requestIdHeader] = requestId;
        response.setHeader(requestIdHeader, requestId);
        const started = process.hrtime.bigint();
        response.once("finish", () => {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const path = (request.url ?? "/").split("?")[0] ?? "/";
          const route = routeLabel(path);
          const method = methodLabel(request.method);
          const status = statusLabel(response.statusCode);
          requestDuration.observe({ method, route, status }, seconds);
          const line = {
            requestId,
            method,
            path,
            route,
            status: response.statusCode,
            ms: Math.round(seconds * 1000),
          };
          if (route === "/_next") logger.debug(line, "request");
          else logger.info(line, "request");
        });
      }
      return emit.call(this, event, ...args);
    };
    prototype[installed] = true;
  }
}
