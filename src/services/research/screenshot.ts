import sharp from "sharp";
import type { PrepareContext } from "../../kernel/context.ts";
import { type PreparedUpload, prepareUpload } from "../assets/upload.ts";
import { type WaitUntil, withPage } from "./session.ts";

/** Named widths of `research.screenshot`, in CSS pixels, with the viewport height used for each. */
export const DEVICE_WIDTHS = { mobile: 390, tablet: 768, desktop: 1280 } as const;
export type Device = keyof typeof DEVICE_WIDTHS;

/** Tallest full-page screenshot, in CSS pixels; a longer page is cut at this height (and says so). */
export const MAX_SCREENSHOT_HEIGHT = 12_000;

export interface ScreenshotRequest {
  url: string;
  widths: (Device | number)[];
  fullPage: boolean;
  format: "png" | "webp";
  waitUntil: WaitUntil;
}

export interface PreparedScreenshot {
  width: number;
  fullPage: boolean;
  /** True when the page was taller than MAX_SCREENSHOT_HEIGHT and the picture stops there. */
  truncated: boolean;
  upload: PreparedUpload;
}

export interface PreparedScreenshots {
  finalUrl: string;
  status: number | null;
  title: string;
  shots: PreparedScreenshot[];
}

const heightFor = (width: number) => (width <= 480 ? 844 : width <= 1024 ? 1024 : 800);

/**
 * Loads the page once in a guarded browser and takes a screenshot at each width (viewport or full page), then
 * stores each as a blob ready to become an asset (PNG, or WebP made with sharp).
 */
export async function takeScreenshots(
  ctx: PrepareContext,
  organizationId: string,
  request: ScreenshotRequest,
): Promise<PreparedScreenshots> {
  const widths = request.widths.map((w) => (typeof w === "number" ? w : DEVICE_WIDTHS[w]));
  const first = widths[0]!;
  const shots = await withPage(
    ctx.platform,
    organizationId,
    { url: request.url, waitUntil: request.waitUntil, viewport: { width: first, height: heightFor(first) } },
    async ({ page, finalUrl, status }) => {
      const taken: { width: number; png: Buffer; truncated: boolean }[] = [];
      for (const width of widths) {
        await page.setViewportSize({ width, height: heightFor(width) });
        const height = await page.evaluate("document.documentElement.scrollHeight");
        const truncated = request.fullPage && Number(height) > MAX_SCREENSHOT_HEIGHT;
        const png = await page.screenshot({
          type: "png",
          fullPage: request.fullPage,
          animations: "disabled",
          ...(truncated ? { clip: { x: 0, y: 0, width, height: MAX_SCREENSHOT_HEIGHT } } : {}),
        });
        taken.push({ width, png, truncated });
      }
      return { finalUrl, status, title: (await page.title()).slice(0, 300), taken };
    },
  );
  const host = new URL(shots.finalUrl).hostname.replace(/[^A-Za-z0-9.-]/g, "") || "page";
  const prepared: PreparedScreenshot[] = [];
  for (const shot of shots.taken) {
    const bytes =
      request.format === "webp" ? await sharp(shot.png).webp({ quality: 82 }).toBuffer() : shot.png;
    const name = `screenshot-${host}-${shot.width}${request.fullPage ? "-full" : ""}.${request.format}`;
    const upload = await prepareUpload(ctx, bytes, "url", name);
    prepared.push({ width: shot.width, fullPage: request.fullPage, truncated: shot.truncated, upload });
  }
  return { finalUrl: shots.finalUrl, status: shots.status, title: shots.title, shots: prepared };
}
