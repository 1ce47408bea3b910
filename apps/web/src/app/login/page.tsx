import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";
import { SignInForm } from "@/features/sign-in/sign-in-form";
import { returnPathUnlessSignedIn } from "./return-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const nextPath = await returnPathUnlessSignedIn(searchParams);
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <Heading level={1}>Sign in</Heading>
        <Text muted>Sign in to manage datasets, charts, dashboards and users.</Text>
        <SignInForm next={nextPath} />
      </main>
    </>
  );
}
