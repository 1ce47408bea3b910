import { randomInt } from "node:crypto";
import { expect, request, test } from "@playwright/test";
import { signedInPage } from "../content-support";
import { appBaseURL, type TestRole, testUser } from "../support";

// Viewers and editors see who did what by name, never an email or a user record's contents;
// admins see emails. Paging through the audit API returns each event once under every filter.

const roles: TestRole[] = ["admin", "editor", "viewer"];

function filterVariants(seed: number, actorIds: string[]): Record<string, string>[] {
  const pick = <T>(items: T[], index: number): T => items[(seed + index) % items.length] as T;
  return [
    {},
    { entityType: "user" },
    { entityType: "dataset" },
    { entityType: "dashboard" },
    { action: "user.create" },
    { entityType: "user", action: "user.create" },
    { actor: pick(actorIds, 1) ?? "nobody" },
    { actor: pick(actorIds, 2) ?? "nobody", entityType: "user" },
    { from: "2000-01-01", to: "2999-12-31" },
    { from: "2999-01-01" },
  ];
}

interface AuditJson {
  events: {
    id: string;
    actor: { id: string; name: string; email?: string };
    entityType: string;
    detail: unknown;
  }[];
  nextCursor: string | null;
}

for (const role of ["viewer", "editor"] as const) {
  test(`the ${role} reads the audit log by name, with no emails or user records`, async () => {
    const seed = randomInt(1_000_000);
    console.log(`audit-visibility ${role} seed ${seed}`);
    const client = await request.newContext({
      baseURL: appBaseURL(),
      storageState: testUser(role).storageState,
    });
    // The reader's own email appears in the admin navigation; everyone else's must not.
    const emails = roles.filter((each) => each !== role).map((each) => testUser(each).email);
    const first = (await (await client.get("/admin/api/audit")).json()) as AuditJson;
    const actorIds = [...new Set(first.events.map((event) => event.actor.id))];
    for (const filter of filterVariants(seed, actorIds)) {
      const query = new URLSearchParams(filter).toString();
      const response = await client.get(`/admin/api/audit?${query}`);
      expect(response.status(), query).toBe(200);
      const text = await response.text();
      for (const email of emails) expect(text, query).not.toContain(email);
      expect(text, query).not.toMatch(/"email"/);
      const page = JSON.parse(text) as AuditJson;
      for (const event of page.events) {
        expect(event.actor.name.length, query).toBeGreaterThan(0);
        if (event.entityType === "user") expect(event.detail, query).toBeNull();
      }
      const html = await (await client.get(`/admin/audit?${query}`)).text();
      for (const email of emails) expect(html, `page ${query}`).not.toContain(email);
    }
    await client.dispose();
  });
}

test("the admin sees the actors' emails and user records' details", async ({ browser }) => {
  const { context, page } = await signedInPage(browser, "admin");
  // Account creations (other user events, such as refusals, fill the log as the suite runs).
  await page.goto("/admin/audit?entityType=user&action=user.create");
  await expect(page.getByRole("cell", { name: testUser("admin").email }).first()).toBeVisible();
  // User events' details, as the page lists them: a field named email, with its value.
  await expect(page.locator("dl.detail-list dt", { hasText: /^email$/ }).first()).toBeVisible();
  await context.close();
});

test("paging returns each event once under every filter", async () => {
  const seed = randomInt(1_000_000);
  console.log(`audit-paging seed ${seed}`);
  const client = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const walk = async (filter: Record<string, string>): Promise<string[]> => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ ...filter, ...(cursor ? { cursor } : {}) });
      const response = await client.get(`/admin/api/audit?${query}`);
      expect(response.status(), query.toString()).toBe(200);
      const page = (await response.json()) as AuditJson;
      expect(page.events.length).toBeLessThanOrEqual(50);
      ids.push(...page.events.map((event) => event.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    return ids;
  };
  const first = (await (await client.get("/admin/api/audit")).json()) as AuditJson;
  const actorIds = [...new Set(first.events.map((event) => event.actor.id))];
  for (const filter of filterVariants(seed, actorIds)) {
    const filtered = await walk(filter);
    expect(new Set(filtered).size, JSON.stringify(filter)).toBe(filtered.length);
    // Events are never deleted, so a later walk of the whole log holds every one of them.
    const everything = new Set(await walk({}));
    for (const id of filtered) expect(everything.has(id), JSON.stringify(filter)).toBe(true);
  }
  await client.dispose();
});
