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
            <Link href="/admin">Admin</Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
