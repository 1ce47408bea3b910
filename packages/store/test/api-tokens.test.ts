import { apiTokenLimits, apiTokenRole, roles } from "@seed/model";
import { describe, expect, it } from "vitest";
import { admin, editor, otherEditor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore } from "./helpers.js";

// Personal API tokens (issue 30): shown once, kept as a hash, expiring, revocable, audited, and
// never more than their user.

describe.each(dialects)("API tokens on %s", (dialect) => {
  it("shows a token once, keeps only its hash, and stops it when revoked or expired", async () => {
    let now = Date.parse("2026-11-01T00:00:00.000Z");
    const store = await openTestStore(dialect, { seedDemo: false, now: () => new Date(now) });
    const { token, secret } = await store.createApiToken(
      { name: " CLI on my laptop ", scope: "write", expiresInDays: 30 },
      editor,
    );
    expect(secret).toMatch(/^seed_pat_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: "CLI on my laptop",
      scope: "write",
      userId: editor.id,
      prefix: secret.slice(0, 13),
      expiresAt: "2026-12-01T00:00:00.000Z",
    });
    const listed = await store.listApiTokens(editor);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(13));
    expect(await store.listApiTokens(otherEditor)).toEqual([]);
    expect(await store.authenticateApiToken(secret)).toEqual({
      tokenId: token.id,
      userId: editor.id,
      scope: "write",
    });
    for (const wrong of [
      "",
      "seed_pat_",
      `${secret}x`,
      secret.replace("seed_pat_", "seed_"),
      secret.toUpperCase(),
    ]) {
      expect(await store.authenticateApiToken(wrong)).toBeNull();
    }
    // Another editor cannot revoke it (nor learn it exists); an admin of accounts can.
    expect(await errorOf(store.revokeApiToken(token.id, otherEditor))).toMatchObject({
      kind: "invalid",
      fieldErrors: { tokenId: ["No such token."] },
    });
    const second = await store.createApiToken(
      { name: "Script", scope: "read", expiresInDays: 1 },
      editor,
    );
    await store.revokeApiToken(second.token.id, admin);
    expect(await store.authenticateApiToken(second.secret)).toBeNull();
    now += 30 * 86_400_000;
    expect(await store.authenticateApiToken(secret)).toBeNull();
    const events = await store.listAuditEvents({ actorId: editor.id, limit: 10 });
    expect(events.events.map((event) => event.action).sort()).toEqual([
      "user.api-token-create",
      "user.api-token-create",
    ]);
    expect(JSON.stringify(events.events)).not.toContain(secret.slice(13));
  });

  it("refuses bad input by field, and more active tokens than an account may have", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const error = await errorOf(
      store.createApiToken({ name: "", scope: "admin" as never, expiresInDays: 366 }, viewer),
    );
    expect(error).toMatchObject({
      fieldErrors: {
        name: ["Enter a name."],
        scope: ["The scope must be read or write."],
        expiresInDays: ["A token lasts at most 365 days."],
      },
    });
    for (let n = 0; n < apiTokenLimits.maxActivePerUser; n++) {
      await store.createApiToken({ name: `t${n}`, scope: "read", expiresInDays: 1 }, viewer);
    }
    expect(
      await errorOf(
        store.createApiToken({ name: "one more", scope: "read", expiresInDays: 1 }, viewer),
      ),
    ).toMatchObject({ formError: "An account has at most 20 active tokens; revoke one first." });
  });
});

describe("a token's role", () => {
  it("is its user's role, never above its scope", () => {
    for (const role of roles) {
      expect(apiTokenRole(role, "read")).toBe("viewer");
      expect(apiTokenRole(role, "write")).toBe(role === "admin" ? "editor" : role);
    }
  });
});
