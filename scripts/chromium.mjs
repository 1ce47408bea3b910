// How tests and benchmarks start Debian's Chromium (never a browser Playwright downloads). The one
// home of the browser's paths and flags: the web app's e2e suites, the stories' tests, the
// consumer apps' tests and the benchmarks all launch through these.

const args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-dev-shm-usage",
];

/**
 * Tests drive Chromium's headless shell (Debian's `chromium-headless-shell`, the build Playwright
 * itself runs headless tests in): the same Blink and V8 as the browser, without the full
 * browser's own window, tab strip and GPU processes. On two cores the full browser spent about a
 * second making each browser context and twice as long loading each page; CHROMIUM_PATH
 * overrides it (e.g. `/usr/bin/chromium` to watch a run in the full browser).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args,
};

/**
 * The full browser (`/usr/bin/chromium`, or CHROMIUM_PATH), for what must be as a reader meets
 * it: benchmarks (a first load), and the consumer apps' tests, whose finger taps on a phone-sized
 * page the headless shell does not turn into the taps a phone's browser makes.
 */
export const fullChromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args,
};
