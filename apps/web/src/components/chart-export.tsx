"use client";

import { type RefObject, useState } from "react";

type Format = "png" | "svg" | "csv";

/** A file name from a chart title: letters, digits and dashes, never empty. */
function fileName(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-")
    .slice(0, 80);
  return slug === "" ? "chart" : slug;
}

/**
 * Download buttons for one chart: an image (PNG or SVG) of what is on screen, and the CSV of
 * the points it draws. The export code (@seed/charts/export) loads on the first click, so
 * visitors who never export do not download it.
 */
export function ChartExport({
  target,
  title,
  formats = ["png", "svg", "csv"],
}: {
  target: RefObject<HTMLElement | null>;
  title: string;
  /** What it offers (default all three; a table, drawn in HTML, is data only: CSV). */
  formats?: readonly Format[] | undefined;
}) {
  const [busy, setBusy] = useState<Format | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function download(format: Format) {
    setBusy(format);
    setProblem(null);
    try {
      const { downloadFile, exportChart, exportChartCsv } = await import("@seed/charts/export");
      const name = fileName(title);
      if (format === "csv") downloadFile(exportChartCsv(target), `${name}.csv`);
      else downloadFile(await exportChart(target, { format }), `${name}.${format}`);
    } catch (error) {
      setProblem(
        `The ${format.toUpperCase()} could not be made: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="chart-export">
      {formats.map((format) => (
        <button
          key={format}
          type="button"
          className="button button-secondary button-small"
          aria-label={`Download ${title} as ${format.toUpperCase()}`}
          disabled={busy !== null}
          onClick={() => download(format)}
        >
          {format.toUpperCase()}
        </button>
      ))}
      {problem ? (
        <p role="alert" className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
