/** Types of scripts/chromium.mjs for the TypeScript configs that do not read JavaScript. */
export interface ChromiumLaunchOptions {
  executablePath: string;
  args: string[];
}
export const chromiumLaunchOptions: ChromiumLaunchOptions;
export const fullChromiumLaunchOptions: ChromiumLaunchOptions;
