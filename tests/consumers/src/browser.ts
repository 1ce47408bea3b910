import { type Browser, chromium, type Page } from "playwright-core";
import { fullChromiumLaunchOptions } from "../../../scripts/chromium.mjs";

/** Debian's full Chromium (scripts/chromium.mjs), as a phone's taps need it; never a downloaded one. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(fullChromiumLaunchOptions);
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
