import { headers } from "next/headers";
import { methodNotAllowed } from "@/lib/http-status";
import { withPermission } from "@/server/auth";
import { getAuth } from "@/server/auth-instance";

export const dynamic = "force-dynamic";

/** Users as JSON, for admins only. */
export const GET = withPermission("users.manage", async () => {
  const auth = await getAuth();
  const { users, total } = await auth.api.listUsers({
    query: { limit: 500, sortBy: "createdAt", sortDirection: "asc" },
    headers: await headers(),
  });
  return Response.json(
    {
      total,
      users: users.map((user) => ({
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role ?? null,
        banned: Boolean(user.banned),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export function POST() {
  return methodNotAllowed(["GET", "HEAD"]);
}
