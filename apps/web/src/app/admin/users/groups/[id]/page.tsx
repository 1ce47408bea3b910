import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { actorOf } from "@/components/admin/store-errors";
import {
  DeleteGroupForm,
  GroupMembersForm,
  type MemberChoice,
  RenameGroupForm,
} from "@/features/users/group-forms";
import { requirePermission } from "@/server/auth";
import { getAuth } from "@/server/auth-instance";
import { oidcSettingsFromEnv } from "@/server/oidc-settings.mjs";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Group" };
export const dynamic = "force-dynamic";

export default async function GroupPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requirePermission("users.manage");
  const { id } = await params;
  const store = await getStore();
  const group = await store.getGroup(actorOf(session), id);
  if (!group) notFound();
  const { users } = await (await getAuth()).api.listUsers({
    query: { limit: 500, sortBy: "name", sortDirection: "asc" },
    headers: await headers(),
  });
  const sourcesOf = new Map(group.members.map((member) => [member.userId, member.sources]));
  const choices: MemberChoice[] = users.map((user) => ({
    userId: user.id,
    name: user.name,
    email: user.email,
    byAdmin: sourcesOf.get(user.id)?.includes("admin") ?? false,
    bySignOn: sourcesOf.get(user.id)?.includes("sign-on") ?? false,
  }));
  // Members past the listed accounts are kept as they are, not dropped by a save.
  const listed = new Set(users.map((user) => user.id));
  const unlisted = group.members
    .filter((member) => !listed.has(member.userId) && member.sources.includes("admin"))
    .map((member) => member.userId);
  const providerName = oidcSettingsFromEnv()?.name ?? null;
  return (
    <>
      <Heading level={1}>Group {group.name}</Heading>
      <Text muted>
        <Link href="/admin/users#groups">Back to users and groups</Link>
      </Text>
      <Card
        title="Name"
        titleAs="h2"
        description={
          group.createdBy === "sign-on"
            ? "Made when a sign-in's groups claim first named it; the claim finds it by this name."
            : "A sign-in whose groups claim names it (in any case) joins this group."
        }
      >
        <RenameGroupForm groupId={group.id} name={group.name} />
      </Card>
      <Card
        title={`Members (${group.members.length})`}
        titleAs="h2"
        description="An admin's members are checked here; members through the provider's claim change at their next sign-in."
      >
        <GroupMembersForm
          groupId={group.id}
          choices={choices}
          unlisted={unlisted}
          providerName={providerName}
        />
      </Card>
      <Card title="Delete" titleAs="h2">
        <DeleteGroupForm groupId={group.id} name={group.name} />
      </Card>
    </>
  );
}
