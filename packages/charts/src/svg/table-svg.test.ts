import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertSeeded } from "../testing/property";
import { tableSvg } from "./table-svg";

const rows = Array.from({ length: 30 }, (_, i) => ({
  name: i === 0 ? '<script>alert("x")</script> & Co' : `Row ${i + 1}`,
  value: i * 1000.5,
}));

describe("tableSvg", () => {
  it("draws the first rows that fit, escaped and formatted, then how many more there are", () => {
    const svg = tableSvg({
      data: rows,
      columns: [
        "name",
        { key: "value", label: "Value", rules: [{ when: "above", value: 20_000, tone: "good" }] },
      ],
      width: 400,
      height: 200,
      locale: "en-US",
      colors: "light",
      title: "Rows",
    });
    expect(svg).toMatch(/^<svg [^>]*width="400" height="200"/);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain(">1,000.5<");
    // 200 px: a header and 7 rows of 22 px, then the rest counted
    expect(svg).toContain("…and 23 more rows");
    expect(svg).toContain('aria-label="Rows"');
  });

  it("marks toned cells and says why it is empty", () => {
    const toned = tableSvg({
      data: rows.slice(25),
      columns: [{ key: "value", rules: [{ when: "above", value: 20_000, tone: "good" }] }],
      width: 300,
      height: 400,
    });
    expect(toned).toContain("✓ 25,012.5");
    expect(toned).not.toContain("more row");
    const empty = tableSvg({ data: [7, "x"] as never, columns: ["a"], width: 300, height: 100 });
    expect(empty).toContain("No row could be read");
  });

  it("never throws and stays one SVG of the asked size on any data and size", () => {
    assertSeeded(
      "tableSvg on any data",
      fc.property(
        fc.array(fc.dictionary(fc.constantFrom("a", "b"), fc.anything()), { maxLength: 30 }),
        fc.double(),
        fc.double(),
        (data, width, height) => {
          const svg = tableSvg({
            data,
            columns: ["a", { key: "b", kind: "number" }],
            width,
            height,
          });
          expect(svg.match(/<svg /g)).toHaveLength(1);
          // no coordinate or size is NaN or infinite (a cell may say "NaN" as text)
          expect(svg).not.toMatch(/="[^"]*(NaN|Infinity)[^"]*"/);
        },
      ),
      200,
    );
  });
});
