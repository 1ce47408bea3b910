import { sourcesKeyProblem } from "@seed/store";
import { Card, Heading } from "@seed/ui";
import type { Metadata } from "next";
import Link from "next/link";
import { SourceForm } from "@/features/sources/source-form";
import { requirePermission } from "@/server/auth";

export const metadata: Metadata = { title: "New live source" };

export default async function NewSourcePage() {
  await requirePermission("sources.manage");
  const keyProblem = sourcesKeyProblem(process.env.SEED_SOURCES_KEY);
  return (
    <>
      <Heading level={1}>New live source</Heading>
      {keyProblem ? (
        <p className="form-error" role="alert">
          {keyProblem}
        </p>
      ) : null}
      <Card
        title="Connection"
        titleAs="h2"
        description="Use a role that may only read (see the README's Live sources). Test the connection, then add it."
      >
        <SourceForm />
      </Card>
      <p>
        <Link href="/admin/sources">Back to live sources</Link>
      </p>
    </>
  );
}
