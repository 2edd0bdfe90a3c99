import { decoder, withImageSlot } from "./images.ts";
import { RASTER_TYPES } from "./ingest.ts";

/**
 * Resized variants of raster images, asked for with `?w=<width>&format=<format>&q=<quality>` on an asset's
 * URL. Requests are snapped to a small set (widths up, qualities to the nearest), so at most
 * WIDTHS × FORMATS × QUALITIES variants exist per image and nobody can make the server resize without limit.
 */
export const VARIANT_WIDTHS = [64, 128, 256, 320, 480, 640, 768, 960, 1080, 1280, 1600, 1920, 2560] as const;
export const VARIANT_FORMATS = ["avif", "webp", "jpeg", "png"] as const;
export const VARIANT_QUALITIES = [40, 50, 60, 70, 75, 80, 90] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export interface VariantRequest {
  width: number | undefined;
  format: VariantFormat;
  quality: number;
}

const FORMAT_OF: Record<string, VariantFormat> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "png",
};

/**
 * The variant a query asks for, snapped to the allowed sets; undefined when it asks for none (no w, format
 * or q) or the asset is not a raster image; a string (the problem) when a parameter is invalid.
 */
export function variantOf(search: string, contentType: string): VariantRequest | string | undefined {
  if (!search || !RASTER_TYPES.includes(contentType)) return undefined;
  const query = new URLSearchParams(search);
  const w = query.get("w");
  const format = query.get("format");
  const q = query.get("q");
  if (w === null && format === null && q === null) return undefined;
  if (w !== null && !/^\d{1,5}$/.test(w)) return "w must be a width in pixels";
  if (format !== null && !(VARIANT_FORMATS as readonly string[]).includes(format)) {
    return `format must be one of ${VARIANT_FORMATS.join(", ")}`;
  }
  if (q !== null && !/^\d{1,3}$/.test(q)) return "q must be a quality from 1 to 100";
  const width =
    w === null
      ? undefined
      : (VARIANT_WIDTHS.find((allowed) => allowed >= Number(w)) ?? VARIANT_WIDTHS.at(-1)!);
  const quality =
    q === null
      ? 75
      : VARIANT_QUALITIES.reduce((best, value) =>
          Math.abs(value - Number(q)) < Math.abs(best - Number(q)) ? value : best,
        );
  return { width, format: (format as VariantFormat | null) ?? FORMAT_OF[contentType] ?? "jpeg", quality };
}

export const variantType = (format: VariantFormat) => `image/${format}`;
export const variantKey = (sha256: string, v: VariantRequest) =>
  `${sha256}-w${v.width ?? 0}-q${v.quality}.${v.format}`;

/** Resizes (never enlarging; EXIF rotation applied) and encodes one variant, in the image slots. */
export function makeVariant(bytes: Uint8Array, variant: VariantRequest): Promise<Uint8Array> {
  return withImageSlot(async () => {
    let image = decoder(bytes).rotate();
    if (variant.width) image = image.resize({ width: variant.width, withoutEnlargement: true });
    const q = variant.quality;
    image =
      variant.format === "avif"
        ? image.avif({ quality: q, effort: 2 })
        : variant.format === "webp"
          ? image.webp({ quality: q })
          : variant.format === "jpeg"
            ? image.jpeg({ quality: q, mozjpeg: true })
            : image.png({ compressionLevel: 6 });
    return new Uint8Array(await image.toBuffer());
  });
}
