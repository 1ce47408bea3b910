import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Card } from "./card";

describe("Card", () => {
  it("is a region named by its title, with description, actions and body", () => {
    render(
      <Card
        title="Sales"
        description="Last 30 days"
        actions={<button type="button">Export</button>}
      >
        <p>Body</p>
      </Card>,
    );

    const card = screen.getByRole("region", { name: "Sales" });
    expect(card).toHaveTextContent("Last 30 days");
    expect(screen.getByRole("heading", { level: 3, name: "Sales" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export" })).toBeInTheDocument();
    expect(screen.getByText("Body")).toBeInTheDocument();
  });

  it("renders only the body when there is no header content", () => {
    const { container } = render(
      <Card as="div">
        <p>Only body</p>
      </Card>,
    );

    expect(container.querySelector(".seed-card__header")).toBeNull();
    expect(container.firstElementChild?.tagName).toBe("DIV");
  });
});
