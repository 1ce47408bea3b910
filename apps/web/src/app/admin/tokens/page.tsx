import { Card, Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { actorOf } from "@/components/admin/store-errors";
import {
  CreatePersonalTokenForm,
  PersonalTokenList,
  type PersonalTokenRow,
} from "@/features/api-tokens/personal-tokens";
import { requirePermission } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function ApiTokensPage() {
  const session = await requirePermission("content.read");
  const store = await getStore();
  const now = Date.now();
  const tokens: PersonalTokenRow[] = (await store.listApiTokens(actorOf(session))).map((token) => ({
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scope: token.scope,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    status:
      token.revokedAt !== null
        ? "revoked"
        : Date.parse(token.expiresAt) <= now
          ? "expired"
          : "active",
  }));
  return (
    <>
      <Heading level={1}>API tokens</Heading>
      <Text muted>
        Personal tokens let programs (the seed command-line tool, a CI job) use the REST API as your
        account: never more than your role allows, and a read token only reads. See the{" "}
        <Link href="/docs/api">API reference</Link>.
      </Text>
      <Card title="Create a token" titleAs="h2">
        <CreatePersonalTokenForm />
      </Card>
      <Card title="Your tokens" titleAs="h2">
        <PersonalTokenList tokens={tokens} />
      </Card>
    </>
  );
}
