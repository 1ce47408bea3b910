import "server-only";
import { can, isRole, type Permission, type Role } from "@seed/model";
import { headers } from "next/headers";
import { forbidden, redirect, unauthorized } from "next/navigation";
import { cache } from "react";
import { errorResponse } from "@/lib/http-status";
import { loginPath } from "@/lib/safe-next-path";
import { getAuth } from "./auth-instance";
import { sessionSettingsFromEnv } from "./auth-options.mjs";

const sessionSettings = cache(() => sessionSettingsFromEnv());

export type { Permission, Role };

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  /** null when the stored role is not one this app knows: such a user gets no access. */
  role: Role | null;
}

export interface Session {
  user: SessionUser;
  sessionId: string;
  expiresAt: Date;
}

/** Request header the proxy sets to the requested admin path, used for the sign-in return path. */
export const requestPathHeader = "x-seed-request-path";

/** The signed-in user of this request, read once per render, or null. */
export const getSession = cache(async (): Promise<Session | null> => {
  // headers() first: it marks the render dynamic before anything opens the database.
  const requestHeaders = await headers();
  const auth = await getAuth();
  const result = await auth.api.getSession({ headers: requestHeaders });
  if (!result || result.user.banned) return null;
  // better-auth slides the expiry on use (the idle timeout); the absolute lifetime is kept here.
  const ageSeconds = (Date.now() - new Date(result.session.createdAt).getTime()) / 1000;
  if (ageSeconds > sessionSettings().maxSeconds) {
    await (await auth.$context).internalAdapter.deleteSession(result.session.token);
    return null;
  }
  return {
    user: {
      id: result.user.id,
      email: result.user.email,
      name: result.user.name,
      role: isRole(result.user.role) ? result.user.role : null,
    },
    sessionId: result.session.id,
    expiresAt: result.session.expiresAt,
  };
});

/** A session whose user has a role this app knows. */
export type SignedInSession = Session & { user: { role: Role } };

/** The early gate of pages, layouts and actions (the store decides again): no session 401 or /login, no permission 403. */
export async function requirePermission(permission: Permission): Promise<SignedInSession> {
  const session = await getSession();
  if (!session) {
    const requestHeaders = await headers();
    if (requestHeaders.has("next-action")) unauthorized();
    redirect(loginPath(requestHeaders.get(requestPathHeader) ?? "/admin"));
  }
  const role = session.user.role;
  if (role === null || !can(role, permission)) forbidden();
  return { ...session, user: { ...session.user, role } };
}

export function hasPermission(session: Session | null, permission: Permission): boolean {
  return can(session?.user.role, permission);
}

type PermissionCheckedHandler<Context> = (
  request: Request,
  session: SignedInSession,
  context: Context,
) => Promise<Response> | Response;

/** Route handlers answer 401/403 as JSON instead of redirecting. */
export function withPermission<Context = unknown>(
  permission: Permission,
  handler: PermissionCheckedHandler<Context>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const session = await getSession();
    if (!session) return errorResponse(401, "Sign in to use this endpoint.");
    const role = session.user.role;
    if (role === null || !can(role, permission)) {
      return errorResponse(403, "Your role does not allow this.");
    }
    return handler(request, { ...session, user: { ...session.user, role } }, context);
  };
}
