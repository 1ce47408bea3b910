import "server-only";
import { headers } from "next/headers";

const fallbackLocale = "en-US";

/**
 * The reader's locale for formatting numbers on admin pages (which render per request): the
 * first well-formed language in Accept-Language that this server can format, else en-US.
 */
export async function requestLocale(): Promise<string> {
  const header = (await headers()).get("accept-language") ?? "";
  for (const part of header.slice(0, 500).split(",").slice(0, 12)) {
    const tag = part.split(";")[0]?.trim() ?? "";
    if (tag === "" || tag === "*" || tag.length > 35) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical && Intl.NumberFormat.supportedLocalesOf(canonical).length > 0) return canonical;
    } catch {
      // not a language tag: try the next one
    }
  }
  return fallbackLocale;
}
