import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chartThemes } from "@seed/charts/svg";
import { demoDashboardSlug, openStore, type Store } from "@seed/store";
import fc from "fast-check";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Report, renderCharts, reportEmail, reportPdf } from "./report-render";
import { reportTiles } from "./send-report";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`[@seed/web report-render] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

let dataDir: string;
let store: Store;
let report: Report;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "seed-report-render-"));
  store = await openStore({ dataDir, databaseUrl: null });
  const rendered = await store.getDashboardBySlug(demoDashboardSlug);
  if (!rendered) throw new Error("no demo dashboard");
  report = {
    title: rendered.dashboard.title,
    subtitle: "Every Monday at 08:00 (Europe/Paris)",
    link: "https://seed.test/d/demo",
    unsubscribeUrl: "https://seed.test/unsubscribe/abc",
    ...reportTiles(rendered.tiles),
  };
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function hex(color: string): [number, number, number] {
  return [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16)) as [
    number,
    number,
    number,
  ];
}

describe("a report's images, email and PDF from the demo dashboard", () => {
  it("draws every chart of the page as a sharp PNG in the page's series colours", () => {
    expect(report.charts.length).toBeGreaterThanOrEqual(2);
    const rendered = renderCharts(report, 2);
    const first = hex(chartThemes.light.series[0] ?? "#000000");
    for (const chart of rendered) {
      expect(chart.png, chart.title).not.toBeNull();
      const image = PNG.sync.read(chart.png ?? Buffer.alloc(0));
      expect([image.width, image.height]).toEqual([1280, 560]);
      let seriesPixels = 0;
      let inked = 0;
      for (let at = 0; at < image.data.length; at += 4) {
        const [r = 0, g = 0, b = 0] = image.data.subarray(at, at + 3);
        if (r < 250 || g < 250 || b < 250) inked += 1;
        if (Math.abs(r - first[0]) + Math.abs(g - first[1]) + Math.abs(b - first[2]) < 24)
          seriesPixels += 1;
      }
      // Drawn, on white, with the first series in its colour (lines, bars or the first slice).
      expect(inked, chart.title).toBeGreaterThan(2_000);
      expect(seriesPixels, chart.title).toBeGreaterThan(300);
    }
  });

  it("writes an email showing each chart inline and a PDF with a page per chart", async () => {
    const rendered = renderCharts(report, 2);
    const email = reportEmail(report, rendered);
    for (const chart of rendered) expect(email.html).toContain(`src="cid:${chart.cid}"`);
    expect(email.html).toContain('href="https://seed.test/d/demo"');
    expect(email.html).toContain('href="https://seed.test/unsubscribe/abc"');
    expect(email.text).toContain("Open the dashboard: https://seed.test/d/demo");
    // The stat tiles, first, written as the tiles write them.
    expect(report.stats.length).toBeGreaterThanOrEqual(1);
    for (const stat of report.stats) {
      expect(stat.value).not.toBe("—");
      expect(email.html).toContain(`>${stat.value}</p>`);
      expect(email.text).toContain(`${stat.label}: ${stat.value}`);
      expect(email.html.indexOf(stat.value)).toBeLessThan(email.html.indexOf("cid:"));
    }
    const pdf = await PDFDocument.load(await reportPdf(report, rendered));
    expect(pdf.getTitle()).toBe(report.title);
    const pages = pdf.getPages();
    expect(pages).toHaveLength(1 + rendered.length);
    for (const page of pages.slice(1)) {
      const resources = page.node.Resources();
      const xObjects = resources?.lookupMaybe(PDFName.of("XObject"), PDFDict);
      expect(xObjects?.keys().length ?? 0).toBe(1);
    }
  });

  it("draws a table chart's first rows as its image, with how many more there are", async () => {
    const actor = { id: "report-test", email: "report@example.com", role: "editor" } as const;
    const [dataset] = await store.listDatasets();
    if (!dataset) throw new Error("the demo has datasets");
    const x = dataset.columns.find((column) => column.type === "string")?.name;
    if (!x) throw new Error("the demo dataset has a text column");
    const chart = await store.createChart(
      {
        title: "Rows by name",
        type: "table",
        datasetId: dataset.id,
        query: { x: { column: x }, measures: [{ aggregate: "count" }] },
      },
      actor,
    );
    await store.createDashboard(
      {
        title: "Tables",
        slug: "tables",
        published: true,
        tiles: [{ kind: "chart", chartId: chart.id }],
      },
      actor,
    );
    const rendered = await store.getDashboardBySlug("tables");
    const tile = rendered?.tiles[0];
    if (tile?.kind !== "chart" || !tile.result) throw new Error("the table has a result");
    const { charts } = reportTiles(rendered?.tiles ?? []);
    const svg = charts[0]?.svg ?? "";
    expect(svg).toContain("Rows by name");
    const first = String(tile.result.rows[0]?.x);
    expect(svg).toContain(`>${first.replace(/&/g, "&amp;").replace(/</g, "&lt;")}<`);
    const [image] = renderCharts({ ...report, charts }, 2);
    expect(image?.png).not.toBeNull();
    const png = PNG.sync.read(image?.png ?? Buffer.alloc(0));
    expect([png.width, png.height]).toEqual([1280, 560]);
  });

  it("says why a chart without data has no image, in the email and the PDF", async () => {
    const empty: Report = {
      ...report,
      charts: [{ title: "Revenue", svg: null, emptyReason: "The column revenue was deleted." }],
    };
    const rendered = renderCharts(empty);
    expect(reportEmail(empty, rendered).html).toContain("The column revenue was deleted.");
    const pdf = await PDFDocument.load(await reportPdf(empty, rendered));
    expect(pdf.getPages()).toHaveLength(2);
  });

  it("keeps any title as text: escaped in the email, written in the PDF, never a crash", async () => {
    const title = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc.constantFrom(
        '<script>alert("x")</script>',
        "売上 📈 مبيعات",
        "a\r\nBcc: eve@evil.test",
        "\u0000\u202e",
        "&amp; <b>",
      ),
    );
    await fc.assert(
      fc.asyncProperty(title, title, async (dashboardTitle, chartTitle) => {
        const named: Report = {
          ...report,
          title: dashboardTitle,
          stats: [
            {
              label: chartTitle,
              value: dashboardTitle,
              change: chartTitle,
              status: dashboardTitle,
              empty: null,
            },
          ],
          charts: [{ title: chartTitle, svg: null }],
        };
        const rendered = renderCharts(named);
        const email = reportEmail(named, rendered);
        // Every tag in the email is one the template wrote.
        const tags = [...email.html.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((match) =>
          match[1]?.toLowerCase(),
        );
        expect(
          tags.every((tag) =>
            ["html", "body", "div", "h1", "h2", "p", "a", "img"].includes(tag ?? ""),
          ),
        ).toBe(true);
        const pdf = await PDFDocument.load(await reportPdf(named, rendered));
        expect(pdf.getPages()).toHaveLength(2);
      }),
      { seed, numRuns: 60 },
    );
  });
});
