import { Tooltip } from "@seed/ui";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";

const buttonStyle = {
  padding: "var(--seed-space-2) var(--seed-space-4)",
  font: "inherit",
  color: "var(--seed-color-accent-fg)",
  background: "var(--seed-color-accent)",
  border: "none",
  borderRadius: "var(--seed-radius-md)",
  cursor: "pointer",
};

const meta = {
  title: "UI/Tooltip",
  component: Tooltip,
  args: {
    content: "Download the data as CSV",
    side: "top",
    delayDuration: 200,
    children: (
      <button type="button" style={buttonStyle}>
        Export
      </button>
    ),
  },
  argTypes: {
    content: {
      description: "What the tooltip says; also the trigger's accessible description.",
      table: { type: { summary: "ReactNode" } },
    },
    side: {
      control: "inline-radio",
      options: ["top", "right", "bottom", "left"],
      table: { defaultValue: { summary: "top" } },
    },
    delayDuration: { description: "Hover delay in ms; defaults to the TooltipProvider's (300)." },
    children: {
      control: false,
      description: "One focusable trigger that accepts a ref (button, link).",
      table: { type: { summary: "ReactElement" } },
    },
  },
  decorators: [
    (Story) => (
      <div style={{ padding: "var(--seed-space-8)", display: "flex", justifyContent: "center" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Tooltip>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const OpensOnFocus: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    const trigger = canvas.getByRole("button", { name: "Export" });

    await userEvent.tab();

    await expect(trigger).toHaveFocus();
    const tooltip = await page.findByRole("tooltip");
    await expect(tooltip).toHaveTextContent("Download the data as CSV");
    await expect(trigger).toHaveAccessibleDescription("Download the data as CSV");
  },
};

export const OpensOnHover: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement.ownerDocument.body);
    const trigger = within(canvasElement).getByRole("button", { name: "Export" });

    await userEvent.hover(trigger);

    await expect(await page.findByRole("tooltip")).toHaveTextContent("Download the data as CSV");
  },
};

export const ClosesOnEscape: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement.ownerDocument.body);
    await userEvent.tab();
    await page.findByRole("tooltip");

    await userEvent.keyboard("{Escape}");

    await waitFor(() => expect(page.queryByRole("tooltip")).toBeNull());
  },
};

export const OnTheRight: Story = { args: { side: "right" } };
