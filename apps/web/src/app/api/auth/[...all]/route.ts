import { getAuth } from "@/server/auth-instance";

export const dynamic = "force-dynamic";

// better-auth's HTTP API (sign-in, sign-out, session, admin endpoints); it checks roles itself.
async function handle(request: Request): Promise<Response> {
  const auth = await getAuth();
  return auth.handler(request);
}

export { handle as GET, handle as POST };
