// How tests and benchmarks start Debian's Chromium (never a downloaded browser).
export const chromiumLaunchOptions = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
  ],
};
