import type { CsvSourceTable } from "../parts/data-table";
import { toCsv } from "./csv";
import { type ChartTarget, findChart } from "./find-chart";
import { serializeChartSvg } from "./serialize-svg";

export interface ExportChartOptions {
  format: "png" | "svg";
  /** Pixels per CSS pixel of the PNG (default: the screen's devicePixelRatio). */
  pixelRatio?: number;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () =>
      reject(new Error("exportChart: the browser could not draw the chart's SVG."));
    image.src = url;
  });
}

/**
 * The chart behind `target` as an image file: SVG as the browser serialises it, with computed
 * styles inlined so it looks like the screen, or that SVG drawn onto a canvas as PNG.
 */
export async function exportChart(target: ChartTarget, options: ExportChartOptions): Promise<Blob> {
  const { svg, width, height } = await serializeChartSvg(findChart(target));
  if (options.format === "svg") return new Blob([svg], { type: "image/svg+xml" });

  const ratio =
    options.pixelRatio ?? (typeof window === "undefined" ? 1 : window.devicePixelRatio || 1);
  const image = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("exportChart: no 2D canvas in this browser.");
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("exportChart: PNG encoding failed."))),
      "image/png",
    ),
  );
}

/**
 * What the chart draws as CSV, headed by the index name and the series labels: for line, area
 * and bar charts every drawn point (after downsampling and legend toggles) with raw numbers and
 * ISO dates; for pies the slices of the data table.
 */
export function exportChartCsv(target: ChartTarget): string {
  const table = findChart(target).querySelector<CsvSourceTable>("table");
  if (!table) return toCsv([], []);
  const source = table.seedCsv?.();
  if (source) return toCsv(source[0] ?? [], source.slice(1));
  const cellsOf = (row: Element) => [...row.children].map((cell) => cell.textContent ?? "");
  const header = table.querySelector("thead tr");
  return toCsv(header ? cellsOf(header) : [], [...table.querySelectorAll("tbody tr")].map(cellsOf));
}

/** Saves a Blob or text under `filename` through a temporary link (browser only). */
export function downloadFile(data: Blob | string, filename: string): void {
  const blob =
    typeof data === "string" ? new Blob([data], { type: "text/csv;charset=utf-8" }) : data;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
