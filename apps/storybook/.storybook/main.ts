import type { StorybookConfig } from "@storybook/react-vite";

const config: StorybookConfig = {
  // ui stories live in stories/ui, chart stories in stories/charts; both import packages by name.
  stories: ["../stories/**/*.stories.tsx"],
  addons: [
    "@storybook/addon-docs",
    "@storybook/addon-a11y",
    "@storybook/addon-themes",
    "@storybook/addon-vitest",
  ],
  framework: { name: "@storybook/react-vite", options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
