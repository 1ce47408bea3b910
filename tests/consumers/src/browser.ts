import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium: Playwright must never download a browser of its own here. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-dev-shm-usage",
    ],
  });
}

export interface PageMessage {
  type: string;
  text: string;
}

/** Records console errors/warnings and uncaught page errors from the moment the page is created. */
export function collectProblems(page: Page): PageMessage[] {
  const problems: PageMessage[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      problems.push({ type: message.type(), text: message.text() });
    }
  });
  page.on("pageerror", (error) => problems.push({ type: "pageerror", text: String(error) }));
  return problems;
}

export function describeProblems(problems: PageMessage[]): string {
  return problems.map((problem) => `${problem.type}: ${problem.text}`).join("\n");
}
