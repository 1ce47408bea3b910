import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SiteHeader } from "@/components/site-header";
import { SignInForm } from "@/features/sign-in/sign-in-form";
import { safeNextPath } from "@/lib/safe-next-path";
import { getSession } from "@/server/auth";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  const nextPath = safeNextPath(typeof next === "string" ? next : undefined);
  if (await getSession()) redirect(nextPath);
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
