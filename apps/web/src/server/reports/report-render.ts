import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { Resvg } from "@resvg/resvg-js";
import type { StatTileWords } from "@seed/ui";
import { PDFDocument, type PDFFont, rgb } from "pdf-lib";

// A scheduled report as it leaves the app: each chart drawn by the server's chart code (the SVG
// the page's HTML holds, in light colours) and turned into a PNG by resvg, no browser involved;
// an email that shows the PNGs inline; a PDF with a page per chart. Stat tiles come first, in
// words written as the tiles write them (statTileWords). Text is the page's font,
// Geist, with the system's fonts behind it for letters Geist lacks.

export interface ReportChart {
  title: string;
  /** chartSvg's drawing (reportChartSvg), or null when the chart had no result. */
  svg: string | null;
  /** Why there is no drawing, said in the email and the PDF instead of an image. */
  emptyReason?: string;
}

export interface Report {
  title: string;
  /** "Every Monday at 08:00 (Europe/Paris)", filters, and when the data was read. */
  subtitle: string;
  /** The dashboard in the app, with the report's filters. */
  link: string;
  unsubscribeUrl: string;
  /** The dashboard's stat tiles, in its order, as the tiles write them. */
  stats: StatTileWords[];
  charts: ReportChart[];
}

/** A stat's line under its figure: the change, the target's verdict, or why there is no figure. */
function statNote(stat: StatTileWords): string {
  return [stat.change, stat.status, stat.empty].filter(Boolean).join(" · ");
}

export interface RenderedChart {
  title: string;
  cid: string | null;
  png: Buffer | null;
  /** CSS pixels (the PNG holds `scale` times as many). */
  width: number;
  height: number;
  emptyReason: string | null;
}

const fontsDir = (() => {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return path.join(path.dirname(require.resolve("geist/font/sans")), "fonts", "geist-sans");
})();
const regularFont = path.join(fontsDir, "Geist-Regular.ttf");
const semiBoldFont = path.join(fontsDir, "Geist-SemiBold.ttf");

/** An SVG drawing as a PNG at `scale` device pixels per CSS pixel (2: sharp on phones). */
export function svgToPng(svg: string, scale = 2): { png: Buffer; width: number; height: number } {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    font: {
      fontFiles: [regularFont, semiBoldFont],
      loadSystemFonts: true,
      defaultFontFamily: "Geist",
      sansSerifFamily: "Geist",
    },
    background: "#ffffff",
  });
  const image = resvg.render();
  return { png: image.asPng(), width: resvg.width, height: resvg.height };
}

export function renderCharts(report: Report, scale = 2): RenderedChart[] {
  return report.charts.map((chart, index) => {
    if (!chart.svg) {
      return {
        title: chart.title,
        cid: null,
        png: null,
        width: 0,
        height: 0,
        emptyReason: chart.emptyReason ?? "No data to draw.",
      };
    }
    const { png, width, height } = svgToPng(chart.svg, scale);
    return { title: chart.title, cid: `chart-${index + 1}`, png, width, height, emptyReason: null };
  });
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The email: the charts inline (cid images), the link back and the unsubscribe link. */
export function reportEmail(
  report: Report,
  charts: RenderedChart[],
): { html: string; text: string } {
  const link = escapeHtml(report.link);
  const stats = report.stats
    .map((stat) => {
      const note = statNote(stat);
      return `<div style="display:inline-block;vertical-align:top;min-width:140px;margin:16px 24px 0 0"><p style="margin:0;font-size:13px;color:#52525b">${escapeHtml(stat.label)}</p><p style="margin:2px 0 0;font-size:24px;font-weight:600">${escapeHtml(stat.value)}</p>${note ? `<p style="margin:2px 0 0;font-size:13px;color:#52525b">${escapeHtml(note)}</p>` : ""}</div>`;
    })
    .join("");
  const blocks = charts
    .map((chart) => {
      const title = `<h2 style="font-size:16px;margin:24px 0 8px">${escapeHtml(chart.title)}</h2>`;
      if (!chart.cid)
        return `${title}<p style="color:#52525b">${escapeHtml(chart.emptyReason ?? "")}</p>`;
      return `${title}<img src="cid:${chart.cid}" width="${chart.width}" height="${chart.height}" alt="${escapeHtml(chart.title)}" style="display:block;max-width:100%;height:auto;border:0">`;
    })
    .join("");
  const html = `<!doctype html><html lang="en"><body style="margin:0;padding:16px;font-family:Geist,Arial,sans-serif;color:#18181b;background:#ffffff"><div style="max-width:680px;margin:0 auto"><h1 style="font-size:20px;margin:0 0 4px">${escapeHtml(report.title)}</h1><p style="margin:0;color:#52525b">${escapeHtml(report.subtitle)}</p>${stats ? `<div>${stats}</div>` : ""}${blocks}<p style="margin:24px 0 0"><a href="${link}">Open the dashboard</a></p><p style="margin:24px 0 0;font-size:12px;color:#52525b">You get this report because someone scheduled it for you. <a href="${escapeHtml(report.unsubscribeUrl)}">Unsubscribe</a></p></div></body></html>`;
  const text = [
    report.title,
    report.subtitle,
    "",
    ...report.stats.map((stat) => {
      const note = statNote(stat);
      return `${stat.label}: ${stat.value}${note ? ` (${note})` : ""}`;
    }),
    ...(report.stats.length > 0 ? [""] : []),
    ...charts.map((chart) =>
      chart.cid ? `- ${chart.title}` : `- ${chart.title}: ${chart.emptyReason}`,
    ),
    "",
    `Open the dashboard: ${report.link}`,
    `Unsubscribe: ${report.unsubscribeUrl}`,
  ].join("\n");
  return { html, text };
}

let fontBytes: Promise<[Buffer, Buffer]> | null = null;

/** The PDF: a first page with the title and link, then a page per chart (A4, landscape). */
export async function reportPdf(report: Report, charts: RenderedChart[]): Promise<Uint8Array> {
  fontBytes ??= Promise.all([readFile(regularFont), readFile(semiBoldFont)]);
  const [regularBytes, boldBytes] = await fontBytes;
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(report.title);
  pdf.setCreator("Seed");
  const regular = await pdf.embedFont(regularBytes, { subset: true });
  const bold = await pdf.embedFont(boldBytes, { subset: true });
  const [pageWidth, pageHeight] = [841.89, 595.28];
  const margin = 40;
  const ink = rgb(0.094, 0.094, 0.106);
  const muted = rgb(0.32, 0.32, 0.36);

  function lines(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
    const words = text.split(/\s+/).filter(Boolean);
    const out: string[] = [];
    let line = "";
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (line && safeWidth(font, next, size) > maxWidth) {
        out.push(line);
        line = word;
      } else line = next;
    }
    if (line) out.push(line);
    return out.length > 0 ? out : [""];
  }

  function write(
    page: ReturnType<typeof pdf.addPage>,
    text: string,
    font: PDFFont,
    size: number,
    y: number,
    color = ink,
  ): number {
    let at = y;
    for (const line of lines(text, font, size, pageWidth - 2 * margin)) {
      page.drawText(line, { x: margin, y: at, size, font, color });
      at -= size * 1.35;
    }
    return at;
  }

  const cover = pdf.addPage([pageWidth, pageHeight]);
  let y = pageHeight - margin - 24;
  y = write(cover, report.title, bold, 24, y);
  y = write(cover, report.subtitle, regular, 12, y - 4, muted);
  y = write(cover, `Open the dashboard: ${report.link}`, regular, 11, y - 12);
  y -= 8;
  for (const stat of report.stats) {
    y = write(cover, stat.label, regular, 11, y - 8, muted);
    y = write(cover, stat.value, bold, 18, y);
    const note = statNote(stat);
    if (note) y = write(cover, note, regular, 11, y, muted);
  }
  write(cover, charts.map((chart) => chart.title).join(" · "), regular, 11, y - 12, muted);

  for (const chart of charts) {
    const page = pdf.addPage([pageWidth, pageHeight]);
    const top = write(page, chart.title, bold, 16, pageHeight - margin - 16);
    if (!chart.png) {
      write(page, chart.emptyReason ?? "", regular, 12, top - 8, muted);
      continue;
    }
    const image = await pdf.embedPng(chart.png);
    const room = { width: pageWidth - 2 * margin, height: top - margin - 8 };
    const fit = Math.min(room.width / chart.width, room.height / chart.height, 1.5);
    const size = { width: chart.width * fit, height: chart.height * fit };
    page.drawImage(image, { x: margin, y: top - 8 - size.height, ...size });
  }
  return pdf.save();
}

/** A width that never throws on a letter the font lacks (it is drawn as the font's blank). */
function safeWidth(font: PDFFont, text: string, size: number): number {
  try {
    return font.widthOfTextAtSize(text, size);
  } catch {
    return text.length * size * 0.6;
  }
}
