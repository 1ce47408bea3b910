import { errorResponse, methodNotAllowed } from "@/lib/http-status";
import { getAuth } from "@/server/auth-instance";
import { oidcCallbackPath } from "@/server/oidc-settings.mjs";
import { withSignOnState } from "@/server/sign-on";

export const dynamic = "force-dynamic";

/**
 * The only better-auth endpoints reachable over HTTP. The app signs in, creates and changes
 * users through its own server actions (which validate, check roles and audit); everything else
 * better-auth offers (impersonation, set-password, set-role, update-user, the admin API...) is
 * closed here, whatever method or spelling is used.
 */
const openEndpoints: Readonly<Record<string, readonly string[]>> = {
  "/api/auth/get-session": ["GET"],
  "/api/auth/sign-out": ["POST"],
  "/api/auth/ok": ["GET"],
  // Where the identity provider sends the browser back (single sign-on; 404 from better-auth
  // when none is configured). Sign-ins start in the login page's server action.
  [oidcCallbackPath]: ["GET"],
};

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const methods = openEndpoints[pathname];
  if (!methods) return errorResponse(404, "This auth endpoint is not available.");
  if (!methods.includes(request.method)) return methodNotAllowed(methods);
  const auth = await getAuth();
  return withSignOnState(() => auth.handler(request));
}

export { handle as GET, handle as POST };
