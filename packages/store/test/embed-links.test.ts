import { describe, expect, it } from "vitest";
import { embedLinkKey, embedLinkLimits, signEmbedLink, verifyEmbedLink } from "../src/index.js";

const key = embedLinkKey({ embedSecret: "an embed secret of at least 32 characters" });
const now = new Date("2026-06-01T12:00:00Z");
const nowSeconds = Math.floor(now.getTime() / 1000);
const board = { kind: "dashboard", id: "6f1c1c1e-2b8e-4a35-9d0c-5b8d0f6a1e01" } as const;

describe("signed embed links", () => {
  it("verifies its own link until it expires", () => {
    const link = signEmbedLink(key, board, nowSeconds + 3600, now);

    expect(verifyEmbedLink(key, board, link, now)).toBe("valid");
    expect(verifyEmbedLink(key, board, link, new Date((nowSeconds + 3600) * 1000))).toBe("expired");
  });

  it("refuses a tampered signature, expiry, kind or id", () => {
    const link = signEmbedLink(key, board, nowSeconds + 3600, now);
    const lastChar = link.sig.at(-1) === "A" ? "B" : "A";

    expect(
      verifyEmbedLink(key, board, { ...link, sig: `${link.sig.slice(0, -1)}${lastChar}` }, now),
    ).toBe("invalid");
    expect(verifyEmbedLink(key, board, { ...link, exp: String(nowSeconds + 7200) }, now)).toBe(
      "invalid",
    );
    expect(verifyEmbedLink(key, { kind: "chart", id: board.id }, link, now)).toBe("invalid");
    expect(
      verifyEmbedLink(
        key,
        { kind: "dashboard", id: "6f1c1c1e-2b8e-4a35-9d0c-5b8d0f6a1e02" },
        link,
        now,
      ),
    ).toBe("invalid");
    expect(verifyEmbedLink(key, board, { exp: link.exp, sig: null }, now)).toBe("invalid");
    expect(verifyEmbedLink(key, board, { exp: ` ${link.exp}`, sig: link.sig }, now)).toBe(
      "invalid",
    );
  });

  it("refuses a link signed with another key, including the auth secret itself", () => {
    const authSecret = "the auth secret, also 32 characters or more";
    const derived = embedLinkKey({ authSecret });
    const link = signEmbedLink(derived, board, nowSeconds + 60, now);

    expect(verifyEmbedLink(derived, board, link, now)).toBe("valid");
    expect(verifyEmbedLink(key, board, link, now)).toBe("invalid");
    expect(derived.equals(Buffer.from(authSecret))).toBe(false);
    expect(verifyEmbedLink(Buffer.from(authSecret), board, link, now)).toBe("invalid");
  });

  it("never signs or accepts an expiry beyond the longest lifetime", () => {
    const tooFar = nowSeconds + embedLinkLimits.maxLifetimeSeconds + 1;

    expect(() => signEmbedLink(key, board, tooFar, now)).toThrow(RangeError);
    expect(() => signEmbedLink(key, board, nowSeconds, now)).toThrow(RangeError);
    // A genuine signature over a far-future expiry, as a leaked key could make.
    const farFuture = nowSeconds + embedLinkLimits.maxLifetimeSeconds * 10;
    const early = new Date((farFuture - embedLinkLimits.maxLifetimeSeconds + 10) * 1000);
    const minted = signEmbedLink(key, board, farFuture, early);
    expect(verifyEmbedLink(key, board, minted, early)).toBe("valid");
    expect(verifyEmbedLink(key, board, minted, now)).toBe("invalid");
  });

  it("has no default key: it needs a long enough secret", () => {
    expect(() => embedLinkKey({})).toThrow();
    expect(() => embedLinkKey({ embedSecret: "short" })).toThrow();
    expect(() => embedLinkKey({ authSecret: "short" })).toThrow();
  });
});
