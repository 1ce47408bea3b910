import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addressRefusal,
  callWebhook,
  type DeliveryEvent,
  parseAllowedNetworks,
  type Resolve,
} from "../src/index.js";

// Webhooks may not be pointed at the server itself or its networks (SSRF). The oracle is written
// from IANA's special-purpose address registries, on numbers, without the code under test: an
// address the server calls must be globally reachable. A real receiver listening on every local
// address of both families says whether a refused call reached anything.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `[@seed/store public-address] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`,
);

// Blocks that are not globally reachable (IANA IPv4 and IPv6 special-purpose registries,
// "Globally Reachable: False"), plus, for IPv6, everything outside global unicast 2000::/3.
const notGlobal4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const notGlobal6: [string, number][] = [
  ["2001:0000::", 23],
  ["2001:0db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
];

function v4ToNumber(text: string): bigint {
  return text.split(".").reduce((sum, part) => sum * 256n + BigInt(part), 0n);
}
function v4Text(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join(".");
}
function v6ToNumber(text: string): bigint {
  const [head = "", tail = ""] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((sum, group) => sum * 65536n + BigInt(`0x${group}`), 0n);
}
function v6Text(n: bigint): string {
  const groups = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n)
    groups.push(((n >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}
function inBlock(n: bigint, base: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return n >> shift === base >> shift;
}
function globallyReachable4(n: bigint): boolean {
  return !notGlobal4.some(([base, bits]) => inBlock(n, v4ToNumber(base), bits, 32));
}
function globallyReachable6(n: bigint): boolean {
  // an IPv4-mapped address (::ffff:a.b.c.d) connects to the IPv4 address it carries
  if (n >> 32n === 0xffffn) return globallyReachable4(n & 0xffffffffn);
  if (!inBlock(n, v6ToNumber("2000::"), 3, 128)) return false;
  return !notGlobal6.some(([base, bits]) => inBlock(n, v6ToNumber(base), bits, 128));
}

/** An address near a block's edges as often as anywhere: first, last, one either side. */
function edgy(width: 32 | 128, blocks: [string, number][], toNumber: (text: string) => bigint) {
  const max = (1n << BigInt(width)) - 1n;
  const anywhere = fc.bigInt({ min: 0n, max });
  const nearEdge = fc
    .tuple(
      fc.constantFrom(...blocks),
      fc.constantFrom(-1n, 0n, 1n, -2n),
      fc.boolean(),
      fc.bigInt({ min: 0n, max }),
    )
    .map(([[base, bits], offset, atEnd, random]) => {
      const size = 1n << BigInt(width - bits);
      const start = toNumber(base);
      const n = atEnd ? start + size - 1n + offset : start + offset;
      // now and then a random address inside the block
      const inside = start + (random % size);
      return offset === -2n ? inside : n < 0n ? 0n : n > max ? max : n;
    });
  return fc.oneof(anywhere, nearEdge);
}

const ipv4 = edgy(32, notGlobal4, v4ToNumber);
const ipv6 = edgy(
  128,
  [
    ...notGlobal6,
    ["2000::", 3],
    ["::", 128],
    ["::1", 128],
    ["::ffff:0:0", 96],
    ["64:ff9b::", 96],
    ["fc00::", 7],
    ["fe80::", 10],
    ["ff00::", 8],
  ],
  v6ToNumber,
);

const event: DeliveryEvent = {
  type: "test",
  title: "Probe",
  text: "A call that must not leave",
  url: "https://seed.test/",
  at: "2026-11-29T08:00:00.000Z",
};

describe("which addresses the server calls", () => {
  it("calls no IPv4 address that is not globally reachable", () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        if (addressRefusal(v4Text(n)) === null) expect(globallyReachable4(n)).toBe(true);
        // the same address written as IPv4-mapped IPv6 is the same address
        if (addressRefusal(`::ffff:${v4Text(n)}`) === null)
          expect(globallyReachable4(n)).toBe(true);
      }),
      { seed, numRuns: 3000 },
    );
  });

  it("calls no IPv6 address that is not globally reachable", () => {
    fc.assert(
      fc.property(ipv6, (n) => {
        if (addressRefusal(v6Text(n)) === null) expect(globallyReachable6(n)).toBe(true);
      }),
      { seed, numRuns: 3000 },
    );
  });

  it("calls public addresses, and what a server allows besides", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.215.14",
      "2606:4700::1111",
      "2a00:1450::1",
    ]) {
      expect(addressRefusal(address)).toBeNull();
    }
    expect(addressRefusal("127.0.0.1")).toBe("a loopback address");
    expect(addressRefusal("10.1.2.3")).toBe("a private address");
    expect(addressRefusal("169.254.169.254")).toBe("a link-local address");
    expect(addressRefusal("fd00::1")).toBe("a private address");
    const intranet = parseAllowedNetworks(" 10.0.0.0/8, 192.168.1.20 ,::1");
    expect(addressRefusal("10.200.0.1", intranet)).toBeNull();
    expect(addressRefusal("::ffff:10.200.0.1", intranet)).toBeNull();
    expect(addressRefusal("192.168.1.20", intranet)).toBeNull();
    expect(addressRefusal("192.168.1.21", intranet)).toBe("a private address");
    expect(addressRefusal("::1", intranet)).toBeNull();
    expect(addressRefusal("127.0.0.1", intranet)).toBe("a loopback address");
    expect(() => parseAllowedNetworks("10.0.0.0/8, intranet")).toThrow(
      '"intranet" is not an address or network',
    );
    expect(() => parseAllowedNetworks("10.0.0.0/33")).toThrow('"10.0.0.0/33"');
  });
});

describe("a webhook pointed inside", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    // every local address of both families: a call to any of them on this port arrives here
    server = createServer((_request, response) => {
      hits++;
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) =>
      server.listen({ port: 0, host: "::", ipv6Only: false }, resolve),
    );
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // Ways to write a loopback or unspecified address in a URL, as a browser's parser reads them.
  const insideHost = fc
    .tuple(
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 1, max: 254 }),
    )
    .chain(([b, c, d]) => {
      const n = (127 * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d) >>> 0;
      return fc.constantFrom(
        `127.${b}.${c}.${d}`,
        String(n),
        `0x${n.toString(16)}`,
        `0177.${b}.${c}.${d}`,
        `127.${b * 65536 + c * 256 + d}`,
        `[::ffff:127.${b}.${c}.${d}]`,
        `[0:0:0:0:0:ffff:${(0x7f00 + b).toString(16)}:${(c * 256 + d).toString(16)}]`,
        "[::1]",
        "[0:0:0:0:0:0:0:1]",
        "0.0.0.0",
        "0",
        "[::]",
        "localhost",
        "localhost.",
        "LOCALHOST",
      );
    });

  it("calls no loopback or unspecified address, however it is written, and reaches nothing", async () => {
    await fc.assert(
      fc.asyncProperty(insideHost, async (host) => {
        const url = `http://${host}:${port}/hook`;
        const before = hits;
        const outcome = await callWebhook({ url, format: "json", secret: "s".repeat(32), event });
        expect(outcome.ok).toBe(false);
        // refused, or (a name this machine does not resolve, such as "localhost.") not found
        expect((outcome as { reason: string }).reason).toMatch(
          /^The webhook was not called: |^The webhook could not be reached \(ENOTFOUND\)\.$/,
        );
        expect(hits).toBe(before);
      }),
      { seed, numRuns: 120 },
    );
    // the receiver does answer a call the server is allowed to make, so the test could fail
    const allowed = await callWebhook({
      url: `http://127.0.0.1:${port}/hook`,
      format: "json",
      secret: "s".repeat(32),
      event,
      allowedNetworks: parseAllowedNetworks("127.0.0.0/8"),
    });
    expect(allowed).toMatchObject({ ok: true });
  });

  it("refuses a name when any of its answers is inside, and connects only to what it checked", async () => {
    const publicAddress = fc.constantFrom("8.8.8.8", "1.1.1.1", "2606:4700::1111");
    const insideAddress = fc.constantFrom(
      "127.0.0.1",
      "10.0.0.7",
      "169.254.169.254",
      "::1",
      "fd12::1",
      "0.0.0.0",
      "::ffff:127.0.0.1",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(publicAddress, { maxLength: 3 }),
        insideAddress,
        fc.nat(),
        async (outside, inside, at) => {
          const answers: string[] = [...outside];
          answers.splice(at % (answers.length + 1), 0, inside);
          const resolve: Resolve = async () =>
            answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
          const before = hits;
          const outcome = await callWebhook({
            url: `http://hooks.example.test:${port}/hook`,
            format: "json",
            secret: "s".repeat(32),
            event,
            resolve,
          });
          expect(outcome).toMatchObject({ ok: false, retry: false });
          expect((outcome as { reason: string }).reason).toContain("hooks.example.test is on a");
          expect(hits).toBe(before);
        },
      ),
      { seed, numRuns: 60 },
    );

    // DNS rebinding: a name that answers an allowed address first and another afterwards is
    // asked once, and the call goes to the address that was checked.
    let asked = 0;
    const rebinding: Resolve = async () => {
      asked++;
      return [{ address: asked === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    };
    const seen: string[] = [];
    const peer = createServer((request, response) => {
      seen.push(request.socket.localAddress ?? "");
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    const peerPort = (peer.address() as AddressInfo).port;
    const outcome = await callWebhook({
      url: `http://rebind.example.test:${peerPort}/hook`,
      format: "json",
      secret: "s".repeat(32),
      event,
      resolve: rebinding,
      allowedNetworks: parseAllowedNetworks("127.0.0.1"),
    });
    peer.closeAllConnections();
    await new Promise<void>((resolve) => peer.close(() => resolve()));
    expect(outcome).toMatchObject({ ok: true });
    expect(asked).toBe(1);
    expect(seen).toEqual(["127.0.0.1"]);
  });
});
