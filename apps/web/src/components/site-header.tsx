import Link from "next/link";

export function SiteHeader() {
  return (
    <header className="site-header">
      <Link href="/" className="brand">
        Seed Charts
      </Link>
      <nav aria-label="Site">
        <ul>
          <li>
            <Link href="/">Dashboards</Link>
          </li>
          <li>
            {/* No prefetch: signed out, the proxy answers an admin prefetch with 401. */}
            <Link href="/admin" prefetch={false}>
              Admin
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
