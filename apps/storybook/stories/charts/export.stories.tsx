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
    await expect(first?.split(",").length).toBeGreaterThanOrEqual(3);
  },
};
