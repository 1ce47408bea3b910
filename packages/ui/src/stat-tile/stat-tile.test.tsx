import { render, screen } from "@testing-library/react";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { statTileWords } from "./format";
import { StatTile } from "./stat-tile";

describe("StatTile", () => {
  it("tones the value by its status and says it in words with an icon beside it", () => {
    const { container } = render(
      <StatTile label="Revenue" value={80} status={{ tone: "bad", label: "below target" }} />,
    );

    const value = container.querySelector(".seed-stat-tile__value");
    expect(value).toHaveAttribute("data-tone", "bad");
    expect(value).toHaveClass("seed-stat-tile__value--bad");
    const status = container.querySelector(".seed-stat-tile__status");
    expect(status).toHaveTextContent("below target");
    expect(status?.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
  });

  it("shows no status without a value", () => {
    const { container } = render(
      <StatTile label="Revenue" value={null} status={{ tone: "good", label: "on target" }} />,
    );

    expect(container.querySelector(".seed-stat-tile__status")).toBeNull();
    expect(container.querySelector(".seed-stat-tile__value")).not.toHaveAttribute("data-tone");
  });

  it("formats the value with the given locale and options", () => {
    const { container } = render(
      <StatTile
        label="Revenue"
        value={1234567.891}
        locale="de-DE"
        format={{ style: "currency", currency: "EUR" }}
      />,
    );

    // de-DE groups with "." and uses a comma for decimals, the sign after a no-break space.
    const value = container.querySelector(".seed-stat-tile__value");
    expect(value?.textContent).toBe("1.234.567,89\u00a0€");
    expect(screen.getByText("Revenue")).toBeInTheDocument();
  });

  it("shows a fall as a signed percent with the arrow-down icon and says it is down", () => {
    const { container } = render(
      <StatTile label="Orders" value={80} delta={-0.125} deltaLabel="vs last month" />,
    );

    const delta = container.querySelector(".seed-stat-tile__delta");
    expect(delta).toHaveAttribute("data-trend", "down");
    expect(delta).toHaveTextContent("-12.5% (down) vs last month");
    expect(delta?.querySelector('[data-seed-icon="arrow-down"]')).toHaveAttribute(
      "aria-hidden",
      "true",
    );
  });

  it("shows a rise with a plus sign and a rising indicator, not the arrow-down", () => {
    const { container } = render(<StatTile label="Orders" value={80} delta={0.034} />);

    const delta = container.querySelector(".seed-stat-tile__delta");
    expect(delta).toHaveAttribute("data-trend", "up");
    expect(delta).toHaveTextContent("+3.4% (up)");
    expect(delta?.querySelector('[data-seed-icon="arrow-up"]')).not.toBeNull();
    expect(delta?.querySelector('[data-seed-icon="arrow-down"]')).toBeNull();
  });

  it("formats the delta in the tile's locale", () => {
    const { container } = render(<StatTile label="Taux" value={1} locale="fr-FR" delta={-0.075} />);

    // fr-FR puts a (narrow, depending on the ICU version) no-break space before the sign.
    const delta = container.querySelector(".seed-stat-tile__delta-value");
    expect(delta?.textContent).toMatch(/^-7,5[\u00a0\u202f]%$/);
  });

  it("shows an em dash read as no data when the value is null", () => {
    const { container } = render(<StatTile label="Churn" value={null} />);

    const value = container.querySelector(".seed-stat-tile__value");
    expect(value).toHaveTextContent("—no data");
    expect(screen.getByText("—")).toHaveAttribute("aria-hidden", "true");
    expect(screen.getByText("no data")).toHaveClass("seed-visually-hidden");
  });

  it("says why there is no value, and only when there is none", () => {
    const reason = "No rows in the last 30 days (2030-05-17 to 2030-06-15).";
    const { rerender } = render(<StatTile label="Revenue" value={null} emptyReason={reason} />);
    expect(screen.getByText(reason)).toHaveClass("seed-stat-tile__empty");
    rerender(<StatTile label="Revenue" value={12} emptyReason={reason} />);
    expect(screen.queryByText(reason)).toBeNull();
    rerender(<StatTile label="Revenue" value={null} emptyReason={reason} loading />);
    expect(screen.queryByText(reason)).toBeNull();
  });

  it("treats a non-finite value as no data instead of printing NaN", () => {
    render(<StatTile label="Churn" value={Number.NaN} />);

    expect(screen.getByText("no data")).toBeInTheDocument();
    expect(screen.queryByText("NaN")).toBeNull();
  });

  it("falls back to plain formatting when the format options are invalid", () => {
    // A currency style without a currency code makes Intl.NumberFormat throw.
    render(<StatTile label="Revenue" value={1500} format={{ style: "currency" }} />);

    expect(screen.getByText("1,500")).toBeInTheDocument();
  });

  it("shows a busy skeleton and no value or delta while loading", () => {
    const { container } = render(
      <StatTile label="Revenue" value={1500} delta={0.1} loading icon="database" />,
    );

    const tile = container.firstElementChild;
    expect(tile).toHaveAttribute("aria-busy", "true");
    expect(screen.getByTestId("stat-tile-skeleton")).toBeInTheDocument();
    expect(screen.queryByText("1,500")).toBeNull();
    expect(container.querySelector(".seed-stat-tile__delta")).toBeNull();
    expect(container.querySelector('[data-seed-icon="database"]')).not.toBeNull();
  });
});

describe("statTileWords", () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(
    `[@seed/ui statTileWords] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`,
  );

  it("says what the tile shows, for any figure, format and change", () => {
    const formats = fc.constantFrom<Intl.NumberFormatOptions | undefined>(
      undefined,
      { style: "currency", currency: "EUR" },
      { style: "percent", maximumFractionDigits: 1 },
      { notation: "compact" },
      { style: "unit", unit: "kilogram" },
      { style: "currency", currency: "NOT-A-CURRENCY" },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double(),
          fc.constantFrom(null, Number.NaN, Number.POSITIVE_INFINITY, 0, -0, 1e21, -1e-7),
        ),
        formats,
        fc.option(fc.double(), { nil: undefined }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        fc.constantFrom("en-US", "de-DE", "ar-EG", "not a locale"),
        (value, format, delta, deltaLabel, locale) => {
          const figures = { label: "Revenue", value, format, delta, deltaLabel, locale };
          const words = statTileWords({ ...figures, emptyReason: "No rows." });
          const { container, unmount } = render(<StatTile {...figures} emptyReason="No rows." />);
          const shown = container.querySelector(".seed-stat-tile__value");
          if (value !== null && Number.isFinite(value)) {
            expect(shown?.textContent).toBe(words.value);
            expect(words.empty).toBeNull();
          } else {
            expect(words.value).toBe("—");
            expect(words.empty).toBe("No rows.");
            expect(container.querySelector(".seed-stat-tile__empty")?.textContent).toBe("No rows.");
          }
          const change = container.querySelector(".seed-stat-tile__delta-value")?.textContent;
          const changeLabel = container.querySelector(".seed-stat-tile__delta-label")?.textContent;
          expect(words.change).toBe(
            change === undefined ? null : [change, changeLabel?.trim()].filter(Boolean).join(" "),
          );
          unmount();
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
