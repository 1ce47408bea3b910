import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Tooltip, TooltipProvider } from "./tooltip";

function renderTooltip() {
  return render(
    <TooltipProvider delayDuration={0}>
      <Tooltip content="Export as CSV">
        <button type="button">Export</button>
      </Tooltip>
    </TooltipProvider>,
  );
}

describe("Tooltip", () => {
  it("opens on keyboard focus and describes the trigger", async () => {
    const user = userEvent.setup();
    renderTooltip();

    await user.tab();

    expect(screen.getByRole("button", { name: "Export" })).toHaveFocus();
    const tooltip = await screen.findByRole("tooltip");
    expect(tooltip).toHaveTextContent("Export as CSV");
    expect(screen.getByRole("button", { name: "Export" })).toHaveAccessibleDescription(
      "Export as CSV",
    );
  });

  it("opens on pointer hover", async () => {
    const user = userEvent.setup();
    renderTooltip();

    expect(screen.queryByRole("tooltip")).toBeNull();
    await user.hover(screen.getByRole("button", { name: "Export" }));

    expect(await screen.findByRole("tooltip")).toHaveTextContent("Export as CSV");
  });

  it("closes on Escape", async () => {
    const user = userEvent.setup();
    renderTooltip();
    await user.tab();
    await screen.findByRole("tooltip");

    await user.keyboard("{Escape}");

    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("works without a provider", async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Alone" delayDuration={0}>
        <button type="button">Solo</button>
      </Tooltip>,
    );

    await user.tab();

    expect(await screen.findByRole("tooltip")).toHaveTextContent("Alone");
  });
});
