import { Card, Heading } from "@seed/ui";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { FocusedStatus } from "@/components/admin/focused-status";
import { TableRegion } from "@/components/table-region";
import { CreateUserForm, UserRowActions } from "@/features/users/user-forms";
import { requirePermission } from "@/server/auth";
import { getAuth } from "@/server/auth-instance";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string }>;
}) {
  const session = await requirePermission("users.manage");
  const { deleted } = await searchParams;
  const auth = await getAuth();
  const { users, total } = await auth.api.listUsers({
    query: { limit: 500, sortBy: "createdAt", sortDirection: "asc" },
    headers: await headers(),
  });
  return (
    <>
      <Heading level={1}>Users</Heading>
      {deleted === "1" ? (
        // The deleted user's row (where its buttons spoke) is gone, so the page says it.
        <FocusedStatus>The user was deleted; their sessions ended with the account.</FocusedStatus>
      ) : null}
      <Card title={`All users (${total})`} titleAs="h2">
        <TableRegion label="Users">
          <table>
            <caption className="muted">Accounts, their roles and whether they are blocked.</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id} data-user-email={user.email}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td>{user.role ?? "none"}</td>
                  <td>{user.banned ? "Blocked" : "Active"}</td>
                  <td>
                    <UserRowActions
                      userId={user.id}
                      email={user.email}
                      role={user.role ?? ""}
                      banned={Boolean(user.banned)}
                      isSelf={user.id === session.user.id}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </Card>
      <Card
        title="Create a user"
        titleAs="h2"
        description="They sign in with this email and password."
      >
        <CreateUserForm />
      </Card>
    </>
  );
}
