import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium (never a downloaded browser build). */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is installed: browser tests are skipped where it is not. */
export const hasChromium = existsSync(CHROMIUM);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

/** Launches headless Debian Chromium for a test, with `extraArgs` after the usual flags. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
}
