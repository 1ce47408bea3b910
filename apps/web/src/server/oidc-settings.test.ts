import { roles } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attributesFromClaims,
  claimValues,
  describeOidcSettings,
  groupsFromClaims,
  oidcSettingsFromEnv,
  roleFromClaims,
} from "./oidc-settings.mjs";

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`oidc settings property seed: ${seed} (rerun with SEED=${seed})`);
const runs = { seed, numRuns: 2_000 };

const base = {
  SEED_OIDC_ISSUER: "https://id.example.org/realms/team",
  SEED_OIDC_CLIENT_ID: "seed-charts",
};

describe("single sign-on settings", () => {
  it("are off without an issuer", () => {
    expect(oidcSettingsFromEnv({})).toBeNull();
    expect(oidcSettingsFromEnv({ SEED_OIDC_ISSUER: "  " })).toBeNull();
  });

  it("read every setting, with openid always among the scopes", () => {
    const settings = oidcSettingsFromEnv({
      ...base,
      SEED_OIDC_CLIENT_SECRET: "s3cret-value",
      SEED_OIDC_NAME: "Keycloak",
      SEED_OIDC_SCOPES: "email profile groups",
      SEED_OIDC_DEFAULT_ROLE: "editor",
      SEED_OIDC_ROLE_CLAIM: "realm_access.roles",
      SEED_OIDC_ROLE_MAP: "seed-admins=admin, seed-viewers=viewer",
    });
    expect(settings).toMatchObject({
      issuer: base.SEED_OIDC_ISSUER,
      clientId: "seed-charts",
      clientSecret: "s3cret-value",
      name: "Keycloak",
      scopes: ["openid", "email", "profile", "groups"],
      defaultRole: "editor",
      roleClaim: "realm_access.roles",
      roleMap: [
        ["seed-admins", "admin"],
        ["seed-viewers", "viewer"],
      ],
    });
  });

  it.each([
    [{ SEED_OIDC_ISSUER: "https://id.example.org" }, /SEED_OIDC_CLIENT_ID is required/],
    [{ ...base, SEED_OIDC_ISSUER: "http://id.example.org" }, /must start with https/],
    [{ ...base, SEED_OIDC_ISSUER: "id.example.org" }, /is not a URL/],
    [{ ...base, SEED_OIDC_ISSUER: "https://id.example.org/?tenant=a" }, /no query/],
    [{ ...base, SEED_OIDC_ISSUER: "https://user:pw@id.example.org" }, /credentials/],
    [{ ...base, SEED_OIDC_DEFAULT_ROLE: "owner" }, /SEED_OIDC_DEFAULT_ROLE must be one of/],
    [{ ...base, SEED_OIDC_ROLE_CLAIM: "groups" }, /SEED_OIDC_ROLE_MAP is required/],
    [{ ...base, SEED_OIDC_ROLE_MAP: "a=admin" }, /SEED_OIDC_ROLE_CLAIM is required/],
    [{ ...base, SEED_OIDC_ROLE_CLAIM: "groups", SEED_OIDC_ROLE_MAP: "a=root" }, /"a=root" is not/],
    [{ ...base, SEED_OIDC_ROLE_CLAIM: "groups", SEED_OIDC_ROLE_MAP: "=admin" }, /is not/],
    [{ ...base, SEED_OIDC_NAME: "x".repeat(41) }, /at most 40 characters/],
    [{ ...base, SEED_OIDC_CLIENT_ID: "x".repeat(3000) }, /longer than 2048/],
  ])("refuse a wrong setting by name: %o", (env, message) => {
    expect(() => oidcSettingsFromEnv(env)).toThrow(message);
  });

  it("allow http only on this machine's loopback", () => {
    for (const host of ["localhost:8080", "127.0.0.1:9000", "[::1]:7000"]) {
      expect(oidcSettingsFromEnv({ ...base, SEED_OIDC_ISSUER: `http://${host}` })?.issuer).toBe(
        `http://${host}`,
      );
    }
  });

  it("show admins everything but the client secret", () => {
    const secret = "never-shown-0123456789";
    const settings = oidcSettingsFromEnv({ ...base, SEED_OIDC_CLIENT_SECRET: secret });
    if (!settings) throw new Error("expected settings");
    const shown = JSON.stringify(describeOidcSettings(settings));
    expect(shown).not.toContain(secret);
    expect(shown).toContain("set");
    expect(shown).toContain("/api/auth/callback/oidc");
  });
});

describe("the role a sign-in gives", () => {
  const mapped = oidcSettingsFromEnv({
    ...base,
    SEED_OIDC_ROLE_CLAIM: "groups",
    SEED_OIDC_ROLE_MAP: "team-admins=admin,team-editors=editor,team-all=viewer",
  });
  if (!mapped) throw new Error("expected settings");
  const values = fc.constantFrom("team-admins", "team-editors", "team-all", "other", "", "admin");

  it("is the highest role the claim maps to, else the default, whatever the claim holds", () => {
    const rank = { viewer: 0, editor: 1, admin: 2 } as const;
    fc.assert(
      fc.property(fc.oneof(fc.array(values, { maxLength: 8 }), values, fc.anything()), (claim) => {
        const role = roleFromClaims(mapped, { groups: claim });
        const held = Array.isArray(claim) ? claim : [claim];
        const expected = mapped.roleMap
          .filter(([value]) => held.includes(value))
          .map(([, r]) => r)
          .sort((a, b) => rank[b] - rank[a])[0];
        expect(role).toBe(expected ?? "viewer");
        expect(roles).toContain(role);
      }),
      runs,
    );
  });

  it("reads a dotted path, and never a prototype's property", () => {
    expect(claimValues({ realm_access: { roles: ["a", 1, "b"] } }, "realm_access.roles")).toEqual([
      "a",
      "b",
    ]);
    expect(claimValues({}, "constructor.name")).toEqual([]);
    expect(claimValues({ groups: "solo" }, "groups")).toEqual(["solo"]);
    expect(claimValues({ groups: { a: 1 } }, "groups")).toEqual([]);
  });

  it("is left to admins when no role claim is set", () => {
    const plain = oidcSettingsFromEnv(base);
    if (!plain) throw new Error("expected settings");
    expect(roleFromClaims(plain, { groups: ["team-admins"] })).toBeNull();
  });
});

describe("the groups a sign-in gives", () => {
  it("are the groups claim's strings, exactly, at a dotted path; none when the claim is absent", () => {
    const settings = oidcSettingsFromEnv({ ...base, SEED_OIDC_GROUPS_CLAIM: "org.groups" });
    if (!settings) throw new Error("expected settings");
    expect(describeOidcSettings(settings).groupsClaim).toBe("org.groups");
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 10 }), (names) => {
        expect(groupsFromClaims(settings, { org: { groups: names } })).toEqual(names);
      }),
      runs,
    );
    expect(groupsFromClaims(settings, {})).toEqual([]);
    expect(groupsFromClaims(settings, { org: { groups: "Finance" } })).toEqual(["Finance"]);
  });

  it("are left to admins when no groups claim is set", () => {
    const plain = oidcSettingsFromEnv(base);
    if (!plain) throw new Error("expected settings");
    expect(groupsFromClaims(plain, { groups: ["Finance"] })).toBeNull();
    expect(describeOidcSettings(plain).groupsClaim).toBe("none: groups are set by admins");
  });
});

describe("the attributes a sign-in gives (for row limits)", () => {
  it("are each named claim's strings, at a name or a dotted path; none configured, none given", () => {
    const settings = oidcSettingsFromEnv({
      ...base,
      SEED_OIDC_ATTRIBUTE_CLAIMS: "region, department=org.department",
    });
    if (!settings) throw new Error("expected settings");
    expect(describeOidcSettings(settings).attributeClaims).toBe(
      "region, department (from org.department)",
    );
    expect(
      attributesFromClaims(settings, { region: "North", org: { department: ["Sales", "Ops"] } }),
    ).toEqual({ region: ["North"], department: ["Sales", "Ops"] });
    // A claim the provider does not send is an attribute with no values (its limits show no rows).
    expect(attributesFromClaims(settings, {})).toEqual({ region: [], department: [] });
    const plain = oidcSettingsFromEnv(base);
    if (!plain) throw new Error("expected settings");
    expect(attributesFromClaims(plain, { region: "North" })).toBeNull();
    expect(describeOidcSettings(plain).attributeClaims).toBe("none");
  });

  it("refuses names a row limit could not use, and a name twice, naming the entry", () => {
    for (const bad of ["Region", "region,region", "9lives", "a=", "with space=x"]) {
      expect(() => oidcSettingsFromEnv({ ...base, SEED_OIDC_ATTRIBUTE_CLAIMS: bad })).toThrow(
        /SEED_OIDC_ATTRIBUTE_CLAIMS/,
      );
    }
  });
});
