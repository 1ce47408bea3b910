import { Text } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";

const typeScale = ["xs", "sm", "md", "lg", "xl", "2xl", "3xl"] as const;
const colours = [
  "bg",
  "surface",
  "fg",
  "muted",
  "border",
  "accent",
  "positive",
  "negative",
] as const;
const spaces = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const radii = ["sm", "md", "lg"] as const;

function TokenName({ children }: { children: string }) {
  return (
    <Text as="code" size="sm" muted>
      {children}
    </Text>
  );
}

const meta = {
  title: "UI/Foundations",
  parameters: {
    docs: {
      description: {
        component:
          "Design tokens from `@seed/ui/styles.css`: CSS custom properties on `:root`, with dark values under `prefers-color-scheme`, `.dark` and `[data-theme=dark]`.",
      },
    },
  },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const TypeScale: Story = {
  render: () => (
    <div style={{ display: "grid", gap: "var(--seed-space-3)" }}>
      {typeScale.map((step) => (
        <div
          key={step}
          style={{
            display: "grid",
            gridTemplateColumns: "10rem 1fr",
            alignItems: "baseline",
            gap: "var(--seed-space-4)",
          }}
        >
          <TokenName>{`--seed-text-${step}`}</TokenName>
          <span
            style={{ fontSize: `var(--seed-text-${step})`, fontFamily: "var(--seed-font-sans)" }}
          >
            The quick brown fox jumps over the lazy dog
          </span>
        </div>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const samples = within(canvasElement).getAllByText(
      "The quick brown fox jumps over the lazy dog",
    );
    const sizes = samples.map((sample) => Number.parseFloat(getComputedStyle(sample).fontSize));
    // The scale must grow strictly from xs to 3xl.
    await expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    await expect(new Set(sizes).size).toBe(typeScale.length);
  },
};

const expectedBackground = { light: "rgb(255, 255, 255)", dark: "rgb(11, 17, 32)" } as const;

export const Colours: Story = {
  play: async ({ canvasElement, globals }) => {
    // The toolbar theme (and the Vitest dark run) must really switch the tokens on <html>.
    const theme: "light" | "dark" = globals.theme === "dark" ? "dark" : "light";
    const root = canvasElement.ownerDocument.documentElement;
    await expect(root).toHaveAttribute("data-theme", theme);
    const body = canvasElement.ownerDocument.body;
    await expect(getComputedStyle(body).backgroundColor).toBe(expectedBackground[theme]);
  },
  render: () => (
    <div
      style={{
        display: "grid",
        gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))",
        gap: "var(--seed-space-4)",
      }}
    >
      {colours.map((colour) => (
        <div key={colour} style={{ display: "grid", gap: "var(--seed-space-2)" }}>
          <div
            style={{
              height: "3rem",
              borderRadius: "var(--seed-radius-md)",
              border: "1px solid var(--seed-color-border)",
              background: `var(--seed-color-${colour})`,
            }}
          />
          <TokenName>{`--seed-color-${colour}`}</TokenName>
        </div>
      ))}
    </div>
  ),
};

export const SpacingAndRadii: Story = {
  render: () => (
    <div style={{ display: "grid", gap: "var(--seed-space-6)" }}>
      <div style={{ display: "grid", gap: "var(--seed-space-2)" }}>
        {spaces.map((space) => (
          <div
            key={space}
            style={{ display: "flex", alignItems: "center", gap: "var(--seed-space-4)" }}
          >
            <span style={{ width: "10rem" }}>
              <TokenName>{`--seed-space-${space}`}</TokenName>
            </span>
            <span
              style={{
                display: "block",
                width: `var(--seed-space-${space})`,
                height: "1rem",
                background: "var(--seed-color-accent)",
              }}
            />
          </div>
        ))}
      </div>
      <div style={{ display: "flex", gap: "var(--seed-space-4)" }}>
        {radii.map((radius) => (
          <div
            key={radius}
            style={{ display: "grid", gap: "var(--seed-space-2)", justifyItems: "center" }}
          >
            <span
              style={{
                display: "block",
                width: "4rem",
                height: "4rem",
                border: "2px solid var(--seed-color-accent)",
                borderRadius: `var(--seed-radius-${radius})`,
              }}
            />
            <TokenName>{`--seed-radius-${radius}`}</TokenName>
          </div>
        ))}
      </div>
    </div>
  ),
};
