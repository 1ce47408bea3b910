import { Heading, Text } from "@seed/ui";
import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";
import { ProviderSignIn } from "@/features/sign-in/provider-sign-in";
import { SignInForm } from "@/features/sign-in/sign-in-form";
import { signOnErrorMessage } from "@/features/sign-in/sign-on-errors";
import { oidcSettingsFromEnv } from "@/server/oidc-settings.mjs";
import { returnPathUnlessSignedIn } from "./return-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const nextPath = await returnPathUnlessSignedIn(searchParams);
  const signOnError = signOnErrorMessage((await searchParams).error);
  const provider = oidcSettingsFromEnv();
  return (
    <>
      <SiteHeader />
      <main id="main" className="site-main stack">
        <Heading level={1}>Sign in</Heading>
        <Text muted>Sign in to manage datasets, charts, dashboards and users.</Text>
        {signOnError ? (
          <p className="form-error" role="alert">
            {signOnError}
          </p>
        ) : null}
        {provider ? <ProviderSignIn name={provider.name} next={nextPath} /> : null}
        <SignInForm next={nextPath} />
      </main>
    </>
  );
}
