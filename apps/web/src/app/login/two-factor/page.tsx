import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";
import { SecondFactorForm } from "@/features/sign-in/second-factor-form";
import { returnPathUnlessSignedIn } from "../return-path";

export const metadata: Metadata = { title: "Sign in: code" };

export default async function SecondFactorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const nextPath = await returnPathUnlessSignedIn(searchParams);
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <Heading level={1}>Enter your code</Heading>
        <Text muted>
          Your password was right. Enter the 6-digit code your authenticator app shows now, or one
          of your recovery codes.
        </Text>
        <SecondFactorForm next={nextPath} />
      </main>
    </>
  );
}
