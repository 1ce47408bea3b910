import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ChartLegend } from "./legend";

const entries = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    key: `k${i}`,
    label: `Series ${i + 1}`,
    color: "#000",
  }));

function renderLegend(count: number) {
  render(
    <ChartLegend
      entries={entries(count)}
      hidden={new Set()}
      onToggle={() => {}}
      onHighlight={() => {}}
    />,
  );
}

describe("ChartLegend with many series", () => {
  it("folds entries past the limit behind a keyboard-operable '+N more' button", async () => {
    const user = userEvent.setup();
    renderLegend(30);
    expect(screen.getAllByRole("button", { pressed: true })).toHaveLength(8);
    const more = screen.getByRole("button", { name: "+22 more" });
    expect(more).toHaveAttribute("aria-expanded", "false");

    more.focus();
    await user.keyboard("{Enter}");
    expect(screen.getAllByRole("button", { pressed: true })).toHaveLength(30);
    expect(screen.getByRole("button", { name: "Show fewer" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
  });

  it("shows every entry without a button when at most one would fold", () => {
    renderLegend(9);
    expect(screen.getAllByRole("button")).toHaveLength(9);
  });
});
