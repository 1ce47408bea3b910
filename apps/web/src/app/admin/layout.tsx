import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/app/login/actions";
import { AdminNav, type AdminNavItem } from "@/components/admin/admin-nav";
import { accountPath, hasPermission, requireAccount, twoFactorSetupDue } from "@/server/auth";

export const metadata: Metadata = {
  title: { default: "Admin", template: "%s · Admin · Seed Charts" },
  robots: { index: false, follow: false },
};

export default async function AdminLayout({ children }: { children: ReactNode }) {
  // The account page must open while two-factor setup is due; every other page and action asks
  // requirePermission, which sends such an account there first.
  const session = await requireAccount();
  const setupDue = await twoFactorSetupDue(session);
  const account: AdminNavItem = { href: accountPath, label: "Your account" };
  const items: AdminNavItem[] = setupDue
    ? [account]
    : [
        { href: "/admin", label: "Overview" },
        { href: "/admin/datasets", label: "Datasets" },
        { href: "/admin/charts", label: "Charts" },
        { href: "/admin/dashboards", label: "Dashboards" },
        { href: "/admin/collections", label: "Collections" },
        ...(hasPermission(session, "content.write")
          ? [
              { href: "/admin/reports", label: "Reports" },
              { href: "/admin/alerts", label: "Alerts" },
            ]
          : []),
        ...(hasPermission(session, "sql.run")
          ? [{ href: "/admin/sql", label: "SQL questions" }]
          : []),
        ...(hasPermission(session, "sources.manage")
          ? [{ href: "/admin/sources", label: "Live sources" }]
          : []),
        ...(hasPermission(session, "users.manage")
          ? [{ href: "/admin/users", label: "Users" }]
          : []),
        ...(hasPermission(session, "audit.read")
          ? [{ href: "/admin/audit", label: "Audit log" }]
          : []),
        { href: "/admin/tokens", label: "API tokens" },
        account,
      ];
  return (
    <div className="admin-shell">
      <nav className="admin-nav" aria-label="Admin">
        <Link href="/" className="brand">
          Seed Charts
        </Link>
        <AdminNav items={items} />
        <p className="muted">
          {session.user.email}
          <br />
          Role: {session.user.role}
        </p>
        <form action={signOut}>
          <button type="submit" className="button button-secondary">
            Sign out
          </button>
        </form>
      </nav>
      <main id="main" className="admin-main stack">
        {children}
      </main>
    </div>
  );
}
