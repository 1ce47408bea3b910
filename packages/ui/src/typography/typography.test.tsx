import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Heading } from "./heading";
import { Text } from "./text";

describe("Heading", () => {
  it.each([1, 2, 3, 4] as const)("level %i renders an h%i on the matching scale step", (level) => {
    render(<Heading level={level}>Revenue</Heading>);

    const heading = screen.getByRole("heading", { level, name: "Revenue" });
    expect(heading.tagName).toBe(`H${level}`);
    expect(heading).toHaveClass(`seed-heading--${level}`);
  });

  it("keeps the visual level when rendered as another element", () => {
    render(
      <Heading level={1} as="h2">
        Overview
      </Heading>,
    );

    const heading = screen.getByRole("heading", { level: 2, name: "Overview" });
    expect(heading).toHaveClass("seed-heading--1");
  });
});

describe("Text", () => {
  it("renders a paragraph at md size by default", () => {
    render(<Text>Body copy</Text>);

    const text = screen.getByText("Body copy");
    expect(text.tagName).toBe("P");
    expect(text).toHaveClass("seed-text", "seed-text--md");
    expect(text).not.toHaveClass("seed-text--muted");
  });

  it("applies size, muted and truncate variants and a custom element", () => {
    render(
      <Text as="span" size="xs" muted truncate>
        Fine print
      </Text>,
    );

    const text = screen.getByText("Fine print");
    expect(text.tagName).toBe("SPAN");
    expect(text).toHaveClass("seed-text--xs", "seed-text--muted", "seed-text--truncate");
  });
});
