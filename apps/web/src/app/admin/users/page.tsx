import { Card, Heading } from "@seed/ui";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { FocusedStatus } from "@/components/admin/focused-status";
import { actorOf } from "@/components/admin/store-errors";
import { TableRegion } from "@/components/table-region";
import { CreateGroupForm } from "@/features/users/group-forms";
import {
  CreateUserForm,
  PasswordSignInForm,
  TwoFactorRequirementForm,
  UserRowActions,
} from "@/features/users/user-forms";
import { hasPermission, requirePermission } from "@/server/auth";
import { getAuth } from "@/server/auth-instance";
import { describeOidcSettings, oidcSettingsFromEnv } from "@/server/oidc-settings.mjs";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string; "group-deleted"?: string }>;
}) {
  const session = await requirePermission("users.manage");
  const { deleted, "group-deleted": groupDeleted } = await searchParams;
  const auth = await getAuth();
  const { users, total } = await auth.api.listUsers({
    query: { limit: 500, sortBy: "createdAt", sortDirection: "asc" },
    headers: await headers(),
  });
  const store = await getStore();
  const required = await store.twoFactorRequiredRoles();
  const passwordRoles = await store.passwordSignInRoles();
  const groups = await store.listGroups(actorOf(session));
  const groupNamesOf = new Map<string, string[]>();
  for (const group of groups) {
    for (const member of group.members) {
      groupNamesOf.set(member.userId, [...(groupNamesOf.get(member.userId) ?? []), group.name]);
    }
  }
  // better-auth's admin list carries the two-factor plugin's field, though its type does not say so.
  const oidc = oidcSettingsFromEnv();
  const signOn = oidc ? describeOidcSettings(oidc) : null;
  const twoFactorOn = (user: object) =>
    (user as { twoFactorEnabled?: unknown }).twoFactorEnabled === true;
  return (
    <>
      <Heading level={1}>Users</Heading>
      {deleted === "1" ? (
        // The deleted user's row (where its buttons spoke) is gone, so the page says it.
        <FocusedStatus>The user was deleted; their sessions ended with the account.</FocusedStatus>
      ) : null}
      {groupDeleted === "1" ? (
        <FocusedStatus>The group was deleted; its members keep their accounts.</FocusedStatus>
      ) : null}
      <Card title={`All users (${total})`} titleAs="h2">
        <TableRegion label="Users">
          <table>
            <caption className="muted">
              Accounts, their roles and groups, whether they are blocked and whether they sign in
              with a second factor.
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Two-factor</th>
                <th scope="col">Groups</th>
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
                  <td>{twoFactorOn(user) ? "On" : "Off"}</td>
                  <td>{groupNamesOf.get(user.id)?.join(", ") || "none"}</td>
                  <td>
                    <UserRowActions
                      userId={user.id}
                      email={user.email}
                      role={user.role ?? ""}
                      banned={Boolean(user.banned)}
                      isSelf={user.id === session.user.id}
                      twoFactorEnabled={twoFactorOn(user)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </Card>
      {hasPermission(session, "settings.manage") ? (
        <Card
          title="Two-factor sign-in"
          titleAs="h2"
          description="A code from an authenticator app after the password, set up by each user on their account page."
        >
          <TwoFactorRequirementForm required={required} />
        </Card>
      ) : null}
      <Card
        title="Single sign-on"
        titleAs="h2"
        description="Set by the server's SEED_OIDC_* settings (the README's single sign-on guide); the client secret is never shown."
      >
        {signOn ? (
          <dl className="detail-list">
            {(
              [
                ["Provider", signOn.name],
                ["Issuer", signOn.issuer],
                ["Client ID", signOn.clientId],
                ["Client secret", signOn.clientSecret],
                ["Scopes", signOn.scopes],
                ["Role of a new account", signOn.defaultRole],
                ["Role claim", signOn.roleClaim],
                ["Roles from the claim", signOn.roleMap],
                ["Groups claim", signOn.groupsClaim],
                ["Attributes for row limits", signOn.attributeClaims],
                ["Redirect URI path", signOn.callbackPath],
              ] as const
            ).map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {signOn && oidc && hasPermission(session, "settings.manage") ? (
          <PasswordSignInForm allowed={passwordRoles} providerName={oidc.name} />
        ) : null}
        {signOn ? null : (
          <p>
            Off: everyone signs in with a password. Set SEED_OIDC_ISSUER to sign in through an
            identity provider.
          </p>
        )}
      </Card>
      <Card
        id="groups"
        title={`Groups (${groups.length})`}
        titleAs="h2"
        description="Groups of accounts, made here or named by the identity provider's groups claim at sign-in."
      >
        {groups.length > 0 ? (
          <TableRegion label="Groups">
            <table>
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Members</th>
                  <th scope="col">Made by</th>
                </tr>
              </thead>
              <tbody>
                {groups.map((group) => (
                  <tr key={group.id}>
                    <td>
                      <Link href={`/admin/users/groups/${group.id}`}>{group.name}</Link>
                    </td>
                    <td>{group.members.length}</td>
                    <td>{group.createdBy === "sign-on" ? "a sign-in's claim" : "an admin"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        ) : (
          <p>No groups yet.</p>
        )}
        <CreateGroupForm />
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
