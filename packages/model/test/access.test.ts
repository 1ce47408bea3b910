import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CollectionLevel,
  can,
  collectionLevelOf,
  collectionLevels,
  groupLimits,
  groupNameKey,
  groupNameRefusal,
  highestRole,
  isRole,
  levelIncludes,
  normalGroupName,
  type Permission,
  permissions,
  type Role,
  roleCollectionCeiling,
  rolePermissions,
  roles,
  rowsPermission,
  sharedCollectionLevel,
  tokenScopePermissions,
} from "../src/access.js";
import { ForbiddenError, storeErrorOf } from "../src/errors.js";
import { datasetTokenScopes } from "../src/limits.js";

const writes: readonly Permission[] = [
  "content.write",
  "rows.append",
  "rows.replace",
  "sources.manage",
  "users.manage",
];

describe("roles and permissions", () => {
  it("gives an admin everything, an editor content, a viewer reads only", () => {
    expect(permissions.filter((permission) => can("admin", permission))).toEqual([...permissions]);
    expect(permissions.filter((permission) => can("editor", permission))).toEqual([
      "content.read",
      "content.write",
      "rows.append",
      "rows.replace",
      "audit.read",
      "sql.run",
    ]);
    expect(permissions.filter((permission) => can("viewer", permission))).toEqual([
      "content.read",
      "audit.read",
    ]);
  });

  it("lets no viewer write anything and no editor manage users or sources", () => {
    for (const permission of writes) expect(can("viewer", permission)).toBe(false);
    expect(can("editor", "users.manage")).toBe(false);
    expect(can("editor", "sources.manage")).toBe(false);
  });

  it("allows nothing without a known role", () => {
    fc.assert(
      fc.property(fc.constantFrom(...permissions), fc.option(fc.string()), (permission, role) => {
        const allowed = can(role as Role | null, permission);
        expect(allowed).toBe(isRole(role) && rolePermissions[role].includes(permission));
      }),
    );
    expect(can(undefined, "content.read")).toBe(false);
    expect(can("Admin" as Role, "content.read")).toBe(false);
  });

  it("orders the roles: each may what the one below may", () => {
    const ladder: Role[] = ["viewer", "editor", "admin"];
    expect([...ladder].sort()).toEqual([...roles].sort());
    for (const [lower, higher] of [
      ["viewer", "editor"],
      ["editor", "admin"],
    ] as const) {
      for (const permission of rolePermissions[lower]) expect(can(higher, permission)).toBe(true);
    }
  });

  it("names only known permissions in the tables", () => {
    const known = new Set<string>(permissions);
    for (const granted of [
      ...Object.values(rolePermissions),
      ...Object.values(tokenScopePermissions),
    ]) {
      for (const permission of granted) expect(known.has(permission)).toBe(true);
    }
    expect(Object.keys(rolePermissions).sort()).toEqual([...roles].sort());
    expect(Object.keys(tokenScopePermissions).sort()).toEqual([...datasetTokenScopes].sort());
  });

  it("lets a push token write rows only, a replace token also append", () => {
    expect(tokenScopePermissions.append).toEqual(["rows.append"]);
    expect(tokenScopePermissions.replace).toEqual(["rows.append", "rows.replace"]);
  });

  it("asks an append for rows.append and anything else for rows.replace", () => {
    expect(rowsPermission("append")).toBe("rows.append");
    expect(rowsPermission("replace")).toBe("rows.replace");
    expect(rowsPermission("upsert")).toBe("rows.replace");
  });

  it("has a typed refusal recognised by its kind", () => {
    const refusal = new ForbiddenError("content.write", "user-1");
    expect(refusal.kind).toBe("forbidden");
    expect(refusal.permission).toBe("content.write");
    expect(storeErrorOf(refusal)).toBe(refusal);
    expect(storeErrorOf(Object.assign(new Error("x"), { kind: "forbidden" }))).not.toBeNull();
  });
});

describe("highestRole", () => {
  it("is the role of most reach among any candidates, or null for none", () => {
    expect(highestRole([])).toBeNull();
    for (const a of roles)
      for (const b of roles) {
        const both = highestRole([a, b]);
        expect(both).toBe(highestRole([b, a]));
        expect([a, b]).toContain(both);
        // Nothing listed reaches further than the answer.
        for (const permission of ["users.manage", "content.write", "content.read"] as const)
          if (can(a, permission) || can(b, permission))
            expect(can(both ?? "viewer", permission)).toBe(true);
      }
    expect(highestRole(["viewer", "admin", "editor"])).toBe("admin");
  });
});

describe("group names", () => {
  const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
  console.log(`group names property seed: ${seed} (rerun with SEED=${seed})`);

  it("name one group whatever their case and spacing; a shown name is its own normal form", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 120 }),
        fc.array(fc.constantFrom(" ", "\t", "  "), { maxLength: 3 }),
        (name, pad) => {
          const shown = normalGroupName(name);
          expect(normalGroupName(shown)).toBe(shown);
          expect(shown).toBe(shown.trim());
          expect(groupNameKey(`${pad.join("")}${name.toUpperCase()}${pad.join("")}`)).toBe(
            groupNameKey(name.toLowerCase()),
          );
          const refusal = groupNameRefusal(name);
          if (shown === "") expect(refusal).toBe("Enter a name.");
          if (shown.length > groupLimits.maxNameLength) expect(refusal).toMatch(/under 81/);
          if (refusal === null) {
            expect(shown.length).toBeGreaterThan(0);
            expect(shown.length).toBeLessThanOrEqual(groupLimits.maxNameLength);
          }
        },
      ),
      { seed, numRuns: 2_000 },
    );
  });

  it("refuse control characters rather than dropping them", () => {
    expect(groupNameRefusal("Finance\u0000")).toBe("Use letters, digits and punctuation only.");
    expect(groupNameRefusal("Fin\u007fance")).toBe("Use letters, digits and punctuation only.");
    expect(groupNameRefusal("  Finance  team ")).toBeNull();
  });
});

describe("collection levels", () => {
  const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
  console.log(`collection levels property seed: ${seed} (rerun with SEED=${seed})`);

  it("are the best grant, never above the role's ceiling; admins manage all; nothing without a grant", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom<unknown>(...roles, "owner", "", null)),
        fc.array(fc.constantFrom(...collectionLevels), { maxLength: 6 }),
        (role, grants) => {
          const level = collectionLevelOf(role as Role, grants);
          if (!isRole(role) || (role !== "admin" && grants.length === 0)) {
            expect(level).toBeNull();
            return;
          }
          if (role === "admin") {
            expect(level).toBe("manage");
            return;
          }
          expect(levelIncludes(roleCollectionCeiling[role], level as CollectionLevel)).toBe(true);
          // Some grant reaches it, and no grant above it is kept unless the ceiling cut it.
          expect(grants.some((grant) => levelIncludes(grant, level as CollectionLevel))).toBe(true);
          for (const grant of grants) {
            if (levelIncludes(roleCollectionCeiling[role], grant)) {
              expect(levelIncludes(level, grant)).toBe(true);
            }
          }
        },
      ),
      { seed, numRuns: 2_000 },
    );
    expect(collectionLevelOf("viewer", ["manage"])).toBe("view");
    expect(collectionLevelOf("editor", ["view", "edit"])).toBe("edit");
    expect(sharedCollectionLevel).toEqual({ admin: "manage", editor: "edit", viewer: "view" });
    expect(levelIncludes(null, "view")).toBe(false);
  });
});
