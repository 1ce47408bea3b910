import { Icon } from "@seed/ui";
import Link from "next/link";

/** The public pages' header: the product's name and the site's navigation. */
export function SiteHeader({ current }: { current?: "dashboards" } = {}) {
  return (
    <header className="site-header">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="grid" size={20} />
        </span>
        Seed Charts
      </Link>
      <nav aria-label="Site">
        <ul>
          <li>
            <Link href="/" aria-current={current === "dashboards" ? "page" : undefined}>
              Dashboards
            </Link>
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
