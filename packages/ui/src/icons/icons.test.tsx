import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { GithubIcon, Icon, InstagramIcon, iconComponents, iconNames } from "./index";

describe("icons", () => {
  it("exports one component per name, seventeen in all", () => {
    expect(iconNames).toHaveLength(17);
    expect(Object.keys(iconComponents).sort()).toEqual([...iconNames].sort());
  });

  it.each(iconNames)("%s is hidden from assistive technology without a label", (name) => {
    const { container } = render(<Icon name={name} />);

    const svg = container.querySelector("svg");
    expect(svg).not.toBeNull();
    expect(svg).toHaveAttribute("aria-hidden", "true");
    expect(svg).not.toHaveAttribute("role");
    expect(svg).toHaveAttribute("data-seed-icon", name);
    expect(svg).toHaveAttribute("viewBox", "0 0 24 24");
  });

  it.each(iconNames)("%s with a label is an image with that name", (name) => {
    render(<Icon name={name} label={`Icon ${name}`} />);

    const image = screen.getByRole("img", { name: `Icon ${name}` });
    expect(image).not.toHaveAttribute("aria-hidden");
    expect(image.tagName.toLowerCase()).toBe("svg");
  });

  it("applies size, stroke width, class and currentColor to outline icons", () => {
    const { container } = render(
      <Icon name="crown" size={32} strokeWidth={1.5} className="extra" />,
    );

    const svg = container.querySelector("svg");
    expect(svg).toHaveAttribute("width", "32");
    expect(svg).toHaveAttribute("height", "32");
    expect(svg).toHaveAttribute("stroke-width", "1.5");
    expect(svg).toHaveAttribute("stroke", "currentColor");
    expect(svg).toHaveClass("seed-icon", "extra");
  });

  it("draws brand icons filled with currentColor on a 24px grid", () => {
    const { container } = render(
      <>
        <GithubIcon size="2em" />
        <InstagramIcon />
      </>,
    );

    const [github, instagram] = container.querySelectorAll("svg");
    expect(github).toHaveAttribute("fill", "currentColor");
    expect(github).toHaveAttribute("width", "2em");
    expect(github?.querySelector("path")?.getAttribute("d")).toMatch(/^M12 \.297c/);
    expect(instagram).toHaveAttribute("viewBox", "0 0 24 24");
    expect(instagram?.querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(100);
  });
});
