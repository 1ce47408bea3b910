import { TooltipProvider } from "@seed/ui";
import { withThemeByDataAttribute } from "@storybook/addon-themes";
import type { Preview } from "@storybook/react-vite";
import "@seed/ui/styles.css";
import "./preview.css";

const preview: Preview = {
  tags: ["autodocs"],
  decorators: [
    // Sets data-theme on <html>, which both @seed/ui and @seed/charts tokens follow.
    withThemeByDataAttribute({
      themes: { light: "light", dark: "dark" },
      defaultTheme: "light",
      attributeName: "data-theme",
    }),
    (Story) => (
      <TooltipProvider delayDuration={200}>
        <Story />
      </TooltipProvider>
    ),
  ],
  parameters: {
    layout: "padded",
    controls: { expanded: true, sort: "requiredFirst" },
    // Any axe violation fails the story's test (in the test runner and in the Vitest run).
    a11y: { test: "error" },
  },
};

export default preview;
