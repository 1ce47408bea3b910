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

describe("ChartLegend with many series", () => {
  it("folds entries past the limit behind a keyboard-operable '+N more' button", async () => {
    const user = userEvent.setup();
    render(
      <ChartLegend
        entries={entries(30)}
        hidden={new Set()}
        onToggle={() => {}}
        onHighlight={() => {}}
      />,
    );
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
    render(
      <ChartLegend
        entries={entries(9)}
        hidden={new Set()}
        onToggle={() => {}}
        onHighlight={() => {}}
      />,
    );
    expect(screen.getAllByRole("button")).toHaveLength(9);
  });
});
