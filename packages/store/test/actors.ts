import type { Role } from "@seed/model";
import type { Actor } from "../src/index.js";

export const editor: Actor = { id: "user-editor", email: "editor@example.com", role: "editor" };
export const otherEditor: Actor = { id: "user-other", email: "other@example.com", role: "editor" };
export const admin: Actor = { id: "user-admin", email: "admin@example.com", role: "admin" };
export const viewer: Actor = { id: "user-viewer", email: "viewer@example.com", role: "viewer" };

/** One actor of each role. */
export const actors: Record<Role, Actor> = { admin, editor, viewer };
