import sharp, { type Metadata } from "sharp";

/**
 * Image work with sharp, bounded: decoding stops past `MAX_INPUT_PIXELS` (a decompression bomb is refused,
 * not decoded), and at most `CONCURRENCY` images are processed at once. sharp runs on libuv's thread pool, so
 * the event loop stays free; the cap keeps a burst of uploads or variant requests from taking every thread.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
const CONCURRENCY = 2;

sharp.concurrency(1);
sharp.cache(false);

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when fewer than CONCURRENCY image jobs are running. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** A sharp pipeline over untrusted bytes: pixel limit, and any decoding error or truncation fails. */
export const decoder = (bytes: Uint8Array, options: { animated?: boolean } = {}) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated", animated: options.animated });

export interface ImageFacts {
  width: number;
  height: number;
}

/**
 * Decodes the whole image (a small thumbnail of it) to prove it is intact, and returns its displayed
 * dimensions (EXIF rotation applied). Throws a message for the uploader when it is not a usable image.
 */
export async function inspectImage(bytes: Uint8Array): Promise<ImageFacts> {
  return withImageSlot(async () => {
    const image = decoder(bytes);
    let meta: Metadata;
    try {
      meta = await image.metadata();
    } catch (error) {
      throw new ImageRefused(reason(error));
    }
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new ImageRefused("the image has no dimensions");
    if (width * height > MAX_INPUT_PIXELS) {
      throw new ImageRefused(
        `the image is ${width}×${height} pixels, more than the ${MAX_INPUT_PIXELS.toLocaleString("en")}-pixel limit`,
      );
    }
    try {
      await image.resize(32, 32, { fit: "inside" }).raw().toBuffer();
    } catch (error) {
      throw new ImageRefused(reason(error));
    }
    return { width, height };
  });
}

/** Why an image could not be used, for the uploader. */
export class ImageRefused extends Error {}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return `the image has more than ${MAX_INPUT_PIXELS.toLocaleString("en")} pixels (a decompression bomb is refused)`;
  }
  if (/truncat|premature|unexpected end|corrupt|EOF|read error/i.test(message))
    return "the image is truncated or damaged";
  return "the image could not be decoded";
}
