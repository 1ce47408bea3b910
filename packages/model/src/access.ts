import type { DatasetTokenScope } from "./limits.js";

// One vocabulary of who may do what: the web app asks it to refuse early, the store to decide.

/** The roles an account may have; exactly one each. */
export const roles = ["admin", "editor", "viewer"] as const;
export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Everything a role or a push token may be allowed, each named by what it opens. */
export const permissions = [
  /** The admin area: datasets and their rows, charts, dashboards with drafts, their history. */
  "content.read",
  /** Create, change, publish, restore and delete datasets, charts and dashboards; push tokens; signed embed links. */
  "content.write",
  /** Add rows to a dataset (an import or push in append mode). */
  "rows.append",
  /** Replace all of a dataset's rows (an import or push in replace mode, or a rows rewrite). */
  "rows.replace",
  /** Live sources: their credentials, connection tests, remote tables, datasets read from them. */
  "sources.manage",
  /** The audit log, with actors shown by name. */
  "audit.read",
  /** Accounts and who they are: create, change, block and delete users; emails and user events' details in the audit log. */
  "users.manage",
  /** Run SQL over the datasets (read-only, sandboxed by the engine: no app tables, files or network). */
  "sql.run",
  /** The instance's own settings, such as whether SQL questions may run at all. */
  "settings.manage",
  /** Make and delete collections; manage every collection whatever its grants. */
  "collections.manage",
] as const;
export type Permission = (typeof permissions)[number];

const contentWriter = [
  "content.read",
  "content.write",
  "rows.append",
  "rows.replace",
  "audit.read",
  "sql.run",
] as const satisfies readonly Permission[];

/** What each role may: an admin everything, an editor content, a viewer reads only. */
export const rolePermissions: Readonly<Record<Role, readonly Permission[]>> = {
  admin: permissions,
  editor: contentWriter,
  viewer: ["content.read", "audit.read"],
};

/** What a push API token of each scope may, on its own dataset only (replace may also append). */
export const tokenScopePermissions: Readonly<Record<DatasetTokenScope, readonly Permission[]>> = {
  append: ["rows.append"],
  replace: ["rows.append", "rows.replace"],
};

/** Whether `role` allows `permission`; no role (an unknown stored one) allows nothing. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  if (!isRole(role)) return false;
  return rolePermissions[role].includes(permission);
}

/** The permission writing rows in this mode needs; anything but an append counts as a replace. */
export function rowsPermission(mode: string): Permission {
  return mode === "append" ? "rows.append" : "rows.replace";
}

/** What a personal API token may do, at most: read everything its user reads, or also write content. */
export const apiTokenScopes = ["read", "write"] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

export const apiTokenLimits = {
  maxNameLength: 100,
  /** Tokens one account may have that are neither revoked nor expired. */
  maxActivePerUser: 20,
  /** Every token expires; at most this long after it is made. */
  maxLifetimeDays: 365,
} as const;

/** The most a scope allows, as a role: read is a viewer's reach, write an editor's. */
const scopeCeiling: Readonly<Record<ApiTokenScope, Role>> = { read: "viewer", write: "editor" };
const roleRank: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, admin: 2 };

/** The role of most reach among `candidates` (admin, then editor, then viewer), or null for none. */
export function highestRole(candidates: readonly Role[]): Role | null {
  let highest: Role | null = null;
  for (const role of candidates)
    if (highest === null || roleRank[role] > roleRank[highest]) highest = role;
  return highest;
}

/**
 * The role a token acts with: its user's role today, never above its scope's ceiling, so a token
 * does no more than its user (a demoted user's tokens shrink with them) nor than its scope.
 */
export function apiTokenRole(userRole: Role, scope: ApiTokenScope): Role {
  const ceiling = scopeCeiling[scope];
  return roleRank[userRole] <= roleRank[ceiling] ? userRole : ceiling;
}

/**
 * Groups of accounts (src/repo/groups.ts in the store): made by an admin, or named by the
 * identity provider's groups claim at sign-in. Names compare without regard to case or the
 * spaces around them, so the provider's "Finance" is the admin's "finance".
 */
export const groupLimits = {
  maxNameLength: 80,
  /** Groups one instance may have, whoever made them. */
  maxGroups: 1_000,
  /** Members one group may have. */
  maxMembers: 10_000,
  /** Groups one sign-in's claim may name; more are not taken (and the server log says so). */
  maxFromSignOn: 100,
} as const;

/** Where a membership comes from: an admin's choice, or the provider's claim at sign-in. */
export const groupMemberSources = ["admin", "sign-on"] as const;
export type GroupMemberSource = (typeof groupMemberSources)[number];

/**
 * A name as shown, for anything named by people and found by its name (groups, collections):
 * spaces around it dropped, inner runs of whitespace made one space.
 */
export function normalName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/**
 * The key two names are the same thing by: the shown name case-folded (lower, upper, then lower
 * case, so "ẞ", "ß" and "SS", or "ᾀ" and "ἈΙ", fold alike) in one Unicode normal form.
 */
export function nameKey(name: string): string {
  const shown = normalName(name).normalize("NFC");
  return shown.toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
}

/** Why `name` cannot be a name of at most `maxLength` characters, or null when it can. */
export function nameRefusal(name: string, maxLength: number): string | null {
  const shown = normalName(name);
  if (shown === "") return "Enter a name.";
  if (shown.length > maxLength) return `Keep the name under ${maxLength + 1} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(shown)) return "Use letters, digits and punctuation only.";
  return null;
}

/** A group name as shown (normalName). */
export const normalGroupName = normalName;

/** The key two names are the same group by (nameKey). */
export const groupNameKey = nameKey;

/** Why `name` cannot name a group, or null when it can. */
export function groupNameRefusal(name: string): string | null {
  return nameRefusal(name, groupLimits.maxNameLength);
}

/**
 * Collections (src/repo/collections.ts in the store) hold datasets, charts, dashboards and
 * sources; each grants groups a level. What is in no collection is Shared: everyone's, by role.
 */
export const collectionLimits = {
  maxNameLength: 80,
  maxDescriptionLength: 500,
  /** Collections one instance may have. */
  maxCollections: 1_000,
  /** Groups one collection may grant. */
  maxGrants: 200,
} as const;

/** What a collection's grant lets its group do there, each level including the ones before it. */
export const collectionLevels = ["view", "edit", "manage"] as const;
export type CollectionLevel = (typeof collectionLevels)[number];

export function isCollectionLevel(value: unknown): value is CollectionLevel {
  return typeof value === "string" && (collectionLevels as readonly string[]).includes(value);
}

/** The most a role may do in any collection, whatever its groups are granted: a viewer never edits. */
export const roleCollectionCeiling: Readonly<Record<Role, CollectionLevel>> = {
  admin: "manage",
  editor: "manage",
  viewer: "view",
};

/** What each role may do with what is in no collection (Shared): as before collections. */
export const sharedCollectionLevel: Readonly<Record<Role, CollectionLevel>> = {
  admin: "manage",
  editor: "edit",
  viewer: "view",
};

const levelRank: Readonly<Record<CollectionLevel, number>> = { view: 1, edit: 2, manage: 3 };

/** Whether `level` (null: nothing) includes `needed`. */
export function levelIncludes(level: CollectionLevel | null, needed: CollectionLevel): boolean {
  return level !== null && levelRank[level] >= levelRank[needed];
}

/**
 * What an account may do in a collection: an admin manages every one; anyone else the best of
 * its groups' grants there, no more than its role's ceiling; null when no group of its is granted.
 */
export function collectionLevelOf(
  role: Role | null | undefined,
  grants: readonly CollectionLevel[],
): CollectionLevel | null {
  if (!isRole(role)) return null;
  if (role === "admin") return "manage";
  const best = grants.reduce<CollectionLevel | null>(
    (top, level) => (top === null || levelRank[level] > levelRank[top] ? level : top),
    null,
  );
  if (best === null) return null;
  const ceiling = roleCollectionCeiling[role];
  return levelRank[best] <= levelRank[ceiling] ? best : ceiling;
}

/** Why `name` cannot name a collection, or null when it can. */
export function collectionNameRefusal(name: string): string | null {
  return nameRefusal(name, collectionLimits.maxNameLength);
}
