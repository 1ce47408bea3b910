import { z } from "zod";
import { optionalText, requiredText } from "../fields.js";
import { dashboardLimits, embedLimits, textLimits } from "../limits.js";
import { isTimeZone } from "../query/time.js";
import { slugWords } from "../slug.js";
import { iconNameSchema } from "../vocabulary.js";
import { dashboardFilterConfigSchema, noDashboardFilters } from "./filters.js";
import { tileInputSchema, tileLayoutSchema } from "./tiles.js";

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugSchema = requiredText("slug", textLimits.slug).regex(
  slugPattern,
  "Use lowercase letters, digits and single hyphens, e.g. store-performance.",
);

const tilesSchema = z
  .array(tileInputSchema, { error: "Tiles must be a list." })
  .max(dashboardLimits.maxTiles, `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`);

/** An IANA time zone for a dashboard's date buckets ("Europe/Paris"); null is UTC. */
export const timeZoneSchema = z
  .string({ error: "Choose a time zone." })
  .trim()
  .refine(isTimeZone, "Choose a time zone such as UTC or Europe/Paris.");

/** How often a dashboard's page refreshes itself, in seconds; null is off. */
export const refreshIntervals = [30, 60, 300, 900] as const;
export type RefreshSeconds = (typeof refreshIntervals)[number];

export const refreshSecondsSchema = z.union(
  refreshIntervals.map((seconds) => z.literal(seconds)),
  { error: "Choose off, 30 seconds, 1, 5 or 15 minutes." },
);

// Each origin is written into a CSP header as is, so the patterns leave no room for anything else.
const dnsLabel = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const portPart = "(?::([0-9]{1,5}))?";
const domainOrigin = new RegExp(`^https://(\\*\\.)?(${dnsLabel}(?:\\.${dnsLabel})*)${portPart}$`);
const ipv4Origin = new RegExp(
  `^https://(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})${portPart}$`,
);
const localOrigin = new RegExp(`^https?://(?:localhost|127\\.0\\.0\\.1)${portPart}$`);

function isPort(text: string | undefined): boolean {
  return text === undefined || (Number(text) >= 1 && Number(text) <= 65_535);
}

/**
 * Why `origin` cannot be in an embed allowlist, or null when it can. Allowed: https://host[:port]
 * (a domain or an IPv4 address), https://*.example.com (its subdomains, as CSP matches them: not
 * example.com itself, and never a bare `*.com`), and http(s)://localhost or 127.0.0.1 for
 * development. No paths, quotes, spaces or `;`: the origin goes into `frame-ancestors` as is.
 */
export function embedOriginProblem(origin: string): string | null {
  const short = origin.length > 60 ? `${origin.slice(0, 59)}…` : origin;
  if (origin.length > embedLimits.maxOriginLength) return `"${short}" is too long.`;
  const local = localOrigin.exec(origin);
  if (local) return isPort(local[1]) ? null : `"${short}" has a port outside 1-65535.`;
  if (origin.startsWith("http://")) {
    return `"${short}": use https (plain http is allowed only for localhost).`;
  }
  const ip = ipv4Origin.exec(origin);
  if (ip) {
    if (ip.slice(1, 5).some((octet) => Number(octet) > 255)) return `"${short}" is not an address.`;
    return isPort(ip[5]) ? null : `"${short}" has a port outside 1-65535.`;
  }
  const domain = domainOrigin.exec(origin);
  if (domain) {
    if (!isPort(domain[3])) return `"${short}" has a port outside 1-65535.`;
    if ((domain[2] ?? "").split(".").length >= 2) return null;
    // "*.com" would let every site under a top-level domain frame the page.
    return domain[1]
      ? `"${short}": a wildcard needs a domain under it, e.g. https://*.example.com.`
      : `"${short}" needs a full host name, e.g. https://example.com.`;
  }
  return `"${short}" is not an origin: write https://host or https://host:port, with no path.`;
}

/** Normalises what people paste: trims, lowercases, drops one trailing slash. */
export function normalizeEmbedOrigin(text: string): string {
  return text.trim().toLowerCase().replace(/\/$/, "");
}

/** An embed allowlist: checked origins, normalised and without repeats. Errors name each entry. */
export const embedOriginsSchema = z
  .array(z.string({ error: "Each origin must be text." }), {
    error: "The allowed origins must be a list.",
  })
  .transform((origins, ctx) => {
    const normalized = [
      ...new Set(origins.map(normalizeEmbedOrigin).filter((origin) => origin !== "")),
    ];
    for (const origin of normalized) {
      const problem = embedOriginProblem(origin);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
    if (normalized.length > embedLimits.maxOrigins) {
      ctx.addIssue({
        code: "custom",
        message: `Allow at most ${embedLimits.maxOrigins} origins.`,
      });
    }
    return normalized;
  });

export const dashboardInputSchema = z.object({
  title: requiredText("title", textLimits.title),
  slug: slugSchema,
  description: optionalText("description", textLimits.description).default(""),
  icon: iconNameSchema.nullable().default(null),
  timeZone: timeZoneSchema.nullable().default(null),
  embedOrigins: embedOriginsSchema.default([]),
  refreshSeconds: refreshSecondsSchema.nullable().default(null),
  filters: dashboardFilterConfigSchema.default(noDashboardFilters),
  published: z.boolean({ error: "Published must be true or false." }).default(false),
  tiles: tilesSchema.default([]),
});
export type DashboardInput = z.input<typeof dashboardInputSchema>;

export const dashboardPatchSchema = z.object({
  title: requiredText("title", textLimits.title).optional(),
  slug: slugSchema.optional(),
  description: optionalText("description", textLimits.description).optional(),
  icon: iconNameSchema.nullable().optional(),
  timeZone: timeZoneSchema.nullable().optional(),
  embedOrigins: embedOriginsSchema.optional(),
  refreshSeconds: refreshSecondsSchema.nullable().optional(),
  filters: dashboardFilterConfigSchema.optional(),
  tiles: tilesSchema.optional(),
});
export type DashboardPatch = z.input<typeof dashboardPatchSchema>;

/** A whole dashboard's arrangement, saved at once: every tile of the dashboard with its place. */
export const dashboardLayoutSchema = z
  .array(z.object({ tileId: z.string().min(1, "Name the tile."), ...tileLayoutSchema.shape }), {
    error: "The layout must be a list of tiles.",
  })
  .max(dashboardLimits.maxTiles, `A dashboard has at most ${dashboardLimits.maxTiles} tiles.`);
export type DashboardLayoutInput = z.input<typeof dashboardLayoutSchema>;

/** Turns a slug-ish title into a URL-safe slug suggestion ("Store Performance!" -> "store-performance"). */
export function slugify(text: string): string {
  // the cut can end inside a run of hyphens
  return slugWords(text, 64).replace(/-+$/g, "");
}
