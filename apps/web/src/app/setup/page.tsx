import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SiteHeader } from "@/components/site-header";
import { SetupForm } from "@/features/setup/setup-form";
import { countUsers } from "@/server/first-admin";

export const metadata: Metadata = { title: "First-run setup" };
export const dynamic = "force-dynamic";

// Exists only until the first user does; afterwards it is an ordinary 404.
export default async function SetupPage() {
  if ((await countUsers()) > 0) notFound();
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <Heading level={1}>Create the first admin</Heading>
        <Text muted>
          Nobody has an account yet. The account you create here is an admin; this page disappears
          once it exists. To prove you run this server, enter the setup token it printed to its log
          when it started.
        </Text>
        <SetupForm />
      </main>
    </>
  );
}
