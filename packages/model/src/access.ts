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

/** A group name as shown: spaces around it dropped, inner runs of whitespace made one space. */
export function normalGroupName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/**
 * The key two names are the same group by: the shown name case-folded (lower, upper, then lower
 * case, so "ẞ", "ß" and "SS", or "ᾀ" and "ἈΙ", fold alike) in one Unicode normal form.
 */
export function groupNameKey(name: string): string {
  const shown = normalGroupName(name).normalize("NFC");
  return shown.toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
}

/** Why `name` cannot name a group, or null when it can. */
export function groupNameRefusal(name: string): string | null {
  const shown = normalGroupName(name);
  if (shown === "") return "Enter a name.";
  if (shown.length > groupLimits.maxNameLength)
    return `Keep the name under ${groupLimits.maxNameLength + 1} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(shown)) return "Use letters, digits and punctuation only.";
  return null;
}
