import sharp from "sharp";
import type { PrepareContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { SafeFetchError, safeFetch } from "../../oauth/safe-fetch.ts";
import { MAX_INPUT_PIXELS } from "../assets/images.ts";
import { type PreparedUpload, prepareUpload } from "../assets/upload.ts";

/** Most images on one call's sheets, and the largest image fetched for a tile. */
export const MAX_SHEET_IMAGES = 100;
const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;
/** Images fetched at once (each a safe fetch; the decoding runs on libuv's threads). */
const PARALLEL = 4;

export type SheetSource = { url: string } | { assetId: string };

export interface SheetLayout {
  columns: number;
  rows: number;
  tileWidth: number;
}

export interface SheetEntry {
  number: number;
  sheet: number;
  source: SheetSource;
  /** Why the tile is empty: the image could not be fetched or decoded. */
  error: string | null;
}

/** Fetches an image URL through the platform's safe fetch (public addresses only, redirects re-checked). */
async function fetchImage(url: string, loopbackOrigins: readonly string[]): Promise<Uint8Array> {
  let current = new URL(url);
  for (let hop = 0; hop <= 5; hop++) {
    const answer = await safeFetch(current, {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_IMAGE_BYTES,
      allowLoopback: loopbackOrigins.includes(current.origin),
      allowHttp: true,
      accept: "image/*",
    });
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) {
      current = new URL(answer.headers.location, current);
      continue;
    }
    if (answer.status !== 200) throw new SafeFetchError(`it answered ${answer.status}`);
    return answer.bytes;
  }
  throw new SafeFetchError("more than 5 redirects");
}

/** A tile: the image fitted into the square on a light background, its number in a dark box at the top left. */
async function tile(bytes: Uint8Array | null, number: number, size: number): Promise<Buffer> {
  const label = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect x="0" y="0" width="${24 + String(number).length * 14}" height="34" fill="#111" fill-opacity="0.85"/><text x="10" y="25" font-family="DejaVu Sans, sans-serif" font-size="22" font-weight="bold" fill="#fff">${number}</text>${bytes ? "" : `<text x="${size / 2}" y="${size / 2}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#900">not available</text>`}</svg>`,
  );
  const base = bytes
    ? await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
        .rotate()
        .resize(size, size, { fit: "contain", background: "#f2f2f2" })
        .flatten({ background: "#f2f2f2" })
        .png()
        .toBuffer()
    : await sharp({ create: { width: size, height: size, channels: 3, background: "#f2f2f2" } })
        .png()
        .toBuffer();
  return sharp(base)
    .composite([{ input: label, top: 0, left: 0 }])
    .png()
    .toBuffer();
}

/**
 * Lays the images out on numbered sheets (`columns` × `rows` tiles each, numbered from 1 across the sheets),
 * each stored as a JPEG blob ready to become an asset. An image that cannot be fetched or decoded keeps its
 * number with an empty tile and its reason in the map.
 */
export async function makeContactSheets(
  ctx: PrepareContext,
  websiteId: string,
  sources: SheetSource[],
  layout: SheetLayout,
): Promise<{ sheets: PreparedUpload[]; entries: SheetEntry[] }> {
  const loopback = ctx.platform.config.research.loopbackOrigins;
  const load = async (source: SheetSource): Promise<Uint8Array> => {
    if ("url" in source) return fetchImage(source.url, loopback);
    const asset = await ctx.read((stores) => stores.assets.get(websiteId, source.assetId));
    if (!asset) throw new Error("not an asset of this website");
    const bytes = await ctx.platform.blobs.get(asset.sha256);
    if (!bytes) throw new Error("the asset's file is missing");
    return bytes;
  };
  const tiles: Buffer[] = new Array(sources.length);
  const entries: SheetEntry[] = [];
  const perSheet = layout.columns * layout.rows;
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const index = next++;
      let bytes: Uint8Array | null = null;
      let error: string | null = null;
      try {
        bytes = await load(sources[index]!);
        tiles[index] = await tile(bytes, index + 1, layout.tileWidth);
      } catch (failure) {
        error = failure instanceof Error ? failure.message.slice(0, 200) : String(failure);
        tiles[index] = await tile(null, index + 1, layout.tileWidth);
      }
      entries[index] = {
        number: index + 1,
        sheet: Math.floor(index / perSheet) + 1,
        source: sources[index]!,
        error,
      };
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const gap = 6;
  const sheets: PreparedUpload[] = [];
  for (let start = 0; start < sources.length; start += perSheet) {
    const group = tiles.slice(start, start + perSheet);
    const rows = Math.ceil(group.length / layout.columns);
    const columns = Math.min(layout.columns, group.length);
    const step = layout.tileWidth + gap;
    const sheet = await sharp({
      create: { width: columns * step + gap, height: rows * step + gap, channels: 3, background: "#ffffff" },
    })
      .composite(
        group.map((input, i) => ({
          input,
          left: gap + (i % layout.columns) * step,
          top: gap + Math.floor(i / layout.columns) * step,
        })),
      )
      .jpeg({ quality: 82 })
      .toBuffer();
    const number = sheets.length + 1;
    sheets.push(await prepareUpload(ctx, sheet, "images", `contact-sheet-${number}.jpg`));
  }
  if (sheets.length === 0) throw new ApiError("validation", "images: give at least one image.");
  return { sheets, entries };
}
