import http from "node:http";
import https from "node:https";
import { peerAddressHeader, peerHeaderSecret } from "./client-address";

const installed = Symbol.for("seed.peerAddressHeader");

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Puts "<process secret> <socket peer address>" on every incoming request, replacing whatever a
 * client sent under that name. Next's `next start` exposes no peer address to server actions,
 * and keeps a client-sent X-Forwarded-For as it is, so this is the only trustworthy source.
 */
export function installPeerAddressHeader(): void {
  const secret = peerHeaderSecret();
  for (const prototype of [http.Server.prototype, https.Server.prototype] as unknown as Record<
    string | symbol,
    unknown
  >[]) {
    if (prototype[installed]) continue;
    const emit = prototype.emit as Emit;
    prototype.emit = function emitWithPeer(
      this: unknown,
      event: string | symbol,
      ...args: unknown[]
    ) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        request.headers[peerAddressHeader] = `${secret} ${request.socket?.remoteAddress ?? ""}`;
      }
      return emit.call(this, event, ...args);
    };
    prototype[installed] = true;
  }
}
