import { ConflictError, embedOriginProblem, ValidationError } from "@seed/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { createChartAndDataset, dialects, errorOf, openTestStore } from "./helpers.js";

function fieldErrorsOf(error: unknown): Record<string, string[]> {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors;
}

describe("embed origins", () => {
  it.each([
    "https://example.com",
    "https://news.example.co.uk:8443",
    "https://*.example.com",
    "https://203.0.113.9",
    "http://localhost",
    "http://localhost:3000",
    "http://127.0.0.1:4100",
  ])("allows %s", (origin) => {
    expect(embedOriginProblem(origin)).toBeNull();
  });

  it.each([
    ["http://example.com", "use https"],
    ["https://example.com/page", "is not an origin"],
    ["https://*.com", "a wildcard needs a domain under it"],
    ["https://*", "is not an origin"],
    ["*", "is not an origin"],
    ["https://intranet", "needs a full host name"],
    ["https://example.com:0", "port outside"],
    ["https://example.com:70000", "port outside"],
    ["https://300.1.1.1", "is not an address"],
    ["https://example.com 'unsafe-inline'", "is not an origin"],
    ["https://example.com;script-src *", "is not an origin"],
    ["https://user@example.com", "is not an origin"],
    ["'self'", "is not an origin"],
    ["data:", "is not an origin"],
  ])("refuses %s", (origin, reason) => {
    expect(embedOriginProblem(origin)).toContain(reason);
  });
});

describe.each(dialects)("dashboard embed and refresh settings on %s", (dialect) => {
  it("starts closed to framing with refresh off", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });

    const created = await store.createDashboard({ title: "Plain", slug: "plain" }, editor);

    expect(created.embedOrigins).toEqual([]);
    expect(created.refreshSeconds).toBeNull();
  });

  it("keeps a normalised allowlist and an interval, audited as one versioned update", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDashboard({ title: "Wall", slug: "wall" }, editor);

    const updated = await store.updateDashboard(
      created.id,
      1,
      {
        embedOrigins: [" HTTPS://Intranet.Example.com/ ", "https://intranet.example.com", ""],
        refreshSeconds: 300,
      },
      editor,
    );

    expect(updated.embedOrigins).toEqual(["https://intranet.example.com"]);
    expect(updated.refreshSeconds).toBe(300);
    expect(updated.version).toBe(2);
    const reread = await store.getDashboard(created.id);
    expect(reread?.embedOrigins).toEqual(["https://intranet.example.com"]);
    expect(reread?.refreshSeconds).toBe(300);
    const { events } = await store.listAuditEvents({ entityType: "dashboard" });
    const update = events.find((event) => event.action === "dashboard.update");
    expect(update?.detail).toMatchObject({
      changed: ["embedOrigins", "refreshSeconds"],
      embedOrigins: ["https://intranet.example.com"],
      refreshSeconds: 300,
    });
    const stale = await errorOf(
      store.updateDashboard(created.id, 1, { refreshSeconds: null }, editor),
    );
    expect(stale).toBeInstanceOf(ConflictError);
  });

  it("refuses bad origins, too many origins and other intervals with field errors", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const created = await store.createDashboard({ title: "Strict", slug: "strict" }, editor);

    const badOrigins = fieldErrorsOf(
      await errorOf(
        store.updateDashboard(
          created.id,
          1,
          { embedOrigins: ["https://ok.example.com", "http://plain.example.com", "https://*.com"] },
          editor,
        ),
      ),
    );
    const tooMany = fieldErrorsOf(
      await errorOf(
        store.updateDashboard(
          created.id,
          1,
          {
            embedOrigins: Array.from({ length: 21 }, (_, index) => `https://s${index}.example.com`),
          },
          editor,
        ),
      ),
    );
    const badInterval = fieldErrorsOf(
      await errorOf(store.updateDashboard(created.id, 1, { refreshSeconds: 5 as 30 }, editor)),
    );

    expect(badOrigins.embedOrigins).toEqual([
      '"http://plain.example.com": use https (plain http is allowed only for localhost).',
      '"https://*.com": a wildcard needs a domain under it, e.g. https://*.example.com.',
    ]);
    expect(tooMany.embedOrigins).toEqual(["Allow at most 20 origins."]);
    expect(badInterval.refreshSeconds).toEqual(["Choose off, 30 seconds, 1, 5 or 15 minutes."]);
    expect((await store.getDashboard(created.id))?.version).toBe(1);
  });

  it("lets a chart be embedded only through dashboards that are published, unless signed", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const { chart } = await createChartAndDataset(store);
    const tiles = [{ kind: "chart" as const, chartId: chart.id }];
    await store.createDashboard(
      {
        title: "Draft",
        slug: "draft",
        tiles,
        embedOrigins: ["https://draft.example.com"],
        refreshSeconds: 30,
      },
      editor,
    );

    expect(await store.getEmbedAccess({ kind: "chart", id: chart.id })).toBeNull();
    expect(await store.getChartEmbed(chart.id)).toBeNull();
    expect(
      await store.getEmbedAccess({ kind: "chart", id: chart.id }, { includeDrafts: true }),
    ).toEqual({
      embedOrigins: ["https://draft.example.com"],
      slug: null,
    });

    await store.createDashboard(
      {
        title: "Public A",
        slug: "public-a",
        tiles,
        published: true,
        embedOrigins: ["https://a.example.com", "https://shared.example.com"],
        refreshSeconds: 900,
      },
      editor,
    );
    await store.createDashboard(
      {
        title: "Public B",
        slug: "public-b",
        tiles,
        published: true,
        embedOrigins: ["https://shared.example.com"],
        refreshSeconds: 60,
      },
      editor,
    );

    expect(await store.getEmbedAccess({ kind: "chart", id: chart.id })).toEqual({
      embedOrigins: ["https://a.example.com", "https://shared.example.com"],
      slug: null,
    });
    const embed = await store.getChartEmbed(chart.id);
    expect(embed?.chart.title).toBe("Revenue");
    expect(embed?.result?.rows.length).toBeGreaterThan(0);
    expect(embed?.refreshSeconds).toBe(60);
    expect(await store.getEmbedAccess({ kind: "dashboard", slug: "draft" })).toBeNull();
    expect(
      await store.getEmbedAccess({ kind: "dashboard", slug: "draft" }, { includeDrafts: true }),
    ).toEqual({
      embedOrigins: ["https://draft.example.com"],
      slug: "draft",
    });
    expect(
      await store.getEmbedAccess({ kind: "chart", id: "no-such-chart" }, { includeDrafts: true }),
    ).toBeNull();
  });

  it("finds a signed link's dashboard by id: a rename keeps it, a new dashboard on the old slug is not it", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const first = await store.createDashboard({ title: "First draft", slug: "plan" }, editor);
    const byId = { kind: "dashboard" as const, id: first.id };
    expect(await store.getEmbedAccess(byId)).toBeNull();
    expect(await store.getEmbedAccess(byId, { includeDrafts: true })).toEqual({
      embedOrigins: [],
      slug: "plan",
    });
    expect(
      (await store.getRenderedDashboard(first.id, { includeDrafts: true }))?.dashboard.title,
    ).toBe("First draft");

    await store.updateDashboard(first.id, 1, { slug: "plan-2026" }, editor);
    expect((await store.getEmbedAccess(byId, { includeDrafts: true }))?.slug).toBe("plan-2026");

    await store.deleteDashboard(first.id, 2, editor);
    const next = await store.createDashboard(
      { title: "Someone else's draft", slug: "plan-2026" },
      editor,
    );
    expect(next.id).not.toBe(first.id);
    expect(await store.getEmbedAccess(byId, { includeDrafts: true })).toBeNull();
    expect(await store.getRenderedDashboard(first.id, { includeDrafts: true })).toBeNull();
  });

  it("a link's id never opens another dashboard, whatever renames, deletes and new drafts follow (property)", async () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    console.log(`[embed id binding, ${dialect}] fast-check seed ${seed}`);
    const slugs = ["alpha", "beta", "gamma"];
    const step = fc.oneof(
      fc.record({ op: fc.constant("create" as const), slug: fc.constantFrom(...slugs) }),
      fc.record({
        op: fc.constant("rename" as const),
        slug: fc.constantFrom(...slugs),
        pick: fc.nat(),
      }),
      fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }),
    );
    const store = await openTestStore(dialect, { seedDemo: false });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        // Each run has slugs of its own in the one database.
        const prefix = `r${run++}-`;
        {
          // Every dashboard ever made, by id: its title and, while it lives, its slug and version.
          const made = new Map<
            string,
            { title: string; slug: string; version: number; alive: boolean }
          >();
          const alive = () => [...made.entries()].filter(([, record]) => record.alive);
          for (const [index, next] of steps.entries()) {
            if (next.op === "create") {
              const title = `Board ${prefix}${index}`;
              const slug = prefix + next.slug;
              if (alive().some(([, record]) => record.slug === slug)) continue;
              const created = await store.createDashboard({ title, slug }, editor);
              made.set(created.id, { title, slug, version: created.version, alive: true });
            } else {
              const live = alive();
              const target = live[next.pick % Math.max(1, live.length)];
              if (!target) continue;
              const [id, record] = target;
              if (next.op === "delete") {
                await store.deleteDashboard(id, record.version, editor);
                record.alive = false;
              } else if (!live.some(([, other]) => other.slug === prefix + next.slug)) {
                const updated = await store.updateDashboard(
                  id,
                  record.version,
                  { slug: prefix + next.slug },
                  editor,
                );
                record.slug = prefix + next.slug;
                record.version = updated.version;
              }
            }
            // The oracle: a link signed for any id ever made finds that very dashboard (under its
            // current slug) while it lives, and nothing once it is gone.
            for (const [id, record] of made) {
              const access = await store.getEmbedAccess(
                { kind: "dashboard", id },
                { includeDrafts: true },
              );
              const rendered = await store.getRenderedDashboard(id, { includeDrafts: true });
              if (record.alive) {
                expect(access?.slug).toBe(record.slug);
                expect(rendered?.dashboard.title).toBe(record.title);
              } else {
                expect(access).toBeNull();
                expect(rendered).toBeNull();
              }
            }
          }
        }
      }),
      { seed, numRuns: 15 },
    );
  });
});
