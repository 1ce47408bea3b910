import { downloadFile, exportChart, exportChartCsv } from "@seed/charts/export";
import "@seed/charts/styles.css";
import type { StoryObj } from "@storybook/react-vite";
import { useRef } from "react";
import { expect, waitFor } from "storybook/test";
import { SalesLineChart } from "./sales-chart";

const meta = { title: "Charts/Export" };
export default meta;

function ExportDemo() {
  const chart = useRef<HTMLDivElement | null>(null);
  return (
    <div>
      <div ref={chart}>
        <SalesLineChart height={260} />
      </div>
      <div style={{ display: "flex", gap: 8, marginTop: 8 }}>
        {(["png", "svg"] as const).map((format) => (
          <button
            key={format}
            type="button"
            onClick={async () =>
              downloadFile(await exportChart(chart, { format }), `chart.${format}`)
            }
          >
            Download {format.toUpperCase()}
          </button>
        ))}
        <button type="button" onClick={() => downloadFile(exportChartCsv(chart), "chart.csv")}>
          Download CSV
        </button>
      </div>
    </div>
  );
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
async function pngSize(blob: Blob): Promise<{ width: number; height: number }> {
  const bytes = new DataView(await blob.arrayBuffer());
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  signature.forEach((byte, i) => {
    if (bytes.getUint8(i) !== byte) throw new Error("not a PNG signature");
  });
  const chunk = String.fromCharCode(...[12, 13, 14, 15].map((i) => bytes.getUint8(i)));
  if (chunk !== "IHDR") throw new Error("PNG without IHDR first");
  return { width: bytes.getUint32(16), height: bytes.getUint32(20) };
}

export const PngSvgAndCsv: StoryObj = {
  render: () => <ExportDemo />,
  play: async ({ canvasElement }) => {
    const surface = await waitFor(() => {
      const svg = canvasElement.querySelector(".seed-chart-plot svg.recharts-surface");
      if (!svg) throw new Error("chart not drawn yet");
      return svg.getBoundingClientRect();
    });
    const figure = canvasElement.querySelector(".seed-chart") as HTMLElement;
    // a legend row of 24 px is drawn under the plot, as on screen
    const expected = { width: Math.round(surface.width), height: Math.round(surface.height) + 24 };

    const png = await exportChart(figure, { format: "png", pixelRatio: 1 });
    await expect(png.type).toBe("image/png");
    await expect(await pngSize(png)).toEqual(expected);
    const sharp = await exportChart(figure, { format: "png", pixelRatio: 2 });
    await expect(await pngSize(sharp)).toEqual({
      width: expected.width * 2,
      height: expected.height * 2,
    });

    const svg = await (await exportChart(figure, { format: "svg" })).text();
    await expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // theme variables are resolved into colours, so the file looks like the screen anywhere
    await expect(svg).not.toContain("var(--seed-chart");
    await expect(svg).toContain("Cost");

    const csv = exportChartCsv(figure);
    const [header, first] = csv.split("\r\n");
    await expect(header).toBe("month,revenue,Cost");
    // raw numbers and ISO days, as spreadsheets read them
    await expect(first).toBe("2024-01-01,4200,2600");
  },
};

/** A web font of the page (here served from a blob URL) is inlined into the exported SVG. */
export const WebFontInlined: StoryObj = {
  render: () => (
    <div style={{ fontFamily: "SeedExportFont, sans-serif" }}>
      <ExportDemo />
    </div>
  ),
  play: async ({ canvasElement }) => {
    // any bytes do: the check is that the file travels inside the SVG, not how it renders
    const fontUrl = URL.createObjectURL(new Blob(["font bytes"], { type: "font/woff2" }));
    const style = document.createElement("style");
    style.textContent = `@font-face { font-family: SeedExportFont; src: url(${fontUrl}); }
      .seed-chart { --seed-chart-font: SeedExportFont, sans-serif; }`;
    document.head.append(style);
    try {
      const figure = await waitFor(() => {
        const chart = canvasElement.querySelector(".seed-chart");
        if (!chart?.querySelector("svg.recharts-surface")) throw new Error("chart not drawn yet");
        return chart as HTMLElement;
      });
      const svg = await (await exportChart(figure, { format: "svg" })).text();
      await expect(svg).toContain("@font-face");
      await expect(svg).toContain("data:font/woff2;base64,");
      await expect(svg).not.toContain("blob:");
    } finally {
      style.remove();
      URL.revokeObjectURL(fontUrl);
    }
  },
};
