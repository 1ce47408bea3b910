import { Card, Heading } from "@seed/ui";
import type { Metadata } from "next";
import { FocusedStatus } from "@/components/admin/focused-status";
import { TwoFactorPanel } from "@/features/account/two-factor-panel";
import { hasPassword, requireAccount, twoFactorRequiredFor } from "@/server/auth";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

const notices: Record<string, string> = {
  on: "Two-factor sign-in is on. Next time, after your password, enter a code from your app.",
  off: "Two-factor sign-in is off: you sign in with your password alone.",
};

export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<{ "two-factor"?: string }>;
}) {
  // Open while two-factor setup is due: this is where it is done.
  const session = await requireAccount();
  const { user } = session;
  const passwordAccount = await hasPassword(user.id);
  const required = passwordAccount && (await twoFactorRequiredFor(user.role));
  const notice = (await searchParams)["two-factor"];
  const groups = await (await getStore()).groupsOfUser(user.id);
  return (
    <>
      <Heading level={1}>Your account</Heading>
      {required && !user.twoFactorEnabled ? (
        <FocusedStatus>
          Every {user.role} must sign in with a second factor here. Set it up below to go on.
        </FocusedStatus>
      ) : notice && notices[notice] ? (
        <FocusedStatus>{notices[notice]}</FocusedStatus>
      ) : null}
      <Card title="Who you are" titleAs="h2">
        <dl className="detail-list">
          {[
            ["Name", user.name],
            ["Email", user.email],
            ["Role", user.role],
            ["Groups", groups.map((group) => group.name).join(", ") || "none"],
          ].map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card
        title="Two-factor sign-in"
        titleAs="h2"
        description="After your password, a 6-digit code from an authenticator app on your phone (any app that reads the standard TOTP keys), or one of your recovery codes."
      >
        {passwordAccount ? (
          <TwoFactorPanel enabled={user.twoFactorEnabled} required={required} />
        ) : (
          <p>
            You sign in through your identity provider, with no password here: your provider's own
            second factor protects the sign-in.
          </p>
        )}
      </Card>
    </>
  );
}
