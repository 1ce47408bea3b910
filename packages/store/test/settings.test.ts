import { ForbiddenError, ValidationError } from "@seed/model";
import { describe, expect, it } from "vitest";
import { admin, editor, viewer } from "./actors.js";
import { dialects, errorOf, openTestStore } from "./helpers.js";

describe.each(dialects)("the two-factor requirement on %s", (dialect) => {
  it("requires nobody until an admin chooses roles, kept in role order and audited", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    expect(await store.twoFactorRequiredRoles()).toEqual([]);

    expect(
      await store.setTwoFactorRequiredRoles(admin, { roles: ["editor", "admin", "admin"] }),
    ).toEqual(["admin", "editor"]);
    expect(await store.twoFactorRequiredRoles()).toEqual(["admin", "editor"]);
    await store.setTwoFactorRequiredRoles(admin, { roles: ["viewer", "admin"] });
    expect(await store.twoFactorRequiredRoles()).toEqual(["admin", "viewer"]);

    const { events } = await store.listAuditEvents({ action: "settings.update" });
    const details = events
      .filter((event) => event.entityId === "auth.two-factor-required")
      .map((event) => event.detail);
    expect(details).toEqual([
      { added: ["viewer"], removed: ["editor"] },
      { added: ["admin", "editor"], removed: [] },
    ]);
  });

  it("refuses other roles and unknown names, changing nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.setTwoFactorRequiredRoles(admin, { roles: ["admin"] });

    for (const actor of [editor, viewer]) {
      expect(await errorOf(store.setTwoFactorRequiredRoles(actor, { roles: [] }))).toBeInstanceOf(
        ForbiddenError,
      );
    }
    const refused = await errorOf(store.setTwoFactorRequiredRoles(admin, { roles: ["owner"] }));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(JSON.stringify((refused as ValidationError).fieldErrors)).toContain(
      "Choose from admin, editor and viewer.",
    );
    expect(await store.twoFactorRequiredRoles()).toEqual(["admin"]);
  });
});

describe.each(dialects)("password sign-in by role on %s", (dialect) => {
  it("lets every role in until an admin chooses; admins always keep it; audited", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    expect(await store.passwordSignInRoles()).toEqual(["admin", "editor", "viewer"]);

    expect(await store.setPasswordSignInRoles(admin, { roles: [] })).toEqual(["admin"]);
    expect(await store.passwordSignInRoles()).toEqual(["admin"]);
    expect(await store.setPasswordSignInRoles(admin, { roles: ["viewer", "viewer"] })).toEqual([
      "admin",
      "viewer",
    ]);
    const { events } = await store.listAuditEvents({ action: "settings.update" });
    expect(
      events.filter((event) => event.entityId === "auth.password-sign-in").map((e) => e.detail),
    ).toEqual([
      { added: ["viewer"], removed: [] },
      { added: [], removed: ["editor", "viewer"] },
    ]);
  });

  it("refuses other roles and unknown names, changing nothing", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    await store.setPasswordSignInRoles(admin, { roles: ["editor"] });
    for (const actor of [editor, viewer]) {
      expect(await errorOf(store.setPasswordSignInRoles(actor, { roles: [] }))).toBeInstanceOf(
        ForbiddenError,
      );
    }
    expect(await errorOf(store.setPasswordSignInRoles(admin, { roles: ["root"] }))).toBeInstanceOf(
      ValidationError,
    );
    expect(await store.passwordSignInRoles()).toEqual(["admin", "editor"]);
  });
});
